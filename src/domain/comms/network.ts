import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { validationError } from '../errors.ts';

/** Loopback, private, link-local, unspecified and carrier-grade NAT ranges, v4 and v6. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10]] as const) PRIVATE.addSubnet(net, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  return PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Checks a webhook URL: http(s), and — unless private networks are allowed — every address its
 * host resolves to is public, so a workspace cannot make the server probe its own network. The
 * worker checks again before each delivery (DNS can change after connect).
 */
export async function checkWebhookUrl(raw: string, param: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationError(param, `${param} must be an absolute http(s) URL, got ${JSON.stringify(raw)}`, { rule: 'format' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw validationError(param, `${param} must use http or https`, { rule: 'format' });
  if (url.username || url.password) throw validationError(param, `${param} must not carry credentials; use the secret to authenticate`, { rule: 'format' });
  if (!allowPrivate) await checkPublicHost(url, param, 'webhooks must reach a public address');
  return url;
}

/**
 * Checks a workspace's SMTP server URL as a webhook URL is checked: smtp:// or smtps:// with a host
 * and a valid port, and — unless private networks are allowed — a host whose every address is
 * public. Without it a workspace could point its mail at the server's own network and read what
 * answers there in the email's error. The message never repeats the URL, which holds credentials.
 */
export async function checkSmtpUrl(raw: string, param: string, allowPrivate: boolean): Promise<URL> {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // Reported below, without the text.
  }
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw validationError(param, `${param} must look like smtp://user:password@host:587 or smtps://user:password@host:465 (a host, and a numeric port if one is given)`, { rule: 'format' });
  }
  // nodemailer reads a URL's query as transport options (a proxy, sendmail and its path, a local
  // address): none may come from a workspace, so only the host, port and login are taken.
  if (url.search !== '' || url.hash !== '' || (url.pathname !== '' && url.pathname !== '/')) {
    throw validationError(param, `${param} must hold only the login, host and port: no path, query or fragment`, { rule: 'format' });
  }
  if (!allowPrivate) await checkPublicHost(url, param, 'the SMTP server must be at a public address');
  return url;
}

/**
 * The nodemailer options of a checked smtp(s) URL: its host, port, TLS and login only, so nothing
 * else a URL can carry (nodemailer reads its query as options) reaches the transport.
 */
export function smtpTransportOptions(url: URL): { host: string; port?: number; secure: boolean; auth?: { user: string; pass: string } } {
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    ...(url.port ? { port: Number(url.port) } : {}),
    secure: url.protocol === 'smtps:',
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
  };
}

/** Every address the URL's host resolves to is public; a validation error on `param` otherwise, ending with `rule`. */
async function checkPublicHost(url: URL, param: string, rule: string): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw validationError(param, `${param}: the host ${JSON.stringify(host)} does not resolve`, { rule: 'unresolvable' });
  }
  const bad = addresses.find(isPrivateAddress);
  if (bad) {
    throw validationError(param, `${param}: ${host} resolves to ${bad}, a loopback, private or link-local address; ${rule}`, { rule: 'private_network' });
  }
}

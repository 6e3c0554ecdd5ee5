import type { Middleware } from 'koa';
import { CrmError } from '../../src/domain/errors.ts';
import type { GatewayDeps } from '../state.ts';

/** Names that always reach this process only from this machine. */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** `example.com:8080` → `example.com`; `[::1]:8080` → `[::1]`. Lower case. */
export function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

/** The Host names this server answers to: its bound address, loopback, and `ALLOWED_HOSTS`. */
export function allowedHostnames(deps: GatewayDeps): Set<string> {
  const bound = deps.config.host.includes(':') && !deps.config.host.startsWith('[') ? `[${deps.config.host}]` : deps.config.host;
  return new Set([bound.toLowerCase(), ...LOOPBACK, ...deps.config.allowedHosts]);
}

/**
 * DNS-rebinding protection for MCP: a page on `evil.example` that rebinds its name to this
 * server sends `Host: evil.example` and `Origin: http://evil.example`, so the Origin cannot be
 * judged against the Host alone. The Host must be a name this server answers to (an
 * `ALLOWED_HOSTS` entry may also carry a port to match exactly); a present Origin must be in
 * `ALLOWED_ORIGINS` or be this same, allowed host. Non-browser clients send no Origin. 403
 * otherwise.
 */
export function checkHostAndOrigin(deps: GatewayDeps): Middleware {
  const hostnames = allowedHostnames(deps);
  return (ctx, next) => {
    const host = (ctx.get('Host') || '').toLowerCase();
    if (!hostnames.has(hostnameOf(host)) && !deps.config.allowedHosts.includes(host)) {
      throw new CrmError('permission_denied', `host ${JSON.stringify(host.slice(0, 100))} is not allowed; set ALLOWED_HOSTS to allow it`, { param: 'Host' });
    }
    const origin = ctx.get('Origin');
    if (!origin || deps.config.allowedOrigins.includes(origin) || originHost(origin) === host) return next();
    throw new CrmError('permission_denied', `origin ${JSON.stringify(origin.slice(0, 100))} is not allowed; set ALLOWED_ORIGINS to allow it`, { param: 'Origin' });
  };
}

function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** Real protocol endpoints on loopback for the outbound tests: an SMTP server and an HTTP webhook receiver. */

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpEndpoint {
  url: string;
  mails: ReceivedMail[];
  auths: Array<{ username: string; password: string }>;
  close(): Promise<void>;
}

/** A reply such as '553 5.7.1 sender not allowed' as the error smtp-server sends back. */
function refusal(reply: string): Error {
  return Object.assign(new Error(reply.slice(4)), { responseCode: Number(reply.split(' ')[0]) });
}

/**
 * An smtp-server that keeps every message, or refuses with the reply given (e.g. "550 …"):
 * recipients with `refuse` (every one, or with `refuseOnly` just those addresses, the others being
 * taken), the sender with `refuseSender` (MAIL FROM), the message with `refuseData` (end of DATA).
 * `delayMs` holds each answer to MAIL FROM, RCPT TO and the end of DATA that long: a slow server
 * that never falls silent long enough for a socket timeout.
 */
export async function startSmtp(opts: { refuse?: string; refuseOnly?: string[]; requireAuth?: boolean; refuseSender?: string; refuseData?: string; delayMs?: number } = {}): Promise<SmtpEndpoint> {
  const later = (answer: () => void) => (opts.delayMs ? void setTimeout(answer, opts.delayMs) : answer());
  const mails: ReceivedMail[] = [];
  const auths: SmtpEndpoint['auths'] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'], authOptional: !opts.requireAuth, allowInsecureAuth: true, logger: false,
    onAuth(auth, _session, callback) {
      auths.push({ username: String(auth.username), password: String(auth.password) });
      callback(null, { user: auth.username });
    },
    onMailFrom(_address, _session, callback) {
      later(() => callback(opts.refuseSender ? refusal(opts.refuseSender) : undefined));
    },
    onRcptTo(address, _session, callback) {
      const refused = opts.refuse && !(opts.refuseOnly && !opts.refuseOnly.includes(address.address)) ? refusal(opts.refuse) : undefined;
      later(() => callback(refused));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (opts.refuseData) return later(() => callback(refusal(opts.refuseData!)));
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        later(() => callback());
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, auths, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface Hit {
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether CRM-Signature was valid for the shared secret. */
  signed: boolean;
  status: number;
}

export interface Receiver {
  url: string;
  hits: Hit[];
  close(): Promise<void>;
}

/** Checks `t=<unix>,v1=<hex>` the way a customer's receiver would. */
export function verifySignature(header: string | undefined, body: string, secret: string): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=') as [string, string]));
  if (!parts.t || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * An HTTP receiver that answers 500 to the first `failFirst` tries of each delivery id (or, with
 * `hang`, never answers them), then 204.
 */
export async function startReceiver(secret: string, failFirst = 0, opts: { hang?: boolean } = {}): Promise<Receiver> {
  const hits: Hit[] = [];
  const tries = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['crm-delivery-id']);
      const n = (tries.get(id) ?? 0) + 1;
      tries.set(id, n);
      const status = n <= failFirst ? 500 : 204;
      hits.push({ headers: req.headers, body, signed: verifySignature(req.headers['crm-signature'] as string | undefined, body, secret), status });
      if (status === 500 && opts.hang) return;
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`, hits,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** Polls until `check` returns a value (not undefined/false), or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

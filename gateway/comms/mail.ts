import nodemailer from 'nodemailer';
import type { smtpTransportOptions } from '../../src/domain/comms/network.ts';
import { MarkdownError, renderMarkdown } from '../../src/domain/comms/markdown.ts';
import type { EmailView } from '../../src/domain/services/email.ts';

/** The transport options of a workspace's smtp integration (smtpTransportOptions). */
export type SmtpTransportOptions = ReturnType<typeof smtpTransportOptions>;

/** What the outbox hands to SMTP for one email. */
export type OutgoingMail = Pick<EmailView, 'to' | 'cc' | 'bcc' | 'subject' | 'body' | 'body_format' | 'message_id'> & { from: string };

/** A recipient the server refused (RCPT TO) while it took the mail for the others. */
export interface RefusedRecipient {
  address: string;
  reply: string;
}

/** The server's answer: its reply line on success; a failure carries the reply in `response` when the server gave one. */
export interface SmtpOutcome {
  ok: boolean;
  reply: string;
  /**
   * A failure another try would repeat: the body does not render, or the server refused this
   * mail's recipients or content with a permanent (5yz) reply. The email fails at once.
   */
  permanent?: boolean;
  /** On success, the recipients the server refused; empty when it took them all. */
  refused?: RefusedRecipient[];
}

const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
/**
 * The longest one send may take: the outbox claims emails by it, so a send always ends inside its
 * claim's lease. The socket timeout alone does not bound it, since it restarts with every byte a
 * server sends: one that answers each command just in time could hold a send for minutes, its
 * lease would end, and another round would send the email again. So the send is aborted at this.
 */
export const SEND_MS = TIMEOUTS.connectionTimeout + TIMEOUTS.greetingTimeout + TIMEOUTS.socketTimeout;
/** nodemailer's codes (and the socket's) for a server that was never reached or stopped answering. */
const NETWORK_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ETLS', 'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH']);

/**
 * Sends one email over SMTP with nodemailer. Markdown goes out as multipart/alternative: the HTML
 * rendering (marked, off the event loop) and the markdown source as the text part, which reads
 * well as plain text. The stored Message-ID is used, so replies and bounces can be matched to the
 * email.
 */
export async function sendMail(smtpUrl: string, mail: OutgoingMail, options?: SmtpTransportOptions, deadlineMs = SEND_MS): Promise<SmtpOutcome> {
  let html: string | undefined;
  if (mail.body_format === 'markdown') {
    try {
      html = await renderMarkdown(mail.body, 'outbox');
    } catch (error) {
      if (!(error instanceof MarkdownError)) throw error;
      // email.send rendered it already, so this is a body stored before that check: another try
      // renders it the same way. Only running out of time may be the load of the moment.
      return { ok: false, permanent: error.rule !== 'render_time', reply: `not sent: the markdown body could not be rendered (${error.message})` };
    }
  }
  let transport: ReturnType<typeof nodemailer.createTransport> | undefined;
  try {
    // Inside the try: a URL nodemailer cannot read (stored before connect checked it) is this
    // email's failure, not an error that leaves it queued.
    // A workspace's server by its checked options only; the deployment's relay (SMTP_URL) as its URL says.
    transport = nodemailer.createTransport(options ? { ...options, ...TIMEOUTS } : { url: smtpUrl, ...TIMEOUTS });
    const info = await transport.sendMail({
      from: mail.from, to: mail.to, cc: mail.cc.length ? mail.cc : undefined, bcc: mail.bcc.length ? mail.bcc : undefined,
      subject: mail.subject, messageId: mail.message_id, text: mail.body, ...(html === undefined ? {} : { html }),
      signal: AbortSignal.timeout(deadlineMs),
    });
    return { ok: true, reply: String(info.response ?? ''), refused: refusedIn(info) };
  } catch (error) {
    const e = error as { response?: string; responseCode?: number; message?: string; code?: string; command?: string };
    // Retried like a server that stopped answering: the server may have taken it all the same.
    if (e.code === 'EABORT') return { ok: false, reply: `ETIMEDOUT: the SMTP server did not finish the send within ${deadlineMs / 1000} s` };
    if (e.response) return { ok: false, reply: e.response, permanent: permanentRefusal(e) };
    // Never the URL, which holds credentials.
    if (!e.code || NETWORK_CODES.has(e.code)) return { ok: false, reply: `${e.code ?? 'ERROR'}: could not reach the SMTP server` };
    return { ok: false, reply: `${e.code}: ${withoutCredentials(String(e.message ?? 'the mail could not be sent'), smtpUrl)}` };
  } finally {
    transport?.close();
  }
}

/**
 * Whether a server's refusal would be the same on every try of this email: a 5yz reply is a
 * permanent negative completion (RFC 5321, 4.2.1), where a 4yz one (421 shutting down, 451 try
 * later) is transient. Only replies about this email's own recipients (RCPT TO, such as every
 * recipient refused with 550) or its content (DATA) fail it at once. A 5yz reply to the greeting,
 * HELO, STARTTLS, AUTH or MAIL FROM concerns the relay or the sender address, which are the
 * workspace's settings: an admin may fix them before the retries run out, so those are retried.
 */
function permanentRefusal(e: { responseCode?: number; command?: string }): boolean {
  const fiveYz = typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600;
  return fiveYz && (e.command === 'RCPT TO' || e.command === 'DATA');
}

/**
 * An error text every member can read (email.list): the relay's URL, any URL's user and password,
 * and the relay's user name and password wherever they appear are masked.
 */
export function withoutCredentials(text: string, smtpUrl: string): string {
  let out = text.split(smtpUrl).join('<SMTP URL>').replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1<credentials>@');
  try {
    const url = new URL(smtpUrl);
    for (const secret of [url.password, decodeURIComponent(url.password), url.username, decodeURIComponent(url.username)]) {
      if (secret.length >= 3) out = out.split(secret).join('<credentials>');
    }
  } catch {
    // A URL that does not parse has no parts to mask beyond the whole of it.
  }
  return out;
}

/** The recipients nodemailer reports as refused, each with the server's reply to its RCPT TO. */
function refusedIn(info: { rejected?: unknown[]; rejectedErrors?: Array<{ recipient?: unknown; response?: string; message?: string }> }): RefusedRecipient[] {
  const errors = info.rejectedErrors ?? [];
  const refused = errors.map((e) => ({ address: String(e.recipient ?? ''), reply: String(e.response ?? e.message ?? 'refused') }));
  for (const address of info.rejected ?? []) {
    if (!refused.some((r) => r.address === String(address))) refused.push({ address: String(address), reply: 'refused' });
  }
  return refused;
}

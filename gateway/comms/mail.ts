import { marked } from 'marked';
import nodemailer from 'nodemailer';
import type { EmailView } from '../../src/domain/services/email.ts';

/** What the outbox hands to SMTP for one email. */
export type OutgoingMail = Pick<EmailView, 'to' | 'cc' | 'bcc' | 'subject' | 'body' | 'body_format' | 'message_id'> & { from: string };

/** The server's answer: its reply line on success; a failure carries the reply in `response` when the server gave one. */
export interface SmtpOutcome {
  ok: boolean;
  reply: string;
}

const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * Sends one email over SMTP with nodemailer. Markdown goes out as multipart/alternative: the HTML
 * rendering (marked) and the markdown source as the text part, which reads well as plain text.
 * The stored Message-ID is used, so replies and bounces can be matched to the email.
 */
export async function sendMail(smtpUrl: string, mail: OutgoingMail): Promise<SmtpOutcome> {
  const transport = nodemailer.createTransport({ url: smtpUrl, ...TIMEOUTS });
  try {
    const info = await transport.sendMail({
      from: mail.from, to: mail.to, cc: mail.cc.length ? mail.cc : undefined, bcc: mail.bcc.length ? mail.bcc : undefined,
      subject: mail.subject, messageId: mail.message_id, text: mail.body,
      ...(mail.body_format === 'markdown' ? { html: await marked.parse(mail.body, { async: true }) } : {}),
    });
    return { ok: true, reply: String(info.response ?? '') };
  } catch (error) {
    const e = error as { response?: string; message?: string; code?: string };
    // The server's own reply when it answered; otherwise the network failure (never the URL, which holds credentials).
    return { ok: false, reply: e.response ?? `${e.code ?? 'ERROR'}: could not reach the SMTP server` };
  } finally {
    transport.close();
  }
}

import { validateFieldValue, type FieldShape } from '../fields.ts';
import { longerThan } from '../fields/checks.ts';
import type { Comm } from '../store/port-comms.ts';
import { CrmError, validationError } from '../errors.ts';
import { newMonotonicId } from '../ids.ts';
import { created } from './events.ts';
import { CommsBase } from './comms-base.ts';

export const MESSAGE_CHANNELS = ['internal', 'sms', 'chat'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];
export const MESSAGE_BODY_MAX = 10_000;
const PHONE: FieldShape = { type: 'phone', config: {} };

export interface MessageView {
  message_id: string;
  id: string;
  channel: MessageChannel;
  status: string;
  to: string | null;
  body: string;
  thread_id: string;
  record_ids: string[];
  reason: string | null;
  created_by: string | null;
  created_at: string;
}

export function toMessageView(c: Comm): MessageView {
  const d = c.data as Record<string, any>;
  return {
    message_id: c.id, id: c.id, channel: c.tag as MessageChannel, status: c.status, to: d.to ?? null, body: d.body, thread_id: c.thread_id ?? c.id,
    record_ids: c.record_ids, reason: d.reason ?? null, created_by: c.created_by, created_at: c.created_at,
  };
}

/**
 * Messages on a channel. `internal` messages never leave the workspace, so writing them is
 * delivering them (`delivered`); `sms` and `chat` need a provider of that channel, and no such
 * provider exists yet, so they are kept as `stored` with the reason rather than pretended sent.
 */
export class MessageService extends CommsBase {
  async send(input: { channel: MessageChannel; to?: string | undefined; body: string; record_ids?: string[] | undefined; thread_id?: string | undefined }): Promise<MessageView> {
    const body = input.body;
    if (!body.trim()) throw validationError('body', 'body must not be empty', { rule: 'required' });
    if (longerThan(body, MESSAGE_BODY_MAX)) throw validationError('body', `body must be at most ${MESSAGE_BODY_MAX} characters`, { rule: 'max_length', max: MESSAGE_BODY_MAX });
    if (input.channel !== 'internal' && !input.to) throw validationError('to', `a ${input.channel} message needs "to" (a phone number or chat handle)`, { rule: 'required' });
    // An sms goes to a phone number, checked as a phone field's value is (and stored as it is).
    const to = input.channel === 'sms' ? String(validateFieldValue(PHONE, input.to, 'to')) : input.to;
    if (input.thread_id !== undefined) {
      const found = await this.store.listComms(this.ws, { kind: 'message', thread_id: input.thread_id, offset: 0, limit: 1 });
      if (found.total === 0) throw new CrmError('not_found', `thread_id ${JSON.stringify(input.thread_id)}: no such thread`, { param: 'thread_id' });
      // A thread is one conversation on one channel: an sms reply does not join an internal thread.
      const channel = found.items[0]!.tag;
      if (channel !== input.channel) {
        throw validationError('thread_id', `thread_id ${JSON.stringify(input.thread_id)} is a thread of ${channel} messages; a ${input.channel} message cannot join it`, {
          rule: 'channel_mismatch', expected: channel,
        });
      }
    }
    const recordIds = await this.linkable(input.record_ids);
    const delivered = input.channel === 'internal';
    const data = { body, to: to ?? null, ...(delivered ? {} : { reason: `not sent: no ${input.channel} provider is connected` }) };
    const status = delivered ? 'delivered' : 'stored';
    // A new message starts its own thread: the thread id is the first message's id.
    const id = newMonotonicId('message');
    const message = await this.insert('message', {
      id, status, tag: input.channel, thread_id: input.thread_id ?? id, at: new Date().toISOString(), data, record_ids: recordIds, next_attempt_at: null,
    }, created({ channel: input.channel, to, status }));
    return toMessageView(message);
  }

  async list(input: { record_id?: string | undefined; channel?: MessageChannel | undefined; thread_id?: string | undefined; page?: number | undefined; page_size?: number | undefined }) {
    const page = await this.page({
      kind: 'message', ...(input.record_id ? { record_id: input.record_id } : {}), ...(input.channel ? { tag: input.channel } : {}),
      ...(input.thread_id ? { thread_id: input.thread_id } : {}),
    }, input);
    return { ...page, items: page.items.map(toMessageView) };
  }
}

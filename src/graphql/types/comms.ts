import type { EmailView } from '../../domain/services/email.ts';
import { EMAIL_STATUSES } from '../../domain/services/email.ts';
import type { MeetingView } from '../../domain/services/meetings.ts';
import type { MessageView } from '../../domain/services/messages.ts';
import { MESSAGE_CHANNELS } from '../../domain/services/messages.ts';
import { validationError } from '../../domain/errors.ts';
import { builder } from '../builder.ts';
import { pageType } from './page.ts';

/** Emails, messages and meetings: types, queries and mutations together. */

const EmailStatusEnum = builder.enumType('EmailStatus', { values: EMAIL_STATUSES });
const ChannelEnum = builder.enumType('MessageChannel', { values: MESSAGE_CHANNELS });
const BodyFormatEnum = builder.enumType('EmailBodyFormat', { values: ['text', 'markdown'] as const });

const EmailRef = builder.objectRef<EmailView>('Email').implement({
  description: 'An email in the outbox: stored (no way to send it), queued, sent or failed (with the server\'s reply).',
  fields: (t) => ({
    email_id: t.exposeString('email_id'), id: t.exposeString('id'), status: t.expose('status', { type: EmailStatusEnum }),
    from: t.exposeString('from', { nullable: true }), to: t.exposeStringList('to'), cc: t.exposeStringList('cc'), bcc: t.exposeStringList('bcc'),
    subject: t.exposeString('subject'), body: t.exposeString('body'), body_format: t.expose('body_format', { type: BodyFormatEnum }),
    message_id: t.exposeString('message_id'), record_ids: t.exposeStringList('record_ids'), reason: t.exposeString('reason', { nullable: true }),
    error: t.exposeString('error', { nullable: true }), attempts: t.exposeInt('attempts'), sent_at: t.exposeString('sent_at', { nullable: true }),
    created_by: t.exposeString('created_by', { nullable: true }), created_at: t.exposeString('created_at'), updated_at: t.exposeString('updated_at'),
  }),
});

const MessageRef = builder.objectRef<MessageView>('Message').implement({
  fields: (t) => ({
    message_id: t.exposeString('message_id'), id: t.exposeString('id'), channel: t.expose('channel', { type: ChannelEnum }),
    status: t.exposeString('status'), to: t.exposeString('to', { nullable: true }), body: t.exposeString('body'), thread_id: t.exposeString('thread_id'),
    record_ids: t.exposeStringList('record_ids'), reason: t.exposeString('reason', { nullable: true }),
    created_by: t.exposeString('created_by', { nullable: true }), created_at: t.exposeString('created_at'),
  }),
});

const AttendeeRef = builder.objectRef<MeetingView['attendees'][number]>('MeetingAttendee').implement({
  fields: (t) => ({ record_id: t.exposeString('record_id', { nullable: true }), email: t.exposeString('email', { nullable: true }) }),
});

const AttendeeInput = builder.inputType('MeetingAttendeeInput', {
  fields: (t) => ({ record_id: t.string(), email: t.string() }),
});

const MeetingRef = builder.objectRef<MeetingView>('Meeting').implement({
  fields: (t) => ({
    meeting_id: t.exposeString('meeting_id'), id: t.exposeString('id'), title: t.exposeString('title'), starts_at: t.exposeString('starts_at'),
    ends_at: t.exposeString('ends_at'), time_zone: t.exposeString('time_zone', { nullable: true }),
    attendees: t.expose('attendees', { type: [AttendeeRef] }), record_ids: t.exposeStringList('record_ids'),
    location: t.exposeString('location', { nullable: true }), notes: t.exposeString('notes', { nullable: true }), status: t.exposeString('status'),
    created_by: t.exposeString('created_by', { nullable: true }), created_at: t.exposeString('created_at'),
  }),
});

const EmailPageRef = pageType('EmailPage', EmailRef);
const MessagePageRef = pageType('MessagePage', MessageRef);
const MeetingPageRef = pageType('MeetingPage', MeetingRef);
const u = <T>(v: T | null | undefined): T | undefined => v ?? undefined;

builder.queryFields((t) => ({
  emails: t.field({
    type: EmailPageRef, authScopes: { tool: 'email' },
    args: { record_id: t.arg.string(), status: t.arg({ type: EmailStatusEnum }), since: t.arg.string(), page: t.arg.int(), page_size: t.arg.int() },
    resolve: (_r, a, ctx) => ctx.services.email.list({ record_id: u(a.record_id), status: u(a.status), since: u(a.since), page: u(a.page), page_size: u(a.page_size) }),
  }),
  messages: t.field({
    type: MessagePageRef, authScopes: { tool: 'messages' },
    args: { record_id: t.arg.string(), channel: t.arg({ type: ChannelEnum }), thread_id: t.arg.string(), page: t.arg.int(), page_size: t.arg.int() },
    resolve: (_r, a, ctx) => ctx.services.messages.list({ record_id: u(a.record_id), channel: u(a.channel), thread_id: u(a.thread_id), page: u(a.page), page_size: u(a.page_size) }),
  }),
  meetings: t.field({
    type: MeetingPageRef, authScopes: { tool: 'meetings' },
    args: { record_id: t.arg.string(), from: t.arg.string(), to: t.arg.string(), page: t.arg.int(), page_size: t.arg.int() },
    resolve: (_r, a, ctx) => ctx.services.meetings.list({ record_id: u(a.record_id), from: u(a.from), to: u(a.to), page: u(a.page), page_size: u(a.page_size) }),
  }),
}));

builder.mutationFields((t) => ({
  sendEmail: t.field({
    type: EmailRef, authScopes: { tool: 'email' },
    args: {
      to: t.arg.stringList({ required: true }), cc: t.arg.stringList(), bcc: t.arg.stringList(), subject: t.arg.string({ required: true }),
      body: t.arg.string({ required: true }), body_format: t.arg({ type: BodyFormatEnum }), record_ids: t.arg.stringList(),
    },
    resolve: (_r, a, ctx) => ctx.services.email.send({
      to: a.to, cc: u(a.cc), bcc: u(a.bcc), subject: a.subject, body: a.body, body_format: u(a.body_format), record_ids: u(a.record_ids),
    }),
  }),
  sendMessage: t.field({
    type: MessageRef, authScopes: { tool: 'messages' },
    args: { channel: t.arg({ type: ChannelEnum, required: true }), to: t.arg.string(), body: t.arg.string({ required: true }), record_ids: t.arg.stringList(), thread_id: t.arg.string() },
    resolve: (_r, a, ctx) => ctx.services.messages.send({ channel: a.channel, to: u(a.to), body: a.body, record_ids: u(a.record_ids), thread_id: u(a.thread_id) }),
  }),
  createMeeting: t.field({
    type: MeetingRef, authScopes: { tool: 'meetings' },
    args: {
      title: t.arg.string({ required: true }), starts_at: t.arg.string({ required: true }), ends_at: t.arg.string({ required: true }), time_zone: t.arg.string(),
      attendees: t.arg({ type: [AttendeeInput] }), record_ids: t.arg.stringList(), location: t.arg.string(), notes: t.arg.string(),
    },
    resolve: (_r, a, ctx) => ctx.services.meetings.create({
      title: a.title, starts_at: a.starts_at, ends_at: a.ends_at, time_zone: u(a.time_zone),
      attendees: a.attendees?.map((x, i) => {
        if ((x.record_id == null) === (x.email == null)) {
          throw validationError(`attendees[${i}]`, `attendees[${i}] must have exactly one of record_id or email`, { rule: 'one_of' });
        }
        return x.record_id != null ? { record_id: x.record_id } : { email: x.email! };
      }),
      record_ids: u(a.record_ids), location: u(a.location), notes: u(a.notes),
    }),
  }),
}));

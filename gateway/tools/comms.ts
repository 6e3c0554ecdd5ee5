import { LIMITS } from '../../src/domain/limits.ts';
import { z } from 'zod';
import { MAX_RECIPIENTS } from '../../src/domain/comms/addresses.ts';
import { MARKDOWN_MAX_DEPTH, MARKDOWN_RENDER_MS } from '../../src/domain/comms/markdown.ts';
import { EMAIL_STATUSES } from '../../src/domain/services/email.ts';
import { MESSAGE_CHANNELS } from '../../src/domain/services/messages.ts';
import { CREATES, defineTool, given, pick, READ_ONLY } from './define.ts';
import { page, pageOutput, pageSize, recordId, recordIds } from './shapes.ts';

/** email.*, messages.* and meetings.*: talking to people, kept on the records' timelines. */

const address = z.string().min(3).max(254);
/** `to` needs an address; cc and bcc may be an empty array (none), as a script builds them. */
const addresses = (what: string, least: 0 | 1 = 1) => z.union([address, z.array(address).min(least).max(MAX_RECIPIENTS)])
  .describe(`${what}: one address ("ana@example.com") or an array${least === 0 ? ' (empty: none)' : ''}; at most ${MAX_RECIPIENTS} across to, cc and bcc.`);
const isoTime = z.string().min(10).max(40);
/** What an email.send answer adds when it goes out: status changes as the outbox works. */
const OUTBOUND = { openWorldHint: true } as const;

const emailOutput = z.object({
  email_id: z.string(), id: z.string(), status: z.enum(EMAIL_STATUSES), from: z.string().nullable(), to: z.array(z.string()), cc: z.array(z.string()),
  bcc: z.array(z.string()), subject: z.string(), body: z.string(), body_format: z.enum(['text', 'markdown']), message_id: z.string(),
  record_ids: z.array(z.string()), reason: z.string().nullable(), error: z.string().nullable(), attempts: z.number().int(), sent_at: z.string().nullable(),
  created_by: z.string().nullable(), created_at: z.string(), updated_at: z.string(),
});
const EMAIL = 'email_id id status from to cc bcc subject body body_format message_id record_ids reason error attempts sent_at created_by created_at updated_at';

const messageOutput = z.object({
  message_id: z.string(), id: z.string(), channel: z.enum(MESSAGE_CHANNELS), status: z.string(), to: z.string().nullable(), body: z.string(),
  thread_id: z.string(), record_ids: z.array(z.string()), reason: z.string().nullable(), created_by: z.string().nullable(), created_at: z.string(),
});
const MESSAGE = 'message_id id channel status to body thread_id record_ids reason created_by created_at';

const meetingOutput = z.object({
  meeting_id: z.string(), id: z.string(), title: z.string(), starts_at: z.string(), ends_at: z.string(), time_zone: z.string().nullable(),
  attendees: z.array(z.object({ record_id: z.string().nullable(), email: z.string().nullable() })), record_ids: z.array(z.string()),
  location: z.string().nullable(), notes: z.string().nullable(), status: z.string(), created_by: z.string().nullable(), created_at: z.string(),
});
const MEETING = 'meeting_id id title starts_at ends_at time_zone attendees { record_id email } record_ids location notes status created_by created_at';
const list = <T>(v: T | T[] | undefined): T[] | undefined => (v === undefined ? undefined : [v].flat() as T[]);

export const commsTools = [
  defineTool({
    name: 'email.send',
    scope: 'email',
    title: 'Send an email',
    description: 'Queues an email for delivery over SMTP and puts it on the linked records\' timelines. The answer is immediate: status "queued" (a worker sends it and it ends "sent" or "failed" with the server\'s reply in error; "sent" with error set names the recipients the server refused while it took the others; check with email.list) or "stored" with a reason when no SMTP relay or smtp integration exists. Markdown bodies go out as HTML with a plain-text part. Example: {"to": "ana@example.com", "subject": "Proposal", "body": "Hi Ana, …", "record_ids": ["rec_…"]}.',
    input: z.strictObject({
      to: addresses('Recipients'), cc: addresses('Copy recipients', 0).optional(), bcc: addresses('Blind copy recipients', 0).optional(),
      subject: z.string().min(1).max(998).describe('One line.'), body: z.string().max(100_000).describe('The message, plain text or markdown.'),
      body_format: z.enum(['text', 'markdown']).optional().describe(`text (default) or markdown (sent as HTML with a text alternative). Markdown is rendered when sent: block quotes, lists, links and emphasis nested more than ${MARKDOWN_MAX_DEPTH} levels deep, or a body that takes over ${MARKDOWN_RENDER_MS} ms to render, is refused (validation_error on body).`),
      record_ids: recordIds.optional(),
    }),
    output: emailOutput,
    annotations: { ...CREATES, ...OUTBOUND },
    operation: {
      document: `mutation($to: [String!]!, $cc: [String!], $bcc: [String!], $subject: String!, $body: String!, $body_format: EmailBodyFormat, $record_ids: [String!]) {
        sendEmail(to: $to, cc: $cc, bcc: $bcc, subject: $subject, body: $body, body_format: $body_format, record_ids: $record_ids) { ${EMAIL} } }`,
      variables: (i) => given({ ...i, to: list(i.to), cc: list(i.cc), bcc: list(i.bcc) }),
      result: pick('sendEmail'),
    },
  }),
  defineTool({
    name: 'email.list',
    scope: 'email',
    title: 'List emails',
    description: 'Lists the workspace\'s emails, newest first, with their delivery status; filter by linked record, status or creation time. Example: {"status": "failed"}.',
    input: z.strictObject({
      record_id: recordId.optional().describe('Only emails linked to this record.'), status: z.enum(EMAIL_STATUSES).optional(),
      since: isoTime.optional().describe('Only emails created at or after this ISO-8601 time.'), page, page_size: pageSize,
    }),
    output: pageOutput(emailOutput),
    annotations: READ_ONLY,
    operation: {
      document: `query($record_id: String, $status: EmailStatus, $since: String, $page: Int, $page_size: Int) {
        emails(record_id: $record_id, status: $status, since: $since, page: $page, page_size: $page_size) { items { ${EMAIL} } total page page_size } }`,
      variables: (i) => given(i),
      result: pick('emails'),
    },
  }),
  defineTool({
    name: 'messages.send',
    scope: 'messages',
    title: 'Send a message',
    description: 'Writes a message on a channel. internal messages stay in the workspace and are delivered at once; sms and chat need a connected provider of that channel and are kept as "stored" with the reason until one exists. Reply in a thread with thread_id, on the channel of the thread. Example: {"channel": "internal", "body": "Ana signed!", "record_ids": ["rec_…"]}.',
    input: z.strictObject({
      channel: z.enum(MESSAGE_CHANNELS).describe('internal, sms or chat.'), to: z.string().min(1).max(254).optional().describe('sms: a phone number (7 to 20 digits, checked as a phone field checks one); chat: a handle. Not used for internal.'),
      body: z.string().min(1).max(10_000), record_ids: recordIds.optional(), thread_id: z.string().min(1).max(LIMITS.idMaxLength).optional().describe('Reply in this thread (the thread_id of an earlier message).'),
    }),
    output: messageOutput,
    annotations: { ...CREATES, ...OUTBOUND },
    operation: {
      document: `mutation($channel: MessageChannel!, $to: String, $body: String!, $record_ids: [String!], $thread_id: String) {
        sendMessage(channel: $channel, to: $to, body: $body, record_ids: $record_ids, thread_id: $thread_id) { ${MESSAGE} } }`,
      variables: (i) => given(i),
      result: pick('sendMessage'),
    },
  }),
  defineTool({
    name: 'messages.list',
    scope: 'messages',
    title: 'List messages',
    description: 'Lists messages newest first, by linked record, channel or thread. Example: {"thread_id": "msg_…"}.',
    input: z.strictObject({
      record_id: recordId.optional(), channel: z.enum(MESSAGE_CHANNELS).optional(), thread_id: z.string().min(1).max(LIMITS.idMaxLength).optional(), page, page_size: pageSize,
    }),
    output: pageOutput(messageOutput),
    annotations: READ_ONLY,
    operation: {
      document: `query($record_id: String, $channel: MessageChannel, $thread_id: String, $page: Int, $page_size: Int) {
        messages(record_id: $record_id, channel: $channel, thread_id: $thread_id, page: $page, page_size: $page_size) { items { ${MESSAGE} } total page page_size } }`,
      variables: (i) => given(i),
      result: pick('messages'),
    },
  }),
  defineTool({
    name: 'meetings.create',
    scope: 'meetings',
    title: 'Create a meeting',
    description: 'Records a meeting and puts it on the timelines of its attendees\' records and linked records. Times are ISO-8601; a time without an offset is read in time_zone (an IANA name). ends_at must be after starts_at. Example: {"title": "Demo", "starts_at": "2026-12-01T10:00", "ends_at": "2026-12-01T10:30", "time_zone": "Europe/Berlin", "attendees": [{"record_id": "rec_…"}, {"email": "ana@example.com"}]}.',
    input: z.strictObject({
      title: z.string().min(1).max(200), starts_at: isoTime.describe('Start, e.g. "2026-12-01T10:00:00Z" or "2026-12-01T10:00" with time_zone.'),
      ends_at: isoTime.describe('End, after the start.'), time_zone: z.string().min(1).max(64).optional().describe('IANA time zone for times without an offset, e.g. "America/New_York".'),
      attendees: z.array(z.union([z.strictObject({ record_id: recordId }), z.strictObject({ email: address })])).max(100).optional()
        .describe('People: [{"record_id": "rec_…"}] for contacts in the CRM, [{"email": "…"}] for others.'),
      record_ids: recordIds.optional(), location: z.string().max(500).optional(), notes: z.string().max(100_000).optional(),
    }),
    output: meetingOutput,
    annotations: CREATES,
    operation: {
      document: `mutation($title: String!, $starts_at: String!, $ends_at: String!, $time_zone: String, $attendees: [MeetingAttendeeInput!], $record_ids: [String!], $location: String, $notes: String) {
        createMeeting(title: $title, starts_at: $starts_at, ends_at: $ends_at, time_zone: $time_zone, attendees: $attendees, record_ids: $record_ids, location: $location, notes: $notes) { ${MEETING} } }`,
      variables: (i) => given(i),
      result: pick('createMeeting'),
    },
  }),
  defineTool({
    name: 'meetings.list',
    scope: 'meetings',
    title: 'List meetings',
    description: 'Lists meetings by start time, earliest first, optionally of one record and within a window. Example (this week\'s): {"from": "2026-11-23T00:00:00Z", "to": "2026-11-30T00:00:00Z"}.',
    input: z.strictObject({
      record_id: recordId.optional(), from: isoTime.optional().describe('Starting at or after (ISO-8601; UTC when no offset; a date "2026-11-23" is from its first instant).'),
      to: isoTime.optional().describe('Starting at or before (a date is through its last instant).'), page, page_size: pageSize,
    }),
    output: pageOutput(meetingOutput),
    annotations: READ_ONLY,
    operation: {
      document: `query($record_id: String, $from: String, $to: String, $page: Int, $page_size: Int) {
        meetings(record_id: $record_id, from: $from, to: $to, page: $page, page_size: $page_size) { items { ${MEETING} } total page page_size } }`,
      variables: (i) => given(i),
      result: pick('meetings'),
    },
  }),
];

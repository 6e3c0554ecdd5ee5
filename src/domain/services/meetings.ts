import type { Comm } from '../store/port-comms.ts';
import { addressList } from '../comms/addresses.ts';
import { isTimeZone, toUtc } from '../comms/times.ts';
import { validationError } from '../errors.ts';
import { dayOrTimestamp } from '../fields.ts';
import { created } from './events.ts';
import { CommsBase } from './comms-base.ts';

export type Attendee = { record_id: string; email?: undefined } | { email: string; record_id?: undefined };

export interface MeetingInput {
  title: string;
  starts_at: string;
  ends_at: string;
  time_zone?: string | undefined;
  attendees?: Attendee[] | undefined;
  record_ids?: string[] | undefined;
  location?: string | undefined;
  notes?: string | undefined;
}

export interface MeetingView {
  meeting_id: string;
  id: string;
  title: string;
  starts_at: string;
  ends_at: string;
  time_zone: string | null;
  attendees: Array<{ record_id: string | null; email: string | null }>;
  record_ids: string[];
  location: string | null;
  notes: string | null;
  status: string;
  created_by: string | null;
  created_at: string;
}

export function toMeetingView(c: Comm): MeetingView {
  const d = c.data as Record<string, any>;
  return {
    meeting_id: c.id, id: c.id, title: d.title, starts_at: d.starts_at, ends_at: d.ends_at, time_zone: d.time_zone ?? null,
    attendees: (d.attendees as Attendee[]).map((a) => ({ record_id: a.record_id ?? null, email: a.email ?? null })),
    record_ids: c.record_ids, location: d.location ?? null, notes: d.notes ?? null, status: c.status, created_by: c.created_by, created_at: c.created_at,
  };
}

/** Meetings: times stored in UTC (local times read in `time_zone`), on the timelines of their attendees' and linked records. */
export class MeetingService extends CommsBase {
  async create(input: MeetingInput): Promise<MeetingView> {
    const title = input.title.trim();
    if (!title) throw validationError('title', 'a meeting needs a title', { rule: 'required' });
    if (input.time_zone !== undefined && !isTimeZone(input.time_zone)) {
      throw validationError('time_zone', `time_zone ${JSON.stringify(input.time_zone)} is not an IANA time zone such as Europe/Berlin`, { rule: 'time_zone' });
    }
    const startsAt = toUtc(input.starts_at, 'starts_at', input.time_zone);
    const endsAt = toUtc(input.ends_at, 'ends_at', input.time_zone);
    if (endsAt <= startsAt) throw validationError('ends_at', `ends_at (${endsAt}) must be after starts_at (${startsAt})`, { rule: 'after_start' });
    const given = (input.attendees ?? []).map((a, i): Attendee => {
      if (a.record_id !== undefined) return { record_id: a.record_id };
      return { email: addressList(a.email, `attendees[${i}].email`)[0]! };
    });
    const attendeeRecords = [...new Set(given.flatMap((a) => (a.record_id ? [a.record_id] : [])))];
    const found = new Map((await this.store.getRecords(this.ws, attendeeRecords)).map((r) => [r.id, r]));
    given.forEach((a, i) => {
      if (a.record_id === undefined) return;
      const record = found.get(a.record_id);
      if (!record) {
        throw validationError(`attendees[${i}].record_id`, `attendees[${i}].record_id: record ${a.record_id} does not exist or was deleted`, { rule: 'reference_not_found' });
      }
      // The meeting goes on the attendee's timeline: the rule of linked records, named where it was sent.
      this.assertMayLink([record], `attendees[${i}].record_id`);
    });
    // A person attends once: the same record or address named twice is kept at its first place.
    const seen = new Set<string>();
    const attendees = given.filter((a) => {
      const key = a.record_id !== undefined ? `r:${a.record_id}` : `e:${a.email!.toLowerCase()}`;
      return !seen.has(key) && Boolean(seen.add(key));
    });
    const recordIds = [...new Set([...(await this.linkable(input.record_ids)), ...attendeeRecords])];
    const data = {
      title, starts_at: startsAt, ends_at: endsAt, time_zone: input.time_zone ?? null, attendees,
      location: input.location ?? null, notes: input.notes ?? null,
    };
    const meeting = await this.insert('meeting', {
      status: 'scheduled', tag: null, thread_id: null, at: startsAt, data, record_ids: recordIds, next_attempt_at: null,
    }, created({ title, starts_at: startsAt, ends_at: endsAt, location: input.location }));
    return toMeetingView(meeting);
  }

  async list(input: { record_id?: string | undefined; from?: string | undefined; to?: string | undefined; page?: number | undefined; page_size?: number | undefined }) {
    // A date is the whole day, as email.list's since and the tasks' due filters read one: from its
    // first instant, to its last; a time without an offset is UTC's.
    const from = input.from === undefined ? undefined : dayOrTimestamp(input.from) ?? toUtc(input.from, 'from', 'UTC');
    const to = input.to === undefined ? undefined : dayOrTimestamp(input.to, 'end') ?? toUtc(input.to, 'to', 'UTC');
    const page = await this.page({
      kind: 'meeting', ascending: true, ...(input.record_id ? { record_id: input.record_id } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}),
    }, input);
    return { ...page, items: page.items.map(toMeetingView) };
  }
}

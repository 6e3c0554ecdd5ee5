import { newMonotonicId } from '../../domain/ids.ts';
import type { TimelineEvent } from '../../domain/types.ts';
import type { EventQuery, NewEvent } from '../../domain/store/port-work.ts';
import { insertSql, perConnection, type Connection, type SqlParam } from './connection.ts';
import { count, pageOf } from './item-pages.ts';
import { now } from './rows.ts';

export const EVENT_COLUMNS = 'e.id, e.workspace_id, e.at, e.actor_id, e.key_id, e.via, e.tool, e.action, e.resource_type, e.resource_id, e.record_ids, e.diff';

export interface EventRow extends Omit<TimelineEvent, 'record_ids' | 'diff'> {
  record_ids: string;
  diff: string | null;
}

export function toEvent(row: EventRow): TimelineEvent {
  return { ...row, record_ids: JSON.parse(row.record_ids) as string[], diff: row.diff === null ? null : JSON.parse(row.diff) as TimelineEvent['diff'] };
}

/**
 * Appends the events of a change. Ids are monotonic, so they sort in the order written even within
 * one millisecond, and the timeline reads newest first by id. Each named record gets a row in
 * event_records for the per-record timeline.
 */
function writeEvents(c: Connection, workspaceId: string, events: readonly NewEvent[]): void {
  const at = now();
  for (const event of events) insertEvent(c, eventRow(event, workspaceId, at));
}

/**
 * A new event as written, with a fresh monotonic id. Spelled out: `{ ...event, id, workspace_id, at }`
 * gave every event a hidden class of its own (see actorOf in actor.ts), an old-space object per write.
 */
export function eventRow(e: NewEvent, workspaceId: string, at: string): TimelineEvent {
  return {
    id: newMonotonicId('event'), workspace_id: workspaceId, at, actor_id: e.actor_id, key_id: e.key_id, via: e.via, tool: e.tool,
    action: e.action, resource_type: e.resource_type, resource_id: e.resource_id, record_ids: e.record_ids, diff: e.diff,
  };
}

/** Writes an event as given, with an event_records row per named record (append and load alike). */
export function insertEvent(c: Connection, event: TimelineEvent): void {
  c.run(
    insertSql('events', 'id, workspace_id, at, actor_id, key_id, via, tool, action, resource_type, resource_id, record_ids, diff'),
    event.id, event.workspace_id, event.at, event.actor_id, event.key_id, event.via, event.tool, event.action, event.resource_type,
    event.resource_id, JSON.stringify(event.record_ids), event.diff === null ? null : JSON.stringify(event.diff),
  );
  for (const recordId of new Set(event.record_ids)) {
    c.run('INSERT INTO event_records (workspace_id, record_id, event_id) VALUES (?, ?, ?)', event.workspace_id, recordId, event.id);
  }
}

/**
 * Runs a change and appends its timeline events in the same transaction, after the change
 * succeeded: a change that throws writes no event, and events are never written without it.
 */
export function withEvents<T>(c: Connection, workspaceId: string, events: readonly NewEvent[] | undefined, change: () => T): T {
  return c.tx(() => {
    const result = change();
    if (events && events.length > 0) writeEvents(c, workspaceId, events);
    return result;
  });
}

/** Synchronous timeline reads of the Store. */
export function timelineMethods(c: Connection) {
  return {
    /**
     * Newest first by id; `since` keeps only ids after that cursor, `before` only ids before that
     * one; total counts the same criteria.
     */
    listEvents(workspaceId: string, query: EventQuery): { items: TimelineEvent[]; total: number } {
      const since = query.since ?? '';
      const id = query.record_id === undefined ? 'e.id' : 'er.event_id';
      const params: SqlParam[] = query.record_id === undefined ? [workspaceId, since] : [workspaceId, query.record_id, since];
      let where = query.record_id === undefined
        ? 'FROM events e WHERE e.workspace_id = ? AND e.id > ?'
        : `FROM event_records er JOIN events e ON e.id = er.event_id
                WHERE er.workspace_id = ? AND er.record_id = ? AND er.event_id > ?`;
      if (query.before !== undefined) {
        where += ` AND ${id} < ?`;
        params.push(query.before);
      }
      const from = { sql: where, params };
      // A read inside a caller's transaction may see events that roll back: it counts, uncached.
      const whole = query.record_id === undefined && since === '' && query.before === undefined && c.cacheable;
      return c.read(() => ({
        items: pageOf<EventRow>(c, EVENT_COLUMNS, from, `${id} DESC`, query.offset, query.limit).map(toEvent),
        total: whole ? eventTotals(c).total(workspaceId, () => count(c, from)) : count(c, from),
      }));
    },
  };
}

/** Past this many workspaces the remembered totals start over (a bound, not a tuning knob). */
const MAX_WORKSPACES = 10_000;
/** Past this many events appended file-wide since a workspace's last read, it is counted afresh. */
const CATCH_UP_MAX = 50_000;

/**
 * The number of events of a workspace, kept up to date instead of counted on every workspace
 * timeline read (a count of all its events: linear in its history, which only grows). Events are
 * only ever appended, never deleted or rewritten, and their pks grow in commit order (SQLite gives
 * a new row the largest pk plus one, under the write lock), so a total known up to some pk plus
 * the workspace's events after that pk is the exact total, whichever process wrote them. Call it
 * inside the read transaction the page is read in. Should events ever be deleted, this must go.
 */
class EventTotals {
  readonly #known = new Map<string, { upTo: number; total: number }>();

  constructor(private readonly c: Connection) {
    c.onLostGroup(() => this.#known.clear());
  }

  /** `countAll` counts the workspace's events afresh, in the same transaction. */
  total(workspaceId: string, countAll: () => number): number {
    const last = this.c.get<{ last: number | null }>('SELECT MAX(pk) AS last FROM events')!.last ?? 0;
    const known = this.#known.get(workspaceId);
    let total: number;
    if (known && last - known.upTo <= CATCH_UP_MAX) {
      total = known.total + (last === known.upTo ? 0 : this.c.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM events WHERE pk > ? AND pk <= ? AND workspace_id = ?', known.upTo, last, workspaceId,
      )!.n);
    } else {
      total = countAll();
      if (!known && this.#known.size >= MAX_WORKSPACES) this.#known.clear();
    }
    this.#known.set(workspaceId, { upTo: last, total });
    return total;
  }
}

const eventTotals = perConnection((c) => new EventTotals(c));

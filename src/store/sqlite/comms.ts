import { notFound } from '../../domain/errors.ts';
import type { CallStyle, TimelineEvent } from '../../domain/types.ts';
import type { Comm, CommKind, CommPatch, CommQuery, NewComm, UsageCount } from '../../domain/store/port-comms.ts';
import type { NewEvent } from '../../domain/store/port-work.ts';
import { assignments, insertSql, type Connection } from './connection.ts';
import { COMM_LINKS, insertLinks, linkedTo, setLinks, withLinks } from './record-links.ts';
import { json, pageRows, when, whereAll } from './resources.ts';
import { idFor, now } from './rows.ts';
import { EVENT_COLUMNS, toEvent, withEvents, type EventRow } from './timeline.ts';

export const COMM_COLUMNS =
  't.id, t.workspace_id, t.kind, t.status, t.tag, t.thread_id, t.at, t.data, t.attempts, t.next_attempt_at, t.created_by, t.created_at, t.updated_at, t.deleted_at';
type CommRow = Omit<Comm, 'record_ids' | 'data'> & { data: string };

const toComms = (c: Connection, rows: readonly CommRow[]): Comm[] =>
  withLinks(c, COMM_LINKS, rows).map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));

/** Writes a comm's row and links as given (create and load alike; the caller checked the links). */
export function insertComm(c: Connection, comm: Comm): void {
  c.run(
    insertSql('comms', 'id, workspace_id, kind, status, tag, thread_id, at, data, attempts, next_attempt_at, created_by, created_at, updated_at, deleted_at'),
    comm.id, comm.workspace_id, comm.kind, comm.status, comm.tag, comm.thread_id, comm.at, json(comm.data), comm.attempts,
    comm.next_attempt_at, comm.created_by, comm.created_at, comm.updated_at, comm.deleted_at,
  );
  insertLinks(c, COMM_LINKS, comm.id, comm.record_ids);
}

/** Writes a usage counter as given (load). */
export function insertUsageRow(c: Connection, u: UsageCount): void {
  c.run('INSERT INTO usage_counters (workspace_id, period, style, count) VALUES (?, ?, ?, ?)', u.workspace_id, u.period, u.style, u.count);
}

/** Synchronous comms methods of the Store: emails, messages, meetings, tickets, integrations, deliveries, usage. */
export function commMethods(c: Connection) {
  const find = (workspaceId: string, kind: CommKind, id: string): Comm | undefined => {
    const row = c.get<CommRow>(`SELECT ${COMM_COLUMNS} FROM comms t WHERE t.id = ? AND t.workspace_id = ? AND t.kind = ?`, id, workspaceId, kind);
    return row && toComms(c, [row])[0];
  };

  const create = (workspaceId: string, input: NewComm): string => {
    const id = idFor(input.kind, input);
    const at = now();
    insertComm(c, { ...input, id, workspace_id: workspaceId, record_ids: [], attempts: 0, created_at: at, updated_at: at, deleted_at: null });
    setLinks(c, COMM_LINKS, workspaceId, id, input.record_ids);
    return id;
  };

  return {
    createComm(workspaceId: string, input: NewComm, events: NewEvent[]): Comm {
      return withEvents(c, workspaceId, events, () => find(workspaceId, input.kind, create(workspaceId, input))!);
    },

    getComm(workspaceId: string, kind: CommKind, id: string): Comm | null {
      return find(workspaceId, kind, id) ?? null;
    },

    listComms(workspaceId: string, query: CommQuery): { items: Comm[]; total: number } {
      const from = whereAll('comms t', [
        { sql: 't.workspace_id = ? AND t.kind = ? AND t.deleted_at IS NULL', params: [workspaceId, query.kind] },
        when(query.status && JSON.stringify(query.status), 't.status IN (SELECT value FROM json_each(?))'),
        when(query.tag, 't.tag = ?'),
        when(query.thread_id, 't.thread_id = ?'),
        when(query.from, 't.at >= ?'),
        when(query.to, 't.at <= ?'),
        linkedTo(COMM_LINKS, query.record_id),
      ]);
      const order = query.ascending ? 't.at, t.id' : 't.at DESC, t.id DESC';
      const { rows, total } = pageRows<CommRow>(c, COMM_COLUMNS, from, order, query);
      return { items: toComms(c, rows), total };
    },

    updateComm(workspaceId: string, kind: CommKind, id: string, patch: CommPatch, events?: NewEvent[]): Comm {
      return withEvents(c, workspaceId, events, () => {
        const set = assignments({
          status: patch.status, data: patch.data === undefined ? undefined : json(patch.data), attempts: patch.attempts,
          next_attempt_at: patch.next_attempt_at, deleted_at: patch.deleted_at, updated_at: now(),
        });
        const { changes } = c.run(`UPDATE comms SET ${set.sql.join(', ')} WHERE id = ? AND workspace_id = ? AND kind = ?`, ...set.params, id, workspaceId, kind);
        if (changes === 0) throw notFound(kind, id);
        return find(workspaceId, kind, id)!;
      });
    },

    claimDueComms(kind: CommKind, statuses: readonly string[], at: string, leaseUntil: string, limit: number): Comm[] {
      return c.tx(() => {
        // The `limit` workspaces whose earliest item is due first (comm_queues, kept by triggers:
        // migration 32), then at most `limit` due items of each, which take turns: each one's
        // oldest, the oldest of those first, then each one's second. Among all workspaces the
        // first `limit` of that order come from those `limit`, so none past them is needed.
        const wanted = JSON.stringify(statuses);
        // One status (what the workers ask): the heads in due order straight off comm_queues_by_due,
        // stopping at `limit`. Several: each workspace's earliest head among them.
        const heads = statuses.length === 1
          ? 'SELECT q.workspace_id FROM comm_queues q WHERE q.kind = ? AND q.status = ? ->> 0 AND q.due_at <= ? ORDER BY q.due_at, q.workspace_id LIMIT +?'
          : `SELECT q.workspace_id FROM comm_queues q WHERE q.kind = ? AND q.status IN (SELECT value FROM json_each(?)) AND q.due_at <= ?
             GROUP BY q.workspace_id ORDER BY MIN(q.due_at), q.workspace_id LIMIT +?`;
        const rows = c.all<CommRow>(
          `WITH heads AS (${heads}),
           due AS (
             SELECT d.id, d.next_attempt_at, ROW_NUMBER() OVER (PARTITION BY d.workspace_id ORDER BY d.next_attempt_at, d.id) AS turn
             FROM heads w JOIN comms d ON d.id IN (
               SELECT u.id FROM comms u WHERE u.kind = ? AND u.status IN (SELECT value FROM json_each(?)) AND u.workspace_id = w.workspace_id
                 AND u.next_attempt_at IS NOT NULL AND u.next_attempt_at <= ? AND u.deleted_at IS NULL ORDER BY u.next_attempt_at, u.id LIMIT +?)
           )
           SELECT ${COMM_COLUMNS} FROM due CROSS JOIN comms t ON t.id = due.id ORDER BY due.turn, due.next_attempt_at, due.id LIMIT +?`,
          kind, wanted, at, limit, kind, wanted, at, limit, limit,
        );
        for (const row of rows) c.run('UPDATE comms SET next_attempt_at = ? WHERE id = ?', leaseUntil, row.id);
        return toComms(c, rows.map((row) => ({ ...row, next_attempt_at: leaseUntil })));
      });
    },

    listCommsEverywhere(kind: CommKind, status: string, tag: string): Comm[] {
      return toComms(c, c.all<CommRow>(
        `SELECT ${COMM_COLUMNS} FROM comms t WHERE t.kind = ? AND t.status = ? AND t.tag = ? AND t.deleted_at IS NULL ORDER BY t.id`, kind, status, tag,
      ));
    },

    eventsAfter(workspaceId: string, cursor: string, limit: number): TimelineEvent[] {
      return c.all<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events e WHERE e.workspace_id = ? AND e.id > ? ORDER BY e.id LIMIT +?`, workspaceId, cursor, limit)
        .map(toEvent);
    },

    recordDispatch(workspaceId: string, integrationId: string, cursor: string, deliveries: NewComm[]): void {
      c.tx(() => {
        const integration = find(workspaceId, 'integration', integrationId);
        if (!integration) throw notFound('integration', integrationId);
        for (const delivery of deliveries) create(workspaceId, delivery);
        c.run('UPDATE comms SET data = ? WHERE id = ?', json({ ...integration.data, cursor }), integrationId);
      });
    },

    addUsage(counts: readonly UsageCount[]): void {
      c.tx(() => {
        for (const u of counts) {
          c.run(`INSERT INTO usage_counters (workspace_id, period, style, count) VALUES (?, ?, ?, ?)
                 ON CONFLICT (workspace_id, period, style) DO UPDATE SET count = count + excluded.count`, u.workspace_id, u.period, u.style, u.count);
        }
      });
    },

    getUsage(workspaceId: string, period: string): Partial<Record<CallStyle, number>> {
      const rows = c.all<{ style: CallStyle; count: number }>('SELECT style, count FROM usage_counters WHERE workspace_id = ? AND period = ?', workspaceId, period);
      return Object.fromEntries(rows.map((row) => [row.style, row.count]));
    },
  };
}

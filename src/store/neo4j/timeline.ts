import type { CrmError } from '../../domain/errors.ts';
import { newMonotonicId } from '../../domain/ids.ts';
import type { TimelineEvent } from '../../domain/types.ts';
import type { EventQuery, NewEvent } from '../../domain/store/port-work.ts';
import type { Connection, Tx } from './connection.ts';
import * as Q from './cypher/timeline.ts';
import { readPage } from './pages.ts';
import { props, toEvent } from './rows.ts';
import { now } from './stamps.ts';
import { bind, bindPageAbout } from './statement.ts';

/**
 * Appends the events of a change inside its transaction. Ids are monotonic, so they sort in the
 * order written even within one millisecond; every event of one change carries the same `at`.
 */
export async function writeEvents(tx: Tx, workspaceId: string, events: readonly NewEvent[] | undefined): Promise<void> {
  if (!events || events.length === 0) return;
  const at = now();
  const rows = events.map((event) => ({
    id: newMonotonicId('event'), at, actor_id: event.actor_id, key_id: event.key_id, via: event.via, tool: event.tool,
    action: event.action, resource_type: event.resource_type, resource_id: event.resource_id,
    record_ids: [...event.record_ids], concerns: [...new Set(event.record_ids)],
    diff: event.diff === null ? null : JSON.stringify(event.diff),
  }));
  await tx.rows(bind(Q.WRITE_EVENTS, { workspace_id: workspaceId, events: rows }));
}

/**
 * One write transaction: the change, then its timeline events, after the change succeeded. A
 * change that throws writes no event, and events are never written without their change.
 */
export function writeWithEvents<T>(
  conn: Connection, workspaceId: string, events: readonly NewEvent[] | undefined, change: (tx: Tx) => Promise<T>,
  conflict?: (message: string) => CrmError,
): Promise<T> {
  return conn.write(async (tx) => {
    const result = await change(tx);
    await writeEvents(tx, workspaceId, events);
    return result;
  }, conflict);
}

/** Timeline reads of the Store. */
export function timelineMethods(conn: Connection) {
  return {
    /**
     * Newest first by id; `since` keeps only ids after that cursor, `before` only ids before that
     * one; total counts the same criteria.
     * About one record: walked from the record along CONCERNS edges, or, for an id that is no
     * record of the workspace (no edges to walk), found by the events' `record_ids`.
     */
    async listEvents(workspaceId: string, query: EventQuery): Promise<{ items: TimelineEvent[]; total: number }> {
      const { rows, total } = await conn.read(async (tx) => {
        const recordId = query.record_id;
        const isRecord = recordId !== undefined && (await tx.first(bind(Q.IS_RECORD, { workspace_id: workspaceId, id: recordId })))?.found === true;
        const scope = { workspace_id: workspaceId, since: query.since ?? '', before: query.before ?? Q.NO_BEFORE };
        return readPage(tx, bindPageAbout(Q.EVENT_PAGE, isRecord ? Q.RECORD_EVENT_PAGE : Q.NAMED_EVENT_PAGE, scope, query));
      });
      return { items: rows.map((row) => toEvent(props(row, 'event')!)), total };
    },
  };
}

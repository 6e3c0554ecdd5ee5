import { CrmError, notFound } from '../../domain/errors.ts';
import type { NewEvent } from '../../domain/store/port-work.ts';
import type { Connection, Tx } from './connection.ts';
import type { ResourceStatements } from './cypher/resources.ts';
import { props, type Props } from './rows.ts';
import { now } from './stamps.ts';
import { bind, type Statement } from './statement.ts';
import { writeWithEvents } from './timeline.ts';

/**
 * One kind of soft-deletable resource of a workspace (lists, views, notes, tasks): its statements,
 * its name in `not_found` errors and its mapping, with the reads, the patch and the soft delete
 * that every kind shares.
 */
export class ResourceKind<T> {
  constructor(private readonly q: ResourceStatements, private readonly kind: string, private readonly map: (p: Props) => T) {}

  /** The resource, read inside the caller's transaction; soft-deleted ones only when asked. */
  async find(tx: Tx, workspaceId: string, id: string, includeDeleted = false): Promise<T | undefined> {
    const p = props(await tx.first(bind(this.q.get, { workspace_id: workspaceId, id })), 'resource');
    return p && (includeDeleted || p.deleted_at === null) ? this.map(p) : undefined;
  }

  /** The resource, read in a transaction of its own, or null. */
  async get(conn: Connection, workspaceId: string, id: string, includeDeleted = false): Promise<T | null> {
    return (await conn.read((tx) => this.find(tx, workspaceId, id, includeDeleted))) ?? null;
  }

  /** Sets the patch (keys with a value; null clears) of the live resource and moves updated_at; `not_found` otherwise. */
  async patch(tx: Tx, workspaceId: string, id: string, patch: Record<string, unknown>, at: string): Promise<void> {
    if (!(await tx.first(bind(this.q.update, { workspace_id: workspaceId, id, patch, now: at })))) throw notFound(this.kind, id);
  }

  /** Soft delete with the change's events; `not_found` when already deleted or unknown. Returns it as deleted. */
  softDelete(conn: Connection, workspaceId: string, id: string, events: readonly NewEvent[], check?: (tx: Tx) => Promise<void>): Promise<T> {
    return writeWithEvents(conn, workspaceId, events, async (tx) => {
      if (!(await tx.first(bind(this.q.remove, { workspace_id: workspaceId, id, now: now() })))) throw notFound(this.kind, id);
      // Under the write lock the delete just took: a refusal rolls it back.
      await check?.(tx);
      return (await this.find(tx, workspaceId, id, true))!;
    });
  }
}

/** The statements that set a Note's, Task's or Comm's ABOUT links. */
export interface LinkStatements {
  replace: Statement<'id' | 'record_ids'>;
  linkable: Statement<'workspace_id' | 'id' | 'ids'>;
}

/**
 * Makes the owner's ABOUT links equal to `recordIds` (duplicates kept once, in order). Each must be
 * a record of the workspace, live or already linked to the owner (a record in the trash stays on
 * what it was on, so a list sent back as read is taken): otherwise `not_found` naming
 * `record_ids[<i>]`, the first such in the order given, so nothing links across workspaces or
 * gains a deleted record.
 */
export async function setLinks(tx: Tx, links: LinkStatements, workspaceId: string, ownerId: string, recordIds: readonly string[]): Promise<void> {
  const ids = [...new Set(recordIds)];
  const rows = ids.length === 0 ? [] : await tx.rows(bind(links.linkable, { workspace_id: workspaceId, id: ownerId, ids }));
  const live = new Set(rows.map((row) => String(row.id)));
  const missing = recordIds.findIndex((id) => !live.has(id));
  if (missing >= 0) {
    const id = recordIds[missing]!;
    throw new CrmError('not_found', `record_ids[${missing}]: the record ${JSON.stringify(id)} was not found`, {
      param: `record_ids[${missing}]`, resource: 'record', id,
    });
  }
  await tx.rows(bind(links.replace, { id: ownerId, record_ids: ids }));
}

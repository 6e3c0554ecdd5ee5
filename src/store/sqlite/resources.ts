import { notFound } from '../../domain/errors.ts';
import type { NewEvent } from '../../domain/store/port-work.ts';
import { assignments, type Connection, type SqlParam } from './connection.ts';
import type { SqlFragment } from './filter-sql.ts';
import { count, pageOf } from './item-pages.ts';
import { now } from './rows.ts';
import { withEvents } from './timeline.ts';

/**
 * Helpers for the soft-deletable resources of a workspace that are addressed by a public `id`
 * (lists, views, notes, tasks). Table and column names come from code, never from callers.
 */
export type ResourceTable = 'lists' | 'views' | 'notes' | 'tasks' | 'reports';

/** How one kind of resource is read: its table, its name in errors, its columns (alias `t`) and the mapping to the entity. */
export interface ResourceSpec<Row, T> {
  table: ResourceTable;
  kind: string;
  columns: string;
  toEntity(row: Row): T;
}

/** Column values to set; undefined leaves a column unchanged. */
type Columns = Record<string, SqlParam | undefined>;

/**
 * Reads, updates and soft-deletes of one kind of resource, each change in one transaction with its
 * timeline events. Only live resources change; a deleted or unknown one is `not_found`.
 */
export function resourceRows<Row, T>(c: Connection, spec: ResourceSpec<Row, T>) {
  const find = (workspaceId: string, id: string, includeDeleted = false): T | undefined => {
    const row = c.get<Row>(
      `SELECT ${spec.columns} FROM ${spec.table} t WHERE t.id = ? AND t.workspace_id = ?${includeDeleted ? '' : ' AND t.deleted_at IS NULL'}`,
      id, workspaceId,
    );
    return row === undefined ? undefined : spec.toEntity(row);
  };

  return {
    /** The resource, soft-deleted ones only when asked. */
    find,

    /**
     * Sets the columns `patch` gives (from the resource as it was), moves updated_at forward, then
     * runs `also` (e.g. replacing links) and returns the resource as it is now.
     */
    update(workspaceId: string, id: string, events: readonly NewEvent[], patch: (before: T) => Columns, also?: () => void): T {
      return withEvents(c, workspaceId, events, () => {
        const before = find(workspaceId, id);
        if (before === undefined) throw notFound(spec.kind, id);
        const set = assignments({ ...patch(before), updated_at: now() });
        c.run(`UPDATE ${spec.table} SET ${set.sql.join(', ')} WHERE id = ? AND workspace_id = ?`, ...set.params, id, workspaceId);
        also?.();
        return find(workspaceId, id)!;
      });
    },

    /** Sets deleted_at (and updated_at) and returns the deleted resource. */
    softDelete(workspaceId: string, id: string, events: readonly NewEvent[]): T {
      return withEvents(c, workspaceId, events, () => {
        const at = now();
        const { changes } = c.run(
          `UPDATE ${spec.table} SET deleted_at = ?, updated_at = ? WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL`, at, at, id, workspaceId,
        );
        if (changes === 0) throw notFound(spec.kind, id);
        return find(workspaceId, id, true)!;
      });
    },
  };
}

/** `FROM {from} WHERE` the conditions that are given; a skipped (undefined) one matches everything. */
export function whereAll(from: string, conditions: ReadonlyArray<SqlFragment | undefined>): SqlFragment {
  const given = conditions.filter((condition): condition is SqlFragment => condition !== undefined);
  return {
    sql: `FROM ${from} WHERE ${given.map((condition) => condition.sql).join(' AND ') || '1'}`,
    params: given.flatMap((condition) => condition.params),
  };
}

/** A page of rows in the order given and the total, read in one transaction. */
export function pageRows<Row>(
  c: Connection, columns: string, from: SqlFragment, orderBy: string, page: { offset: number; limit: number },
): { rows: Row[]; total: number } {
  return c.read(() => ({ rows: pageOf<Row>(c, columns, from, orderBy, page.offset, page.limit), total: count(c, from) }));
}

/** A condition only when its value is given. */
export function when(value: SqlParam | undefined, sql: string): SqlFragment | undefined {
  return value === undefined ? undefined : { sql, params: [value] };
}

/** JSON columns as stored (null stays null). */
export const json = (value: unknown): string => JSON.stringify(value);
export const parseJson = <T>(text: string): T => JSON.parse(text) as T;

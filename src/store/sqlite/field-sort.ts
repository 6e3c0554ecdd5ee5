import type { SortSpec } from '../../domain/filter-ast.ts';
import type { Connection } from './connection.ts';
import type { SqlFragment } from './filter-sql.ts';
import { RECORD_COLUMNS, type RecordRow } from './rows.ts';

/**
 * A page of records sorted by a data field, read in two ordered parts so the value index can
 * stream it instead of sorting the whole object type: first the records that have a value, in
 * value order (the value index is already in that order), then the records that lack one, by id.
 * So missing values come last in both directions. Ties are broken by record id in the sort's
 * direction. A multi-valued field sorts by its smallest element ascending, its largest descending.
 *
 * `where` is the compiled filter on `records r`; the caller counts the total. `walk` forces the
 * value index of the sort field to drive the first part (see FEW_MATCHES in queries.ts).
 */
export function pageByField(
  c: Connection, objectTypePk: number, where: SqlFragment, sort: SortSpec, page: { offset: number; limit: number; walk: boolean },
): RecordRow[] {
  const { offset, limit } = page;
  const column = sort.valueKind === 'text' ? 'v_text' : 'v_num';
  const values = page.walk ? `record_values sv INDEXED BY record_values_by_${sort.valueKind === 'text' ? 'text' : 'num'}` : 'record_values sv';
  const direction = sort.ascending ? 'ASC' : 'DESC';
  const pick = sort.ascending ? 'MIN' : 'MAX';
  const hasValue = `SELECT 1 FROM record_values m WHERE m.record_pk = r.pk AND m.field = ? AND m.${column} IS NOT NULL`;

  const valued = c.all<RecordRow>(
    `SELECT ${RECORD_COLUMNS} FROM ${values} JOIN records r ON r.pk = sv.record_pk
     WHERE sv.object_type_pk = ? AND sv.field = ? AND sv.${column} IS NOT NULL AND r.deleted_at IS NULL AND ${where.sql}
       AND sv.${column} = (SELECT ${pick}(m.${column}) FROM record_values m WHERE m.record_pk = sv.record_pk AND m.field = sv.field)
     ORDER BY sv.${column} ${direction}, r.id ${direction}
     LIMIT ? OFFSET ?`,
    objectTypePk, sort.field, ...where.params, limit, offset,
  );
  if (valued.length === limit) return valued;

  // The page reaches past the records with a value: continue with those without one.
  const valuedTotal = valued.length > 0
    ? offset + valued.length
    : c.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM records r
       WHERE r.object_type_pk = ? AND r.deleted_at IS NULL AND ${where.sql} AND EXISTS (${hasValue})`,
      objectTypePk, ...where.params, sort.field,
    )!.n;
  const missing = c.all<RecordRow>(
    `SELECT ${RECORD_COLUMNS} FROM records r
     WHERE r.object_type_pk = ? AND r.deleted_at IS NULL AND ${where.sql} AND NOT EXISTS (${hasValue})
     ORDER BY r.id ${direction}
     LIMIT ? OFFSET ?`,
    objectTypePk, ...where.params, sort.field, limit - valued.length, Math.max(0, offset - valuedTotal),
  );
  return [...valued, ...missing];
}

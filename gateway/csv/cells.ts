import type { FieldDef } from '../../src/domain/types.ts';
import type { ColumnMap } from './mapping.ts';

const TRUE = new Set(['true', 'yes', 'y', '1', 'x']);
const FALSE = new Set(['false', 'no', 'n', '0']);

/**
 * A CSV cell as the value the field's validation expects: numbers and booleans from their text,
 * lists split on ";" (or "|"), a blank cell as no value. Text that does not convert is passed on
 * unchanged, so the domain's validation names the field and the rule in the reject reason.
 */
export function cellValue(field: FieldDef, cell: string): unknown {
  const s = cell.trim();
  if (s === '') return null;
  switch (field.type) {
    case 'number':
    case 'currency':
    case 'rating': {
      const n = Number(s.replace(/[,_\s]/g, ''));
      return Number.isFinite(n) ? n : s;
    }
    case 'checkbox':
      return TRUE.has(s.toLowerCase()) ? true : FALSE.has(s.toLowerCase()) ? false : s;
    case 'multi_select':
      return s.split(/[;|]/).map((v) => v.trim()).filter(Boolean);
    case 'record_reference':
      return field.config.many ? s.split(/[;|,\s]+/).filter(Boolean) : s;
    default:
      return cell;
  }
}

/** The data object of one CSV row under a column map. */
export function rowData(map: ColumnMap, row: readonly string[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  map.forEach((field, i) => {
    if (field) data[field.slug] = cellValue(field, row[i] ?? '');
  });
  return data;
}

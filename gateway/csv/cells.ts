import type { FieldDef } from '../../src/domain/types.ts';
import type { ColumnMap } from './mapping.ts';

const TRUE = new Set(['true', 'yes', 'y', '1', 'x']);
const FALSE = new Set(['false', 'no', 'n', '0']);

/**
 * A decimal number as people write one: a sign, digits grouped in threes by one separator (",",
 * "_", a space or a no-break space) or not grouped, a "." fraction and an exponent. Anything else
 * ("1,5" or "1.000,50" from a decimal-comma locale, "1,2,3", "0x10") would not mean what Number
 * reads after the separators are dropped (15, 1.0005, 123, 16), so it stays text and is rejected.
 */
const NUMBER_TEXT = /^[+-]?(?:\d+|\d{1,3}([,_ \u00a0\u202f])\d{3}(?:\1\d{3})*)?(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

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
      if (!NUMBER_TEXT.test(s)) return s;
      const n = Number(s.replace(/[,_ \u00a0\u202f]/g, ''));
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

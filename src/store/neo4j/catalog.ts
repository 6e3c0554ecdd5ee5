import type { ComparisonNode, FilterNode, FilterOperator, SortSpec, ValueKind } from '../../domain/filter-ast.ts';
import { entryListStatements, listStatements, searchStatements, type ListParams } from './cypher/queries.ts';
import { SAMPLE_AGGREGATES } from './cypher/aggregate-samples.ts';
import { searchQuery } from './encoding.ts';
import type { PageStatements } from './pages.ts';
import { schemaStatements } from './schema.ts';
import { registeredStatements } from './statement.ts';
import './index.ts';

/**
 * Every Cypher statement the adapter can send, for the lint test: the fixed statements, the
 * schema files, and representative outputs of the run-time builders — each filter operator on
 * each kind of value (single and multi-valued, data and system fields), empty groups, every kind
 * of sort, both search scopes, and list entry pages (system fields, a nested filter, every sort).
 * Each entry carries the parameters it is run with.
 */
export interface CatalogEntry {
  name: string;
  cypher: string;
  params: Record<string, unknown>;
}

const OBJECT_TYPE_ID = 'obj_01JB0000000000000000000000';
const LIST_ID = 'lst_01JB0000000000000000000000';
const WORKSPACE_ID = 'ws_01JB0000000000000000000000';

function cmp(field: string, op: FilterOperator, value: ComparisonNode['value'], valueKind: ValueKind, extra: Partial<ComparisonNode> = {}): ComparisonNode {
  return { kind: 'cmp', field, system: false, op, value, valueKind, multi: false, ...extra };
}

/** One comparison per operator and value kind the filter language allows, named for messages. */
export const SAMPLE_FILTERS: ReadonlyArray<readonly [string, FilterNode]> = [
  ['text eq', cmp('name', 'eq', 'Acme', 'text')],
  ['text ne', cmp('name', 'ne', 'Acme', 'text')],
  ['text in', cmp('industry', 'in', ['software', 'retail'], 'text')],
  ['text not_in', cmp('industry', 'not_in', ['software'], 'text')],
  ['text contains', cmp('name', 'contains', 'AcMe', 'text')],
  ['text starts_with', cmp('name', 'starts_with', 'Ac', 'text')],
  ['text ends_with', cmp('name', 'ends_with', 'Inc', 'text')],
  ['text is_empty', cmp('description', 'is_empty', null, 'text')],
  ['text is_not_empty', cmp('description', 'is_not_empty', null, 'text')],
  ['date gte', cmp('close_date', 'gte', '2026-01-01', 'text')],
  ['number gt', cmp('employee_count', 'gt', 50, 'number')],
  ['number lte', cmp('amount', 'lte', 1000.5, 'number')],
  ['number lt', cmp('amount', 'lt', 10, 'number')],
  ['number in', cmp('employee_count', 'in', [1, 2, 3], 'number')],
  ['boolean eq', cmp('active', 'eq', true, 'boolean')],
  ['boolean ne', cmp('active', 'ne', false, 'boolean')],
  ['multi eq', cmp('tags', 'eq', 'vip', 'text', { multi: true })],
  ['multi contains', cmp('tags', 'contains', 'vip', 'text', { multi: true })],
  ['multi in', cmp('contacts', 'in', ['rec_01JB0000000000000000000001'], 'text', { multi: true })],
  ['multi not_in', cmp('tags', 'not_in', ['churned'], 'text', { multi: true })],
  ['multi ne', cmp('tags', 'ne', 'vip', 'text', { multi: true })],
  ['multi is_empty', cmp('tags', 'is_empty', null, 'text', { multi: true })],
  ['system record_id eq', cmp('record_id', 'eq', 'rec_01JB0000000000000000000001', 'text', { system: true })],
  ['system record_id not_in', cmp('record_id', 'not_in', ['rec_01JB0000000000000000000001'], 'text', { system: true })],
  ['system created_at gt', cmp('created_at', 'gt', '2026-01-01T00:00:00.000Z', 'text', { system: true })],
  ['system updated_at is_empty', cmp('updated_at', 'is_empty', null, 'text', { system: true })],
  ['system updated_at is_not_empty', cmp('updated_at', 'is_not_empty', null, 'text', { system: true })],
  ['empty and', { kind: 'and', nodes: [] }],
  ['empty or', { kind: 'or', nodes: [] }],
  ['and of or', {
    kind: 'and',
    nodes: [
      cmp('stage', 'in', ['won', 'lost'], 'text'),
      { kind: 'or', nodes: [cmp('amount', 'gte', 1000, 'number'), cmp('name', 'contains', 'big', 'text')] },
    ],
  }],
];

export const SAMPLE_SORTS: ReadonlyArray<readonly [string, SortSpec]> = [
  ['created_at descending', { field: 'created_at', system: true, valueKind: 'text', ascending: false }],
  ['record_id ascending', { field: 'record_id', system: true, valueKind: 'text', ascending: true }],
  ['text ascending', { field: 'name', system: false, valueKind: 'text', ascending: true }],
  ['number descending', { field: 'amount', system: false, valueKind: 'number', ascending: false }],
];

const DEFAULT_SORT = SAMPLE_SORTS[0]![1];

/** The entry filters the catalog lints: those whose text differs for entries, and one of each shape. */
export const SAMPLE_ENTRY_FILTERS = SAMPLE_FILTERS.filter(([name]) => name.startsWith('system ') || ['multi is_empty', 'and of or'].includes(name));

type ListingQuery = Omit<ListParams, 'object_type_id'>;

/** The run-time listings: records of an object type, entries of a list; each with the filters linted for it. */
const LISTINGS: ReadonlyArray<readonly [string, (q: ListingQuery) => PageStatements, typeof SAMPLE_FILTERS]> = [
  ['list', (q) => listStatements({ object_type_id: OBJECT_TYPE_ID, ...q }), SAMPLE_FILTERS],
  ['entry', (q) => entryListStatements({ list_id: LIST_ID, ...q }), SAMPLE_ENTRY_FILTERS],
];

/** The whole catalog, in a stable order. */
export function cypherCatalog(): CatalogEntry[] {
  const entries: CatalogEntry[] = registeredStatements().map((s) => ({
    name: s.name, cypher: s.cypher, params: Object.fromEntries(s.params.map((p) => [p, null])),
  }));
  for (const s of schemaStatements()) entries.push({ name: `schema ${s.source}`, cypher: s.cypher, params: {} });
  for (const [kind, build, filters] of LISTINGS) {
    for (const [name, filter] of filters) entries.push({ name: `${kind} page, filter ${name}`, ...build({ filter, sort: DEFAULT_SORT, offset: 0, limit: 25 }).page });
    for (const filter of [undefined, SAMPLE_FILTERS.at(-1)![1]]) {
      const { count } = build({ ...(filter ? { filter } : {}), sort: DEFAULT_SORT, offset: 0, limit: 25 });
      entries.push({ name: `${kind} count, ${filter ? 'filtered' : 'no filter'}`, ...count });
    }
    for (const [name, sort] of SAMPLE_SORTS) entries.push({ name: `${kind} page, sort ${name}`, ...build({ sort, offset: 50, limit: 25 }).page });
  }
  for (const anyType of [true, false]) {
    const { lucene, words } = searchQuery('Acme café', anyType ? WORKSPACE_ID : OBJECT_TYPE_ID)!;
    const { page, count } = searchStatements({ query: lucene, words, any_type: anyType, offset: 0, limit: 10 });
    const scope = anyType ? 'workspace' : 'object type';
    entries.push({ name: `search page, ${scope}`, ...page }, { name: `search count, ${scope}`, ...count });
  }
  for (const [name, statement] of SAMPLE_AGGREGATES) entries.push({ name: `aggregate ${name}`, ...statement });
  return entries;
}

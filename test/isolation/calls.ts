import { CATALOG } from '../../gateway/tools/index.ts';
import type { Harness } from '../e2e/harness.ts';
import type { Made } from './populate.ts';

/**
 * How a foreign id is answered: `not_found` (404) when it names the call's target; `invalid` (400
 * validation_error naming the parameter) when a write only refers to it (a relation field, an
 * assignee, attached records, a report's object type); `empty` (an empty page) when a list call
 * filters by it. Each is exactly the answer a never-existing id gets, which the test checks too.
 */
export type Expected = 'not_found' | 'invalid' | 'empty';

/**
 * Every call that names one of `theirs`' resources, made by the owner of `mine`. Where a tool takes
 * two ids, one is the caller's own, so the foreign one is what fails.
 */
export function foreignCalls(mine: Made, theirs: Made): Array<[string, Record<string, unknown>, Expected]> {
  const t = theirs;
  return [
    ['objects.get', { slug: t.slug }, 'not_found'],
    ['objects.update', { slug: t.slug, name: 'x' }, 'not_found'],
    ['objects.delete', { slug: t.slug }, 'not_found'],
    ['objects.add_field', { slug: t.slug, field: { slug: 'extra', name: 'Extra', type: 'text' } }, 'not_found'],
    ['objects.update_field', { slug: t.slug, field_slug: 'name', name: 'x' }, 'not_found'],
    ['records.list', { object_type_slug: t.slug }, 'not_found'],
    ['records.get', { record_id: t.record_id }, 'not_found'],
    ['records.create', { object_type_slug: t.slug, data: { name: 'x' } }, 'not_found'],
    ['records.create', { object_type_slug: 'deals', data: { name: 'x', company: t.record_id } }, 'invalid'],
    ['records.create', { object_type_slug: 'companies', data: { name: 'x' }, assignee_id: t.user_id }, 'invalid'],
    ['records.update', { record_id: t.record_id, data: { name: 'x' } }, 'not_found'],
    ['records.update', { record_id: mine.deal_id, data: { company: t.record_id } }, 'invalid'],
    ['records.delete', { record_id: t.record_id }, 'not_found'],
    ['records.restore', { record_id: t.record_id }, 'not_found'],
    ['records.search', { query: 'x', object_type_slug: t.slug }, 'not_found'],
    ['lists.list', { object_type_slug: t.slug }, 'not_found'],
    ['lists.get', { list_id: t.list_id }, 'not_found'],
    ['lists.create', { object_type_slug: t.slug, name: 'x' }, 'not_found'],
    ['lists.update', { list_id: t.list_id, name: 'x' }, 'not_found'],
    ['lists.delete', { list_id: t.list_id }, 'not_found'],
    ['lists.entries', { list_id: t.list_id }, 'not_found'],
    ['lists.bulk_add_entry', { list_id: t.list_id, entries: [{ record_id: mine.deal_id }] }, 'not_found'],
    ['lists.bulk_add_entry', { list_id: mine.list_id, entries: [{ record_id: t.deal_id }] }, 'invalid'],
    ['lists.update_entry', { entry_id: t.entry_id, data: { score: 2 } }, 'not_found'],
    ['lists.remove_entry', { entry_id: t.entry_id }, 'not_found'],
    ['views.list', { list_id: t.list_id }, 'not_found'],
    ['views.get', { view_id: t.view_id }, 'not_found'],
    ['views.create', { name: 'x', list_id: t.list_id }, 'not_found'],
    ['views.update', { view_id: t.view_id, name: 'x' }, 'not_found'],
    ['views.delete', { view_id: t.view_id }, 'not_found'],
    ['notes.list', { record_id: t.record_id }, 'empty'],
    ['notes.get', { note_id: t.note_id }, 'not_found'],
    ['notes.create', { title: 'x', record_ids: [t.record_id] }, 'invalid'],
    ['notes.update', { note_id: t.note_id, title: 'x' }, 'not_found'],
    ['notes.update', { note_id: mine.note_id, record_ids: [t.record_id] }, 'invalid'],
    ['notes.delete', { note_id: t.note_id }, 'not_found'],
    ['tasks.list', { record_id: t.contact_id }, 'empty'],
    ['tasks.list', { assignee_id: t.user_id }, 'empty'],
    ['tasks.get', { task_id: t.task_id }, 'not_found'],
    ['tasks.create', { title: 'x', record_ids: [t.contact_id] }, 'invalid'],
    ['tasks.create', { title: 'x', assignee_id: t.user_id }, 'invalid'],
    ['tasks.update', { task_id: t.task_id, title: 'x' }, 'not_found'],
    ['tasks.update', { task_id: mine.task_id, assignee_id: t.user_id }, 'invalid'],
    ['tasks.delete', { task_id: t.task_id }, 'not_found'],
    ['timeline.list', { record_id: t.record_id }, 'empty'],
    ['reports.get', { report_id: t.report_id }, 'not_found'],
    ['reports.create', { name: 'x', config: { object_type: t.slug, metric: 'count', chart_type: 'bar' } }, 'invalid'],
    ['reports.run', { report_id: t.report_id }, 'not_found'],
    ['reports.run', { config: { object_type: t.slug, metric: 'count', chart_type: 'bar' } }, 'invalid'],
    ['reports.delete', { report_id: t.report_id }, 'not_found'],
    ['analytics.pipeline', { list_id: t.list_id }, 'not_found'],
    ['analytics.pipeline', { object_type_slug: t.slug }, 'not_found'],
    ['email.send', { to: 'a@b.test', subject: 's', body: 'b', record_ids: [t.contact_id] }, 'invalid'],
    ['email.list', { record_id: t.contact_id }, 'empty'],
    ['messages.send', { channel: 'internal', body: 'b', record_ids: [t.contact_id] }, 'invalid'],
    ['messages.send', { channel: 'internal', body: 'b', thread_id: t.thread_id }, 'not_found'],
    ['messages.list', { record_id: t.contact_id }, 'empty'],
    ['messages.list', { thread_id: t.thread_id }, 'empty'],
    ['meetings.create', { title: 'x', starts_at: '2030-01-01T10:00:00Z', ends_at: '2030-01-01T11:00:00Z', record_ids: [t.contact_id] }, 'invalid'],
    ['meetings.list', { record_id: t.contact_id }, 'empty'],
    ['integrations.disconnect', { integration_id: t.integration_id }, 'not_found'],
    ['graph.query', { record_id: t.contact_id }, 'not_found'],
    ['graph.path', { from_record_id: mine.contact_id, to_record_id: t.deal_id }, 'not_found'],
    ['graph.link', { from_record_id: mine.contact_id, to_record_id: t.deal_id, type: 'knows' }, 'not_found'],
    ['graph.unlink', { link_id: t.link_id }, 'not_found'],
    ['graph.unlink', { from_record_id: t.contact_id, to_record_id: t.deal_id, type: 'knows' }, 'not_found'],
    ['contacts.classify', { record_ids: [t.contact_id] }, 'not_found'],
  ];
}

/** Calls that name no id at all: they must simply show none of the other workspace's data. */
export function ownCalls(theirs: Made): Array<[string, Record<string, unknown>]> {
  return [
    ['objects.list', {}], ['records.list', { object_type_slug: 'companies' }], ['records.list', { object_type_slug: 'contacts' }],
    ['records.search', { query: theirs.marker }], ['records.search', { query: 'Company' }], ['lists.list', {}], ['views.list', {}],
    ['notes.list', {}], ['tasks.list', {}], ['timeline.list', {}], ['reports.list', {}], ['reports.run', { config: { object_type: 'deals', metric: 'count', chart_type: 'bar' } }],
    ['analytics.pipeline', {}], ['analytics.summary', {}], ['email.list', {}], ['messages.list', {}], ['meetings.list', {}],
    ['integrations.list', {}], ['billing.get', {}], ['contacts.classify', {}],
  ];
}

/** A tool's own GraphQL operation sent to /graphql, its answer normalised like callTool's. */
export async function callGraphQL(h: Harness, key: string, tool: string, params: Record<string, unknown>) {
  const def = CATALOG.get(tool)!;
  const parsed = def.input.parse(params);
  const res = await fetch(`${h.url}/graphql`, {
    method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: def.operation.document, variables: def.operation.variables(parsed) }),
  });
  const body = await res.json() as { data?: unknown; errors?: Array<{ extensions?: { code?: string }; message: string }> };
  const error = body.errors?.[0];
  return { ok: !error, code: error?.extensions?.code, message: error?.message, body, status: res.status };
}

/**
 * The 62 tool names of the service, in catalog order. The catalog offers exactly these names: every
 * one is served, and a name outside this list is refused.
 */
export const TOOL_NAMES = [
  'objects.list', 'objects.get', 'objects.create', 'objects.update', 'objects.delete', 'objects.add_field', 'objects.update_field',
  'records.list', 'records.get', 'records.create', 'records.update', 'records.delete', 'records.restore', 'records.search',
  'lists.list', 'lists.get', 'lists.create', 'lists.update', 'lists.delete', 'lists.entries', 'lists.bulk_add_entry',
  'lists.update_entry', 'lists.remove_entry',
  'views.list', 'views.get', 'views.create', 'views.update', 'views.delete',
  'notes.list', 'notes.get', 'notes.create', 'notes.update', 'notes.delete',
  'tasks.list', 'tasks.get', 'tasks.create', 'tasks.update', 'tasks.delete',
  'analytics.summary', 'analytics.pipeline',
  'reports.list', 'reports.get', 'reports.create', 'reports.run', 'reports.delete',
  'timeline.list',
  'graph.query', 'graph.path', 'graph.link', 'graph.unlink', 'contacts.classify',
  'integrations.list', 'integrations.connect', 'integrations.disconnect',
  'email.send', 'email.list',
  'messages.send', 'messages.list',
  'meetings.create', 'meetings.list',
  'billing.get',
  'support.create_ticket',
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];

export const TOOL_NAME_PATTERN = /^[a-z]+\.[a-z_]+$/;

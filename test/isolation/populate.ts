import { Writable } from 'node:stream';
import { flushUsage } from '../../src/domain/comms/usage.ts';
import { exportWorkspace } from '../../src/store/transfer.ts';
import { callTool, type Harness, type Workspace } from '../e2e/harness.ts';

/** The ids of one workspace's resources, by the parameter name that takes them. */
export interface Made {
  marker: string;
  slug: string;
  user_id: string;
  record_id: string;
  contact_id: string;
  deal_id: string;
  list_id: string;
  entry_id: string;
  view_id: string;
  note_id: string;
  task_id: string;
  report_id: string;
  email_id: string;
  message_id: string;
  thread_id: string;
  meeting_id: string;
  integration_id: string;
  ticket_id: string;
  link_id: string;
}

/**
 * Fills a workspace with one of every resource type through the tools: a custom object type,
 * records with a relation (deal → company) and a link, a classification, a list with an entry, a
 * view, a note, a task, a report, an email, a message, a meeting, an integration and a ticket.
 * Every name carries `marker`, so a leak of this workspace's data into an answer is visible.
 */
export async function populate(h: Harness, ws: Workspace, marker: string): Promise<Made> {
  const ok = async (tool: string, params: unknown): Promise<any> => {
    const out = await callTool(h, 'rest', ws.owner.key, tool, params);
    if (!out.ok) throw new Error(`populating with ${tool}: ${out.code} ${out.message}`);
    return out.result;
  };
  const slug = `proj_${marker.toLowerCase()}`;
  await ok('objects.create', { slug, name: `Projects ${marker}`, fields: [{ slug: 'name', name: 'Name', type: 'text', required: true }] });
  const company = (await ok('records.create', { object_type_slug: 'companies', data: { name: `Company ${marker}` } })).record_id;
  const contact = (await ok('records.create', { object_type_slug: 'contacts', data: { name: `Person ${marker}`, email: `p@${marker.toLowerCase()}.test`, company } })).record_id;
  const deal = (await ok('records.create', { object_type_slug: 'deals', data: { name: `Deal ${marker}`, amount: 5, company } })).record_id;
  await ok('records.create', { object_type_slug: slug, data: { name: `Project ${marker}` } });
  const link = await ok('graph.link', { from_record_id: contact, to_record_id: deal, type: 'knows' });
  await ok('contacts.classify', { record_ids: [contact], persist: true });
  const list = (await ok('lists.create', { object_type_slug: 'deals', name: `List ${marker}`, fields: [{ slug: 'score', name: 'Score', type: 'number' }] })).list_id;
  const entry = (await ok('lists.bulk_add_entry', { list_id: list, entries: [{ record_id: deal, data: { score: 1 } }] })).items[0].entry_id;
  const view = (await ok('views.create', { name: `View ${marker}`, object_type_slug: 'companies' })).view_id;
  const note = (await ok('notes.create', { title: `Note ${marker}`, record_ids: [company] })).note_id;
  const task = (await ok('tasks.create', { title: `Task ${marker}`, record_ids: [contact], assignee_id: ws.owner.user_id })).task_id;
  const report = (await ok('reports.create', { name: `Report ${marker}`, config: { object_type: 'deals', metric: 'count', chart_type: 'bar' } })).report_id;
  const email = (await ok('email.send', { to: `x@${marker.toLowerCase()}.test`, subject: `Mail ${marker}`, body: 'b', record_ids: [contact] })).email_id;
  const message = await ok('messages.send', { channel: 'internal', body: `Message ${marker}`, record_ids: [contact] });
  const meeting = (await ok('meetings.create', { title: `Meeting ${marker}`, starts_at: '2030-01-01T10:00:00Z', ends_at: '2030-01-01T11:00:00Z', record_ids: [contact] })).meeting_id;
  const ticket = (await ok('support.create_ticket', { subject: `Ticket ${marker}`, body: 'b' })).ticket_id;
  // Last, and on an event nothing here sends, so no delivery changes the workspace while the test compares exports.
  const integration = (await ok('integrations.connect', { provider: 'webhook', config: { url: `http://127.0.0.1:9/${marker}`, events: ['record.restore'], secret: 'isolation-secret-0123456789' } })).integration_id;
  return {
    marker, slug, user_id: ws.owner.user_id, record_id: company, contact_id: contact, deal_id: deal, list_id: list, entry_id: entry,
    view_id: view, note_id: note, task_id: task, report_id: report, email_id: email, message_id: message.message_id,
    thread_id: message.thread_id ?? message.message_id, meeting_id: meeting, integration_id: integration, ticket_id: ticket, link_id: link.link_id,
  };
}

/** The workspace's full export (`crm export`), as text, with the in-memory usage tally written first. */
export async function exported(h: Harness, workspaceId: string): Promise<string> {
  await flushUsage(h.server.store);
  const chunks: string[] = [];
  const sink = new Writable({ write(chunk, _enc, done) { chunks.push(String(chunk)); done(); } });
  await exportWorkspace(h.server.store, workspaceId, sink);
  return chunks.join('');
}

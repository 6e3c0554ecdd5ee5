import { newId } from '../../../src/domain/ids.ts';
import type { Store } from '../../../src/domain/store/port.ts';
import type { Workspace } from '../../../src/domain/types.ts';
import { freshWorkspace, newRecord, type Harness } from './harness.ts';

/** The records of the fixed graph, in the order of their ids (ids are assigned sorted, so the order within a depth is known). */
export const NAMES = ['Acme', 'Globex', 'Ann', 'Ben', 'Cat', 'Dan', 'Eve', 'D1', 'D2', 'Fay'] as const;
export type Name = (typeof NAMES)[number];

export interface FixedGraph {
  ws: Workspace;
  id: Record<Name, string>;
  name: (id: string) => string;
}

/**
 * A small graph with cycles, a soft-deleted record and several relation types:
 * - companies Acme, Globex; contacts Ann, Ben, Eve (Acme), Cat, Fay (Globex), Dan (none);
 * - deals D1 (Acme, stage proposal, contacts Cat), D2 (Globex, stage won, contacts Ann);
 * - links Ann knows Dan, Dan introduced_by Cat, Cat partner_of Acme, Acme partner_of Fay,
 *   Ben knows Eve, Eve knows Globex; then Eve is soft-deleted (her edges vanish from walks).
 */
export async function fixedGraph(h: Harness): Promise<FixedGraph> {
  const ws = await freshWorkspace(h, 'graph');
  const ids = NAMES.map(() => newId('record')).sort();
  const id = Object.fromEntries(NAMES.map((n, i) => [n, ids[i]!])) as Record<Name, string>;
  const s = h.store;
  const put = (slug: string, name: Name, data: Record<string, unknown>, refs: { field: string; to_id: string }[] = []) =>
    s.createRecord(ws.id, newRecord(slug, { name, ...data }, { id: id[name], refs }));
  await put('companies', 'Acme', {});
  await put('companies', 'Globex', {});
  for (const [person, company] of [['Ann', 'Acme'], ['Ben', 'Acme'], ['Cat', 'Globex'], ['Dan', null], ['Eve', 'Acme']] as const) {
    await put('contacts', person, company ? { company: id[company] } : {}, company ? [{ field: 'company', to_id: id[company] }] : []);
  }
  await put('deals', 'D1', { stage: 'proposal', company: id.Acme, contacts: [id.Cat] }, [{ field: 'company', to_id: id.Acme }, { field: 'contacts', to_id: id.Cat }]);
  await put('deals', 'D2', { stage: 'won', company: id.Globex, contacts: [id.Ann] }, [{ field: 'company', to_id: id.Globex }, { field: 'contacts', to_id: id.Ann }]);
  await put('contacts', 'Fay', { company: id.Globex }, [{ field: 'company', to_id: id.Globex }]);
  const links: [Name, Name, string][] = [
    ['Ann', 'Dan', 'knows'], ['Dan', 'Cat', 'introduced_by'], ['Cat', 'Acme', 'partner_of'], ['Acme', 'Fay', 'partner_of'],
    ['Ben', 'Eve', 'knows'], ['Eve', 'Globex', 'knows'],
  ];
  for (const [from, to, type] of links) await link(s, ws.id, id[from], id[to], type);
  await s.softDeleteRecord(ws.id, id.Eve);
  const byId = new Map(NAMES.map((n) => [id[n], n]));
  return { ws, id, name: (recordId) => byId.get(recordId) ?? recordId };
}

export function link(s: Store, workspaceId: string, from: string, to: string, type: string, properties: Record<string, unknown> = {}) {
  return s.createLink(workspaceId, { from_id: from, to_id: to, type, properties, created_by: null }, []);
}

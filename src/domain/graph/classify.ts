import type { Store } from '../store/port.ts';
import { LINK_SIGNALS, scoreContact, type ContactFacts, type Scored } from './scoring.ts';
import { EXPAND_CHUNK } from './walk.ts';

export const CONTACTS = 'contacts';
const COMPANIES = 'companies';
const DEALS = 'deals';

/**
 * Link types counted in either direction; the others only from the contact (or its company)
 * outwards: "A invested_in B" makes A the investor, "A supplies B" makes A the vendor.
 */
const SYMMETRIC_LINKS = new Set(['partner_of']);

/**
 * Gathers each contact's neighbourhood and scores it (scoring.ts), in a bounded number of round
 * trips per EXPAND_CHUNK contacts: the contacts' edges, their companies' edges, the deals' stages,
 * the interactions. Deals count when they name the contact (a record_reference from the deal) or
 * its company; links count on the contact and on its company.
 */
export async function classifyContacts(store: Store, workspaceId: string, contactIds: readonly string[], now: Date): Promise<Map<string, Scored>> {
  const out = new Map<string, Scored>();
  for (let start = 0; start < contactIds.length; start += EXPAND_CHUNK) {
    const chunk = contactIds.slice(start, start + EXPAND_CHUNK);
    for (const [id, facts] of await factsOf(store, workspaceId, chunk)) out.set(id, scoreContact(facts, now));
  }
  return out;
}

async function factsOf(store: Store, workspaceId: string, contactIds: readonly string[]): Promise<Map<string, ContactFacts>> {
  const own = await store.expandGraph(workspaceId, contactIds);
  const kind = new Map(own.records.map((r) => [r.id, r.object_type_slug]));
  const companiesOf = new Map<string, string[]>();
  const dealsOf = new Map<string, Set<string>>();
  const linksOf = new Map<string, Map<string, number>>();
  const push = <V>(map: Map<string, V>, key: string, make: () => V): V => map.get(key) ?? (map.set(key, make()), map.get(key)!);
  const countLinks = (edges: typeof own.edges, owners: ReadonlySet<string>) => {
    for (const e of edges) {
      if (e.origin !== 'link') continue;
      for (const [end, outward] of [[e.source, true], [e.target, false]] as const) {
        if (!owners.has(end) || (!outward && LINK_SIGNALS[e.type] && !SYMMETRIC_LINKS.has(e.type))) continue;
        const counts = push(linksOf, end, () => new Map<string, number>());
        counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
      }
    }
  };
  const contacts = new Set(contactIds);
  for (const e of own.edges) {
    if (e.origin !== 'field') continue;
    if (contacts.has(e.source) && kind.get(e.target) === COMPANIES) push(companiesOf, e.source, () => []).push(e.target);
    if (contacts.has(e.target) && kind.get(e.source) === DEALS) push(dealsOf, e.target, () => new Set()).add(e.source);
  }
  countLinks(own.edges, contacts);

  const companies = [...new Set([...companiesOf.values()].flat())];
  const theirs = companies.length ? await store.expandGraph(workspaceId, companies) : { edges: [], records: [] };
  const companyKind = new Map(theirs.records.map((r) => [r.id, r.object_type_slug]));
  const companyDeals = new Map<string, string[]>();
  for (const e of theirs.edges) {
    if (e.origin === 'field' && companyKind.get(e.source) === DEALS && companies.includes(e.target)) push(companyDeals, e.target, () => []).push(e.source);
  }
  countLinks(theirs.edges, new Set(companies));

  const allDeals = new Set([...[...dealsOf.values()].flatMap((s) => [...s]), ...[...companyDeals.values()].flat()]);
  const stages = new Map((await store.getRecords(workspaceId, [...allDeals])).map((d) => [d.id, typeof d.data['stage'] === 'string' ? d.data['stage'] : null]));
  const interactions = new Map<string, Record<string, string[]>>();
  for (const i of await store.interactions(workspaceId, contactIds)) (push(interactions, i.record_id, (): Record<string, string[]> => ({}))[i.kind] ??= []).push(i.at);

  const out = new Map<string, ContactFacts>();
  for (const id of contactIds) {
    const deals = new Set(dealsOf.get(id) ?? []);
    const links = new Map<string, number>();
    for (const owner of [id, ...(companiesOf.get(id) ?? [])]) {
      for (const deal of owner === id ? [] : companyDeals.get(owner) ?? []) deals.add(deal);
      for (const [type, n] of linksOf.get(owner) ?? []) links.set(type, (links.get(type) ?? 0) + n);
    }
    out.set(id, {
      dealStages: [...deals].filter((d) => stages.has(d)).map((d) => stages.get(d)!),
      links: Object.fromEntries(links),
      interactions: interactions.get(id) ?? {},
    });
  }
  return out;
}

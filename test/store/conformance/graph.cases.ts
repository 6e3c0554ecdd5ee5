import { describe, expect, it } from 'vitest';
import { classifyContacts } from '../../../src/domain/graph/classify.ts';
import { shortestPaths } from '../../../src/domain/graph/path.ts';
import type { GraphEdge, GraphRecord } from '../../../src/domain/graph/types.ts';
import { EXPAND_CHUNK, walk, type WalkOptions } from '../../../src/domain/graph/walk.ts';
import { walkView } from '../../../src/domain/graph/walk-view.ts';
import { newId } from '../../../src/domain/ids.ts';
import type { NewComm } from '../../../src/domain/store/port.ts';
import { expectCrmError, freshWorkspace, newRecord, type Harness } from './harness.ts';
import { fixedGraph, link, type FixedGraph } from './graph-fixture.ts';
import { actions, ev, timeline } from './work.ts';

/**
 * The relationship graph on the fixed graph of graph-fixture.ts. Walks and paths are decided in
 * src/domain/graph over the store's one-level expansions, so every adapter must give exactly these
 * nodes, edges, order, via, truncation and paths.
 */
export function graphCases(h: Harness): void {
  const root = async (g: FixedGraph, name: keyof FixedGraph['id']): Promise<GraphRecord> => (await h.store.graphRecords(g.ws.id, [g.id[name]]))[0]!;
  /**
   * The walk over the store's expansions, shown by name; where the store holds a GraphView, the
   * walk over it must give exactly the same answer.
   */
  const run = async (g: FixedGraph, from: keyof FixedGraph['id'], opts: Partial<WalkOptions> = {}) => {
    const options = { depth: 2, limit: 100, ...opts };
    const start = await root(g, from);
    const found = await walk(h.store, g.ws.id, start, options);
    const view = await h.store.graphView(g.ws.id);
    if (view) {
      const held = walkView(view, start, options);
      expect(held && { nodes: held.nodes, edges: held.edges, truncated: held.truncated }).toEqual(found);
      expect(held!.slots.map((slot) => view.id(slot))).toEqual(found.nodes.map((n) => n.record_id));
    }
    return {
      nodes: found.nodes.map((n) => `${g.name(n.record_id)}@${n.depth}<${n.via ? g.name(n.via) : '-'}`),
      edges: found.edges.map((e: GraphEdge) => `${g.name(e.source)}-${e.type}/${e.origin}->${g.name(e.target)}`),
      truncated: found.truncated,
    };
  };

  describe('graph', () => {
    it('walks breadth-first, nearest first, ordered by the node it came through then id, skipping the deleted record', async () => {
      const g = await fixedGraph(h);
      expect(await run(g, 'Ann')).toEqual({
        nodes: ['Ann@0<-', 'Acme@1<Ann', 'Dan@1<Ann', 'D2@1<Ann', 'Ben@2<Acme', 'Cat@2<Acme', 'D1@2<Acme', 'Fay@2<Acme', 'Globex@2<D2'],
        edges: [
          'Ann-company/field->Acme', 'Ann-knows/link->Dan', 'D2-contacts/field->Ann', 'Ben-company/field->Acme', 'Cat-partner_of/link->Acme',
          'D1-company/field->Acme', 'Acme-partner_of/link->Fay', 'Dan-introduced_by/link->Cat', 'D2-company/field->Globex',
          'D1-contacts/field->Cat', 'Cat-company/field->Globex', 'Fay-company/field->Globex',
        ],
        truncated: false,
      });
    });

    it('cuts the answer at the limit, root included, and says so', async () => {
      const g = await fixedGraph(h);
      expect(await run(g, 'Ann', { limit: 5 })).toEqual({
        nodes: ['Ann@0<-', 'Acme@1<Ann', 'Dan@1<Ann', 'D2@1<Ann', 'Ben@2<Acme'],
        edges: ['Ann-company/field->Acme', 'Ann-knows/link->Dan', 'D2-contacts/field->Ann', 'Ben-company/field->Acme'],
        truncated: true,
      });
      expect((await run(g, 'Ann', { limit: 9 })).truncated).toBe(false);
    });

    it('walks through every record but returns only the chosen types', async () => {
      const g = await fixedGraph(h);
      expect(await run(g, 'Ann', { types: ['contacts'] })).toEqual({
        nodes: ['Ann@0<-', 'Dan@1<Ann', 'Ben@2<Acme', 'Cat@2<Acme', 'Fay@2<Acme'],
        edges: ['Ann-knows/link->Dan', 'Dan-introduced_by/link->Cat'],
        truncated: false,
      });
      expect((await run(g, 'Globex', { depth: 1, types: ['contacts'] })).nodes).toEqual(['Globex@0<-', 'Cat@1<Globex', 'Fay@1<Globex']);
    });

    it('filters on persisted categories and carries them on the nodes', async () => {
      const g = await fixedGraph(h);
      const at = '2026-01-01T00:00:00.000Z';
      await h.store.saveClassifications(g.ws.id, [
        { record_id: g.id.Cat, category: 'partner', strength: 'warm', score: 40, reasons: [], classified_at: at },
        { record_id: g.id.Ben, category: 'customer', strength: 'strong', score: 80, reasons: [], classified_at: at },
      ], []);
      expect((await run(g, 'Ann', { categories: ['partner'] })).nodes).toEqual(['Ann@0<-', 'Cat@2<Acme']);
      const found = await walk(h.store, g.ws.id, await root(g, 'Ann'), { depth: 2, limit: 100, types: ['contacts'] });
      expect(found.nodes.map((n) => [g.name(n.record_id), n.category, n.strength])).toEqual([
        ['Ann', null, null], ['Dan', null, null], ['Ben', 'customer', 'strong'], ['Cat', 'partner', 'warm'], ['Fay', null, null],
      ]);
    });

    it('finds the same nodes at depth 1 and 4 as the walk definition says, through cycles', async () => {
      const g = await fixedGraph(h);
      expect((await run(g, 'Dan', { depth: 1 })).nodes).toEqual(['Dan@0<-', 'Ann@1<Dan', 'Cat@1<Dan']);
      expect((await run(g, 'Dan', { depth: 4 })).nodes).toEqual([
        'Dan@0<-', 'Ann@1<Dan', 'Cat@1<Dan', 'Acme@2<Ann', 'D2@2<Ann', 'Globex@2<Cat', 'D1@2<Cat', 'Ben@3<Acme', 'Fay@3<Acme',
      ]);
    });

    it('lists the edges among records of the last depth and among records past a limit cut, as well as those of expanded records', async () => {
      const g = await fixedGraph(h);
      expect((await run(g, 'Acme', { depth: 1 })).edges).toEqual([
        'Ann-company/field->Acme', 'Ben-company/field->Acme', 'Cat-partner_of/link->Acme', 'D1-company/field->Acme', 'Acme-partner_of/link->Fay',
        'D1-contacts/field->Cat',
      ]);
      expect(await run(g, 'Acme', { depth: 2, limit: 8 })).toEqual({
        nodes: ['Acme@0<-', 'Ann@1<Acme', 'Ben@1<Acme', 'Cat@1<Acme', 'D1@1<Acme', 'Fay@1<Acme', 'Dan@2<Ann', 'D2@2<Ann'],
        edges: [
          'Ann-company/field->Acme', 'Ben-company/field->Acme', 'Cat-partner_of/link->Acme', 'D1-company/field->Acme', 'Acme-partner_of/link->Fay',
          'Ann-knows/link->Dan', 'D2-contacts/field->Ann', 'D1-contacts/field->Cat', 'Dan-introduced_by/link->Cat',
        ],
        truncated: true,
      });
      expect(await run(g, 'Dan', { depth: 3, limit: 7, types: ['contacts', 'deals'] })).toEqual({
        nodes: ['Dan@0<-', 'Ann@1<Dan', 'Cat@1<Dan', 'D2@2<Ann', 'D1@2<Cat', 'Ben@3<Acme', 'Fay@3<Acme'],
        edges: ['Ann-knows/link->Dan', 'Dan-introduced_by/link->Cat', 'D2-contacts/field->Ann', 'D1-contacts/field->Cat'],
        truncated: false,
      });
    });

    it('finds the shortest paths, warmest first, and none beyond max_depth', async () => {
      const g = await fixedGraph(h);
      const at = '2026-01-01T00:00:00.000Z';
      await h.store.saveClassifications(g.ws.id, [
        { record_id: g.id.Fay, category: 'partner', strength: 'strong', score: 70, reasons: [], classified_at: at },
        { record_id: g.id.Cat, category: 'partner', strength: 'weak', score: 20, reasons: [], classified_at: at },
      ], []);
      const paths = async (from: keyof FixedGraph['id'], to: keyof FixedGraph['id'], maxDepth = 4, limit = 10) => {
        const found = await shortestPaths(h.store, g.ws.id, await root(g, from), await root(g, to), maxDepth, limit);
        expect(found.truncated).toBe(false);
        return found.paths.map((p) => `${p.nodes.map((n) => g.name(n.record_id)).join('>')} ${p.length}/${p.score}`);
      };
      expect(await paths('Ben', 'Globex')).toEqual(['Ben>Acme>Fay>Globex 3/3', 'Ben>Acme>Cat>Globex 3/1']);
      expect(await paths('Ben', 'Globex', 4, 1)).toEqual(['Ben>Acme>Fay>Globex 3/3']);
      expect(await paths('Ben', 'Globex', 2)).toEqual([]);
      expect(await paths('Ann', 'Cat')).toEqual(['Ann>Acme>Cat 2/0', 'Ann>Dan>Cat 2/0']);
      const [best] = (await shortestPaths(h.store, g.ws.id, await root(g, 'Ann'), await root(g, 'Cat'), 4, 1)).paths;
      expect(best!.edges.map((e) => `${g.name(e.source)}-${e.type}->${g.name(e.target)}`)).toEqual(['Ann-company->Acme', 'Cat-partner_of->Acme']);
      expect(best!.nodes.map((n) => n.via && g.name(n.via))).toEqual([null, 'Ann', 'Acme']);
    });

    it('gives up a path search at its bound of records reached, and says so, but not once a path is met or the ends are walked out', async () => {
      const g = await fixedGraph(h);
      const search = async (from: keyof FixedGraph['id'], to: keyof FixedGraph['id'], maxDepth: number, visitMax: number) => {
        const found = await shortestPaths(h.store, g.ws.id, await root(g, from), await root(g, to), maxDepth, 10, visitMax);
        return { paths: found.paths.map((p) => p.nodes.map((n) => g.name(n.record_id)).join('>')), truncated: found.truncated };
      };
      // Ben's side reaches Acme (3 records reached), then Ann, D1, Cat and Fay (7); then Globex's
      // side reaches Cat, D2 and Fay and meets Ben's at Cat and Fay: three levels.
      const found = { paths: ['Ben>Acme>Cat>Globex', 'Ben>Acme>Fay>Globex'], truncated: false };
      expect(await search('Ben', 'Globex', 4, 100)).toEqual(found);
      expect(await search('Ben', 'Globex', 4, 8)).toEqual(found);
      // Past the bound a level of one chunk (here every level) is still taken: the search goes on.
      for (const visitMax of [2, 3, 7]) expect(await search('Ben', 'Globex', 4, visitMax)).toEqual(found);
      // No more levels within max_depth: no path, and nothing was cut.
      expect(await search('Ben', 'Globex', 2, 7)).toEqual({ paths: [], truncated: false });
      // A level of more than one chunk past the bound ends the search; a level of one still runs.
      const ws = (await freshWorkspace(h, 'hubs')).id;
      const hub = async (name: string) => {
        const id = newId('record');
        await h.store.createRecord(ws, newRecord('companies', { name }, { id }));
        const people = Array.from({ length: EXPAND_CHUNK + 20 }, (_, i) => newRecord('contacts', { name: `${name} ${i}`, company: id }, { id: newId('record'), refs: [{ field: 'company', to_id: id }] }));
        await h.store.createRecords(ws, people);
        return { id, person: people[0]!.id! };
      };
      const [a, b] = [await hub('Hub A'), await hub('Hub B')];
      const outsider = newId('record');
      await h.store.createRecord(ws, newRecord('contacts', { name: 'Outsider' }, { id: outsider }));
      await link(h.store, ws, outsider, a.person, 'knows');
      const rec = async (id: string) => (await h.store.graphRecords(ws, [id]))[0]!;
      // Hub A's 520 people are reached at once; the outsider's one relation is still read, and meets them.
      const near = await shortestPaths(h.store, ws, await rec(a.id), await rec(outsider), 6, 10, 10);
      expect(near.truncated).toBe(false);
      expect(near.paths.map((p) => p.nodes.map((n) => n.record_id))).toEqual([[a.id, a.person, outsider]]);
      // Between the two hubs' people both sides grow past a chunk, and there is no path to find.
      expect(await shortestPaths(h.store, ws, await rec(a.person), await rec(b.person), 6, 10, 600)).toEqual({ paths: [], truncated: true });
      expect(await shortestPaths(h.store, ws, await rec(a.person), await rec(b.person), 6, 10, 10_000)).toEqual({ paths: [], truncated: false });
      // A record with no relation: its side is walked out after one level, before the bound.
      const solo = newId('record');
      await h.store.createRecord(g.ws.id, newRecord('contacts', { name: 'Solo' }, { id: solo }));
      const alone = await shortestPaths(h.store, g.ws.id, (await h.store.graphRecords(g.ws.id, [solo]))[0]!, await root(g, 'Globex'), 6, 10, 3);
      expect(alone).toEqual({ paths: [], truncated: false });
    });

    it('classifies the fixed dataset the same way for the same clock', async () => {
      const g = await fixedGraph(h);
      await h.store.createNote(g.ws.id, { kind: 'call', title: 'Intro', body: '', format: 'plain', record_ids: [g.id.Ann], created_by: null }, []);
      await h.store.createNote(g.ws.id, { kind: 'note', title: 'Follow-up', body: '', format: 'plain', record_ids: [g.id.Ann, g.id.Cat], created_by: null }, []);
      await h.store.createTask(g.ws.id, { title: 'Call back', body: '', status: 'open', due_at: null, assignee_id: null, record_ids: [g.id.Dan], created_by: null }, []);
      await link(h.store, g.ws.id, g.id.Dan, g.id.Globex, 'invested_in');
      await link(h.store, g.ws.id, g.id.Ben, g.id.Globex, 'supplies');
      const clock = new Date(Date.now() + 10 * 86_400_000);
      const contacts = ['Ann', 'Ben', 'Cat', 'Dan', 'Fay'] as const;
      const scored = await classifyContacts(h.store, g.ws.id, contacts.map((n) => g.id[n]), clock);
      const summary = Object.fromEntries(contacts.map((n) => {
        const s = scored.get(g.id[n])!;
        return [n, `${s.category}/${s.strength}/${s.score} ${s.reasons.map((r) => `${r.signal}=${r.value}:${r.contribution}`).join(' ')}`];
      }));
      expect(summary).toEqual({
        // Acme's two partner_of links (Cat's, to Fay) count for everyone at Acme.
        Ann: 'customer/strong/81 deals_won=1:20 deals_open=1:10 link:partner_of=2:30 links_other=1:5 notes=2:16',
        Ben: 'partner/warm/55 deals_open=1:10 link:partner_of=2:30 link:supplies=1:15',
        Cat: 'customer/warm/58 deals_won=1:20 deals_open=1:10 link:partner_of=1:15 links_other=1:5 notes=1:8',
        Dan: 'investor/weak/30 link:invested_in=1:15 links_other=2:10 tasks=1:5',
        // Dan's invested_in and Ben's supplies point at Globex: they make Dan and Ben, not Globex's people, investor and vendor.
        Fay: 'customer/warm/35 deals_won=1:20 link:partner_of=1:15',
      });
    });

    it('counts emails, meetings and messages as interactions at their time, weighted by recency, and leaves out deleted ones and tickets', async () => {
      const g = await fixedGraph(h);
      const comm = async (kind: NewComm['kind'], at: string, recordIds: string[], deleted = false) => {
        const made = await h.store.createComm(g.ws.id, {
          kind, status: 'stored', tag: kind === 'message' ? 'internal' : null, thread_id: null, at, data: {}, record_ids: recordIds, next_attempt_at: null, created_by: null,
        }, []);
        if (deleted) await h.store.updateComm(g.ws.id, kind, made.id, { deleted_at: at });
      };
      await comm('email', '2030-02-20T00:00:00.000Z', [g.id.Ben]);
      await comm('email', '2029-12-01T00:00:00.000Z', [g.id.Ben]);
      await comm('meeting', '2030-03-05T00:00:00.000Z', [g.id.Ben]);
      await comm('message', '2028-01-01T00:00:00.000Z', [g.id.Ben]);
      // One meeting with two attendees' records counts for both of them.
      await comm('meeting', '2030-01-15T00:00:00.000Z', [g.id.Dan, g.id.Fay]);
      await comm('email', '2030-02-27T00:00:00.000Z', [g.id.Fay], true);
      await comm('ticket', '2030-02-27T00:00:00.000Z', [g.id.Fay]);

      const found = await h.store.interactions(g.ws.id, [g.id.Dan, g.id.Fay]);
      expect(found.map((i) => `${g.name(i.record_id)} ${i.kind} ${i.at}`).sort()).toEqual([
        'Dan meetings 2030-01-15T00:00:00.000Z', 'Fay meetings 2030-01-15T00:00:00.000Z',
      ]);

      const clock = new Date('2030-03-01T00:00:00.000Z');
      const contacts = ['Ben', 'Dan', 'Fay'] as const;
      const scored = await classifyContacts(h.store, g.ws.id, contacts.map((n) => g.id[n]), clock);
      const summary = Object.fromEntries(contacts.map((n) => {
        const s = scored.get(g.id[n])!;
        return [n, `${s.category}/${s.strength}/${s.score} ${s.reasons.map((r) => `${r.signal}=${r.value}:${r.contribution}${r.detail ? ` (${r.detail})` : ''}`).join(' ')}`];
      }));
      expect(summary).toEqual({
        // Emails 9 days (weight 1) and 90 days old (0.5): 1.5 × 6; a meeting still to come counts fully; a message over a year old 0.1 × 4.
        Ben: 'partner/warm/59 deals_open=1:10 link:partner_of=2:30 emails=2:9 (latest 2030-02-20T00:00:00.000Z)'
          + ' meetings=1:10 (latest 2030-03-05T00:00:00.000Z) messages=1:0.4 (latest 2028-01-01T00:00:00.000Z)',
        // The meeting 45 days ago weighs 0.5 × 10 for each of its two contacts; Fay's deleted email and the ticket do not count.
        Dan: 'other/weak/15 links_other=2:10 meetings=1:5 (latest 2030-01-15T00:00:00.000Z)',
        Fay: 'customer/warm/40 deals_won=1:20 link:partner_of=1:15 meetings=1:5 (latest 2030-01-15T00:00:00.000Z)',
      });
    });

    it('links once per (from, to, type), keeps properties, and writes the event only the first time', async () => {
      const ws = await freshWorkspace(h);
      const [a, b] = [await h.store.createRecord(ws.id, newRecord('contacts', { name: 'A' })), await h.store.createRecord(ws.id, newRecord('contacts', { name: 'B' }))];
      const input = { from_id: a.id, to_id: b.id, type: 'knows', properties: { since: 2019 }, created_by: null };
      const first = await h.store.createLink(ws.id, input, [ev('create', 'link', 'rel_x', [a.id, b.id])]);
      expect(first.created).toBe(true);
      expect(first.link).toMatchObject({ from_id: a.id, to_id: b.id, type: 'knows', properties: { since: 2019 }, workspace_id: ws.id });
      const again = await h.store.createLink(ws.id, input, [ev('create', 'link', 'rel_x', [a.id, b.id])]);
      expect(again).toEqual({ link: first.link, created: false });
      expect(actions(await timeline(h, ws.id, b.id))).toEqual(['create link']);
      expect(await h.store.getLink(ws.id, first.link.id)).toEqual(first.link);
      expect(await h.store.findLink(ws.id, a.id, b.id, 'knows')).toEqual(first.link);
      expect(await h.store.findLink(ws.id, b.id, a.id, 'knows')).toBeNull();
      expect((await h.store.getRelations(ws.id, a.id)).map((r) => [r.source, r.type, r.to_id])).toEqual([['link', 'knows', b.id]]);
      expect(await h.store.deleteLink(ws.id, first.link.id, [])).toEqual(first.link);
      expect(await h.store.getLink(ws.id, first.link.id)).toBeNull();
      await expectCrmError(h.store.deleteLink(ws.id, first.link.id, []), 'not_found');
    });

    it('refuses to link a deleted record or one of another workspace, and tells field edges apart', async () => {
      const g = await fixedGraph(h);
      const other = await freshWorkspace(h);
      const stranger = await h.store.createRecord(other.id, newRecord('contacts', { name: 'Stranger' }));
      await expectCrmError(link(h.store, g.ws.id, g.id.Ann, g.id.Eve, 'knows'), 'not_found', { param: 'to_record_id' });
      await expectCrmError(link(h.store, g.ws.id, stranger.id, g.id.Ann, 'knows'), 'not_found', { param: 'from_record_id' });
      expect(await h.store.hasFieldEdge(g.ws.id, g.id.Ann, g.id.Acme, 'company')).toBe(true);
      expect(await h.store.hasFieldEdge(g.ws.id, g.id.Ann, g.id.Dan, 'knows')).toBe(false);
      expect(await h.store.getLink(other.id, (await h.store.findLink(g.ws.id, g.id.Ann, g.id.Dan, 'knows'))!.id)).toBeNull();
      expect(await h.store.expandGraph(other.id, [g.id.Ann])).toEqual({ edges: [], records: [] });
      expect(await h.store.graphRecords(other.id, [g.id.Ann])).toEqual([]);
    });

    it('writes links in bulk, skipping existing ones, twins, self-links and records of another workspace', async () => {
      const g = await fixedGraph(h);
      const other = await freshWorkspace(h);
      const stranger = await h.store.createRecord(other.id, newRecord('contacts', { name: 'Stranger' }));
      const bulk = (from: string, to: string, type: string) => ({ from_id: from, to_id: to, type, properties: { bulk: true }, created_by: null });
      const written = await h.store.createLinks(g.ws.id, [
        bulk(g.id.Ann, g.id.Ben, 'knows'), bulk(g.id.Ann, g.id.Ben, 'knows'), bulk(g.id.Ann, g.id.Dan, 'knows'),
        bulk(g.id.Ann, g.id.Ann, 'knows'), bulk(g.id.Ann, stranger.id, 'knows'), bulk(g.id.Ben, g.id.Ann, 'knows'),
      ]);
      expect(written).toBe(2);
      expect((await h.store.findLink(g.ws.id, g.id.Ann, g.id.Ben, 'knows'))?.properties).toEqual({ bulk: true });
      expect((await h.store.findLink(g.ws.id, g.id.Ann, g.id.Dan, 'knows'))?.properties).toEqual({});
      expect(await h.store.getRelations(other.id, stranger.id)).toEqual([]);
    });

    it('reads one level around records (both ends live) and the edges among a set, in the stored direction', async () => {
      const g = await fixedGraph(h);
      const show = (edges: GraphEdge[]) => edges.map((e) => `${g.name(e.source)}-${e.type}/${e.origin}->${g.name(e.target)}`).sort();
      const step = await h.store.expandGraph(g.ws.id, [g.id.Ben, g.id.Dan]);
      expect(show(step.edges)).toEqual(['Ann-knows/link->Dan', 'Ben-company/field->Acme', 'Dan-introduced_by/link->Cat']);
      expect(step.records.map((r) => g.name(r.id)).sort()).toEqual(['Acme', 'Ann', 'Ben', 'Cat', 'Dan']);
      expect(show(await h.store.edgesAmong(g.ws.id, [g.id.Ann, g.id.Acme, g.id.Dan, g.id.Cat]))).toEqual([
        'Ann-company/field->Acme', 'Ann-knows/link->Dan', 'Cat-partner_of/link->Acme', 'Dan-introduced_by/link->Cat',
      ]);
    });

    it('reads an edge between two frontier records once, nothing through a deleted one, and both ends with their classification', async () => {
      const g = await fixedGraph(h);
      const show = (edges: GraphEdge[]) => edges.map((e) => `${g.name(e.source)}-${e.type}/${e.origin}->${g.name(e.target)}`).sort();
      const classified = (id: string, category: 'partner' | 'investor', strength: 'strong' | 'weak') =>
        ({ record_id: id, category, strength, score: 50, reasons: [], classified_at: '2026-01-01T00:00:00.000Z' });
      await h.store.saveClassifications(g.ws.id, [classified(g.id.Cat, 'partner', 'strong'), classified(g.id.Ann, 'investor', 'weak')], []);
      const step = await h.store.expandGraph(g.ws.id, [g.id.Dan, g.id.Cat, g.id.Eve]);
      expect(show(step.edges)).toEqual([
        'Ann-knows/link->Dan', 'Cat-company/field->Globex', 'Cat-partner_of/link->Acme', 'D1-contacts/field->Cat', 'Dan-introduced_by/link->Cat',
      ]);
      const byId = (records: GraphRecord[]) => [...records].sort((a, b) => (a.id < b.id ? -1 : 1));
      const ends = [g.id.Ann, g.id.Dan, g.id.Cat, g.id.Globex, g.id.Acme, g.id.D1];
      expect(byId(step.records)).toEqual(byId(await h.store.graphRecords(g.ws.id, ends)));
      expect(step.records.find((r) => r.id === g.id.Cat)).toMatchObject({ object_type_slug: 'contacts', category: 'partner', strength: 'strong' });
      expect(step.records.find((r) => r.id === g.id.Ann)).toMatchObject({ category: 'investor', strength: 'weak' });
    });

    it('sees every write made after a read: links, unlinks, field edges, deletes, restores, classifications and bulk writes', async () => {
      const g = await fixedGraph(h);
      const s = h.store;
      const show = (edges: GraphEdge[]) => edges.map((e) => `${g.name(e.source)}-${e.type}/${e.origin}->${g.name(e.target)}`).sort();
      const around = async (name: keyof FixedGraph['id']) => show((await s.expandGraph(g.ws.id, [g.id[name]])).edges);
      const among = async (...names: (keyof FixedGraph['id'])[]) => show(await s.edgesAmong(g.ws.id, names.map((n) => g.id[n])));
      expect(await around('Ben')).toEqual(['Ben-company/field->Acme']);
      expect(await among('Ben', 'Dan', 'Cat')).toEqual(['Dan-introduced_by/link->Cat']);

      await s.restoreRecord(g.ws.id, g.id.Eve, []);
      expect(await around('Ben')).toEqual(['Ben-company/field->Acme', 'Ben-knows/link->Eve']);
      await s.softDeleteRecord(g.ws.id, g.id.Acme);
      expect(await around('Ben')).toEqual(['Ben-knows/link->Eve']);
      expect(await around('Cat')).toEqual(['Cat-company/field->Globex', 'D1-contacts/field->Cat', 'Dan-introduced_by/link->Cat']);

      const { link: made } = await link(s, g.ws.id, g.id.Ben, g.id.Dan, 'partner_of');
      expect(await around('Ben')).toEqual(['Ben-knows/link->Eve', 'Ben-partner_of/link->Dan']);
      expect(await among('Ben', 'Dan', 'Cat')).toEqual(['Ben-partner_of/link->Dan', 'Dan-introduced_by/link->Cat']);
      await s.deleteLink(g.ws.id, made.id, []);
      expect(await around('Ben')).toEqual(['Ben-knows/link->Eve']);
      expect(await among('Ben', 'Dan', 'Cat')).toEqual(['Dan-introduced_by/link->Cat']);

      await s.updateRecord(g.ws.id, g.id.Ben, { data: { name: 'Ben', company: g.id.Globex }, uniques: [], refs: [{ field: 'company', to_id: g.id.Globex }] });
      expect(await around('Ben')).toEqual(['Ben-company/field->Globex', 'Ben-knows/link->Eve']);

      await s.saveClassifications(g.ws.id, [{ record_id: g.id.Eve, category: 'investor', strength: 'warm', score: 60, reasons: [], classified_at: '2026-01-01T00:00:00.000Z' }], []);
      expect((await s.expandGraph(g.ws.id, [g.id.Ben])).records.find((r) => r.id === g.id.Eve)).toMatchObject({ category: 'investor', strength: 'warm' });

      const deal = newId('record');
      await s.createRecords(g.ws.id, [newRecord('deals', { name: 'D3', contacts: [g.id.Ben] }, { id: deal, refs: [{ field: 'contacts', to_id: g.id.Ben }] })]);
      await s.createLinks(g.ws.id, [{ from_id: g.id.Ben, to_id: g.id.Cat, type: 'knows', properties: {}, created_by: null }]);
      const names = new Map([[deal, 'D3']]);
      expect((await s.expandGraph(g.ws.id, [g.id.Ben])).edges.map((e) => `${names.get(e.source) ?? g.name(e.source)}-${e.type}->${g.name(e.target)}`).sort())
        .toEqual(['Ben-company->Globex', 'Ben-knows->Cat', 'Ben-knows->Eve', 'D3-contacts->Ben']);
    });

    it('reads interactions, contact ids by page and classifications back', async () => {
      const g = await fixedGraph(h);
      const note = await h.store.createNote(g.ws.id, { kind: 'note', title: 'n', body: '', format: 'plain', record_ids: [g.id.Ann], created_by: null }, []);
      expect(await h.store.interactions(g.ws.id, [g.id.Ann, g.id.Ben])).toEqual([{ record_id: g.id.Ann, kind: 'notes', at: note.created_at }]);
      const contacts = [g.id.Ann, g.id.Ben, g.id.Cat, g.id.Dan, g.id.Fay];
      expect(await h.store.recordIdsOf(g.ws.id, 'contacts', null, 3)).toEqual(contacts.slice(0, 3));
      expect(await h.store.recordIdsOf(g.ws.id, 'contacts', contacts[2]!, 3)).toEqual(contacts.slice(3));
      const item = { record_id: g.id.Ann, category: 'customer' as const, strength: 'warm' as const, score: 46, reasons: [{ signal: 'notes', value: 2, contribution: 16 }], classified_at: '2026-01-01T00:00:00.000Z' };
      await h.store.saveClassifications(g.ws.id, [item], [ev('classify', 'record', g.id.Ann, [g.id.Ann])]);
      await h.store.saveClassifications(g.ws.id, [{ ...item, score: 47 }], []);
      expect(await h.store.getClassifications(g.ws.id, [g.id.Ann, g.id.Ben])).toEqual([{ ...item, score: 47, workspace_id: g.ws.id }]);
      expect(actions(await timeline(h, g.ws.id, g.id.Ann))[0]).toBe('classify record');
    });
  });
}

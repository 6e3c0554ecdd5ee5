/**
 * Crash safety: acknowledged writes survive a SIGKILL of the server mid-load, and the store it
 * leaves behind is consistent (SQLite integrity, unique claims, relations, timeline events).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rest, startChild } from './child.ts';

const dir = mkdtempSync(join(tmpdir(), 'crm-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WORKERS = 6;
/** The server is killed once this many writes were acknowledged (or after KILL_AFTER_MS). */
const KILL_AT_ACKS = 150;
const KILL_AFTER_MS = 8000;

interface Acked {
  companies: { id: string; domain: string }[];
  /** Every acknowledged write: the resource it made or changed and the timeline action expected. */
  events: { resource_id: string; action: string; tool: string }[];
  entries: { list_id: string; entry_id: string; record_id: string }[];
  notes: string[];
  links: { link_id: string; from: string; to: string }[];
}

describe('a server killed with SIGKILL in the middle of concurrent writes', () => {
  it('keeps every acknowledged write and leaves a consistent store after a restart', async () => {
    const first = await startChild({ DATA_DIR: dir });
    const key = first.key!;
    const list = (await rest(first.url, key, 'lists.create', { object_type_slug: 'companies', name: 'Crash list' })).body;
    const acked: Acked = { companies: [], events: [], entries: [], notes: [], links: [] };
    let killed = false;
    let total = 0;
    const ack = (e: Acked['events'][number]) => {
      acked.events.push(e);
      total += 1;
    };

    const worker = async (w: number) => {
      const mine: string[] = [];
      for (let i = 0; !killed; i++) {
        try {
          const last = mine.at(-1);
          const op = last === undefined ? 0 : i % 5;
          if (op === 0) {
            const domain = `w${w}-${i}.crash.test`;
            const r = await rest(first.url, key, 'records.create', { object_type_slug: 'companies', data: { name: `C ${w}-${i}`, domain } });
            if (r.status !== 200) throw new Error(`records.create ${r.status} ${JSON.stringify(r.body)}`);
            mine.push(r.body.record_id);
            acked.companies.push({ id: r.body.record_id, domain });
            ack({ resource_id: r.body.record_id, action: 'create', tool: 'records.create' });
          } else if (op === 1) {
            const r = await rest(first.url, key, 'records.update', { record_id: last, data: { name: `U ${w}-${i}` } });
            if (r.status !== 200) throw new Error(`records.update ${r.status} ${JSON.stringify(r.body)}`);
            ack({ resource_id: last!, action: 'update', tool: 'records.update' });
          } else if (op === 2) {
            const r = await rest(first.url, key, 'lists.bulk_add_entry', { list_id: list.list_id, entries: [{ record_id: last }] });
            if (r.status !== 200) throw new Error(`lists.bulk_add_entry ${r.status} ${JSON.stringify(r.body)}`);
            const entry = r.body.items[0];
            acked.entries.push({ list_id: list.list_id, entry_id: entry.entry_id, record_id: last! });
            ack({ resource_id: entry.entry_id, action: 'add', tool: 'lists.bulk_add_entry' });
          } else if (op === 3) {
            const r = await rest(first.url, key, 'notes.create', { title: `N ${w}-${i}`, body: 'crash', record_ids: [last] });
            if (r.status !== 200) throw new Error(`notes.create ${r.status} ${JSON.stringify(r.body)}`);
            acked.notes.push(r.body.note_id);
            ack({ resource_id: r.body.note_id, action: 'create', tool: 'notes.create' });
          } else if (mine.length >= 2) {
            const r = await rest(first.url, key, 'graph.link', { from_record_id: last, to_record_id: mine[0], type: 'partner_of' });
            if (r.status !== 200) throw new Error(`graph.link ${r.status} ${JSON.stringify(r.body)}`);
            acked.links.push({ link_id: r.body.link_id, from: last!, to: mine[0]! });
            ack({ resource_id: r.body.link_id, action: 'create', tool: 'graph.link' });
          }
        } catch (err) {
          // A call cut by the kill was never acknowledged; anything else is a real failure.
          if (!killed) throw err;
        }
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    const started = Date.now();
    while (total < KILL_AT_ACKS && Date.now() - started < KILL_AFTER_MS) await new Promise((r) => setTimeout(r, 20));
    killed = true;
    first.proc.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    await load;
    expect(acked.companies.length).toBeGreaterThan(10);

    const second = await startChild({ DATA_DIR: dir });
    expect(second.key).toBeUndefined();
    for (const c of acked.companies) {
      const r = await rest(second.url, key, 'records.get', { record_id: c.id });
      expect(r.status, `record ${c.id}`).toBe(200);
    }
    for (const id of acked.notes) expect((await rest(second.url, key, 'notes.get', { note_id: id })).status, `note ${id}`).toBe(200);
    const listed = new Set<string>();
    for (let page = 1; ; page++) {
      const got = (await rest(second.url, key, 'lists.entries', { list_id: list.list_id, page, page_size: 100 })).body;
      for (const e of got.items) listed.add(e.entry_id);
      if (page * got.page_size >= got.total) break;
    }
    for (const e of acked.entries) expect(listed.has(e.entry_id), `entry ${e.entry_id}`).toBe(true);
    second.proc.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);

    const db = new Database(join(dir, 'crm.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      // Unique claims: each points at a live record holding that value, and each live value has its claim.
      const strayClaims = db.prepare(`SELECT count(*) AS n FROM record_uniques u LEFT JOIN records r ON r.pk = u.record_pk
        WHERE r.pk IS NULL OR r.deleted_at IS NOT NULL OR json_extract(r.data, '$.' || u.field) IS NOT u.value`).get() as { n: number };
      expect(strayClaims.n).toBe(0);
      const claimed = db.prepare(`SELECT count(*) AS n FROM record_uniques WHERE field = 'domain' AND value = ?`);
      for (const c of acked.companies) expect((claimed.get(c.domain) as { n: number }).n, `claim of ${c.domain}`).toBe(1);
      const dangling = db.prepare(`SELECT count(*) AS n FROM relations WHERE from_id NOT IN (SELECT id FROM records) OR to_id NOT IN (SELECT id FROM records)`).get() as { n: number };
      expect(dangling.n).toBe(0);
      const event = db.prepare('SELECT count(*) AS n FROM events WHERE resource_id = ? AND action = ?');
      for (const e of acked.events) expect((event.get(e.resource_id, e.action) as { n: number }).n, `${e.tool} event for ${e.resource_id}`).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  }, 60_000);
});

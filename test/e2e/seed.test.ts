import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../gateway/auth/principal.ts';
import { TS_LOADER as LOADER } from '../../gateway/loader/index.ts';
import { SEED_EMAIL_REASON } from '../../gateway/seed/comms.ts';
import { seedDemo } from '../../gateway/seed/index.ts';
import { invokeTool } from '../../gateway/tools/invoke.ts';
import { configureComms } from '../../src/domain/comms/settings.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'crm-seed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('crm seed demo', () => {
  it('builds the same demo twice for the same seed, and the graph calls find non-trivial answers in it', async () => {
    const stores = [createSqliteStore({ path: join(dir, 'a.db') }), createSqliteStore({ path: join(dir, 'b.db') })];
    const results = [];
    for (const store of stores) {
      await store.init();
      // A relay as if SMTP_URL were set: the seed must still send nothing, only keep its emails.
      configureComms(store, { smtpConfigured: true });
      results.push(await seedDemo(store, { scale: 0.05, keyPrefix: 'crm' }));
    }
    const [a, b] = results;
    expect(a!.counts).toEqual(b!.counts);
    expect(a!.counts).toMatchObject({ companies: 15, contacts: 150, deals: 30, classified: 150, emails: 60, meetings: 15, messages: 15 });
    expect(a!.counts.links).toBeGreaterThan(40);

    const store = stores[0]!;
    const principal = await authenticate(store, `Bearer ${a!.key}`, 'crm');
    const call = (tool: string, params: unknown) => invokeTool(store, principal, 'cli', tool, params) as Promise<any>;
    // Records made in one millisecond list in id order, which is random: compare the names as sets.
    const names = async (s: typeof store, key: string) => {
      const p = await authenticate(s, `Bearer ${key}`, 'crm');
      return ((await invokeTool(s, p, 'cli', 'records.list', { object_type_slug: 'contacts', page_size: 100, sort_field: 'email' })) as any).items.map((r: any) => r.display_name).sort();
    };
    expect(await names(stores[0]!, a!.key)).toEqual(await names(stores[1]!, b!.key));

    const company = (await call('records.list', { object_type_slug: 'companies', page_size: 1 })).items[0].record_id;
    const around = await call('graph.query', { record_id: company, types: 'contacts', depth: 2 });
    expect(around.nodes.length).toBeGreaterThan(3);
    expect(around.nodes.slice(1).every((n: any) => n.object_type_slug === 'contacts' && n.category !== null)).toBe(true);
    const classified = await call('contacts.classify', { persist: false });
    expect(Object.values(classified.counts.by_category).filter((n) => (n as number) > 0).length).toBeGreaterThan(2);
    // Emails and meetings are signals: some contacts are warmed by them, and the stored reasons carry them.
    const signals = new Set(classified.items.flatMap((i: any) => i.reasons.map((r: any) => r.signal)));
    expect([...signals]).toEqual(expect.arrayContaining(['emails', 'meetings', 'notes']));
    const emails = await call('email.list', { page_size: 100 });
    expect(emails.total).toBe(60);
    expect(emails.items.every((e: any) => e.status === 'stored' && e.reason === SEED_EMAIL_REASON && e.record_ids.length === 1)).toBe(true);
    const meetings = (await call('meetings.list', { page_size: 100 })).items;
    const now = new Date().toISOString();
    expect(meetings.some((m: any) => m.starts_at < now)).toBe(true);
    expect(meetings.some((m: any) => m.starts_at > now)).toBe(true);
    expect(meetings.every((m: any) => m.attendees.some((x: any) => x.record_id !== null))).toBe(true);
    const summary = await call('analytics.summary', {});
    expect(summary.activity_last_30_days.emails).toBeGreaterThan(0);
    expect(summary.activity_last_30_days.meetings).toBeGreaterThan(0);
    const investors = await call('graph.query', { record_id: company, categories: 'investor,customer', depth: 4, limit: 1000 });
    expect(investors.nodes.length).toBeGreaterThan(1);
    const far = investors.nodes.at(-1);
    const { paths } = await call('graph.path', { from_record_id: company, to_record_id: far.record_id, max_depth: 6 });
    expect(paths[0].length).toBe(far.depth);
    for (const s of stores) await s.close();
  });

  it('runs from the command line and prints the workspace, a key and the counts', async () => {
    const bin = join(import.meta.dirname, '..', '..', 'gateway', 'cli.ts');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', LOADER, bin, 'seed', 'demo', '--scale', '0.02', '--json'], {
      env: { ...process.env, DATA_DIR: join(dir, 'cli'), LOG_LEVEL: 'silent' },
    });
    const out = JSON.parse(stdout);
    expect(out.workspace_id).toMatch(/^ws_/);
    expect(out.key).toMatch(/^crm_live_/);
    expect(out.counts).toMatchObject({ companies: 6, contacts: 60 });
  }, 60_000);
});

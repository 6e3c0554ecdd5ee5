import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '../../src/domain/comms/secrets.ts';
import { configureComms } from '../../src/domain/comms/settings.ts';
import { addUser, createKey, createWorkspace } from '../../src/domain/services/settings.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';
import { exportToFile, importFromFile } from '../../src/store/transfer.ts';
import { authenticate } from '../../gateway/auth/principal.ts';
import { invokeTool } from '../../gateway/tools/invoke.ts';

const dir = mkdtempSync(join(tmpdir(), 'crm-transfer-comms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = Buffer.alloc(32, 3);
const SECRET = 'transfer-webhook-secret-123';

async function open(name: string): Promise<Store> {
  const store = createSqliteStore({ path: join(dir, `${name}.sqlite`) });
  await store.init();
  configureComms(store, { secretsKey: KEY, allowPrivateNetworks: true });
  return store;
}

describe('crm export / crm import of communications', () => {
  it('round-trips emails, messages, meetings, tickets, integrations and usage, with secrets still encrypted', async () => {
    const a = await open('a');
    const ws = await createWorkspace(a, { name: 'Comms', plan: 'pro', trialDays: null });
    const owner = await addUser(a, { workspace_id: ws.id, email: 'owner@comms.test', role: 'owner' });
    const { key } = await createKey(a, { workspace_id: ws.id, user_id: owner.id, name: 'k', scopes: [], prefix: 'crm' });
    const principal = await authenticate(a, `Bearer ${key}`, 'crm');
    const call = (tool: string, params: unknown) => invokeTool(a, principal, 'cli', tool, params) as Promise<any>;
    const ada = await call('records.create', { object_type_slug: 'contacts', data: { name: 'Ada' } });
    await call('email.send', { to: 'ada@example.com', subject: 'Hi', body: 'Hello', record_ids: [ada.record_id] });
    await call('messages.send', { channel: 'internal', body: 'Note to team', record_ids: [ada.record_id] });
    await call('meetings.create', { title: 'Demo', starts_at: '2027-01-01T10:00:00Z', ends_at: '2027-01-01T11:00:00Z', attendees: [{ record_id: ada.record_id }] });
    await call('support.create_ticket', { subject: 'Help', body: 'Please' });
    const hook = await call('integrations.connect', { provider: 'webhook', config: { url: 'http://127.0.0.1:9/hook', events: ['*'], secret: SECRET } });
    await a.addUsage([{ workspace_id: ws.id, period: '2026-11', style: 'mcp', count: 7 }]);

    const fileA = join(dir, 'a.jsonl');
    const rows = await exportToFile(a, ws.id, fileA);
    const text = readFileSync(fileA, 'utf8');
    expect(text).not.toContain(SECRET);
    const kinds = text.trim().split('\n').slice(1).map((l) => JSON.parse(l));
    expect(kinds.filter((r) => r.kind === 'comm').map((r) => r.row.kind).sort()).toEqual(['email', 'integration', 'meeting', 'message', 'ticket']);
    expect(kinds.filter((r) => r.kind === 'usage')).toHaveLength(1);

    const b = await open('b');
    expect((await importFromFile(b, fileA)).rows).toBe(rows);
    const fileB = join(dir, 'b.jsonl');
    await exportToFile(b, ws.id, fileB);
    expect(readFileSync(fileB, 'utf8')).toBe(text);

    const moved = (await b.getComm(ws.id, 'integration', hook.integration_id))!;
    expect(decryptSecret(KEY, (moved.data.secrets as { secret: string }).secret, moved.id)).toBe(SECRET);
    expect((await b.listComms(ws.id, { kind: 'email', record_id: ada.record_id, offset: 0, limit: 10 })).total).toBe(1);
    expect(await b.getUsage(ws.id, '2026-11')).toEqual({ mcp: 7 });
    await a.close();
    await b.close();
  });
});

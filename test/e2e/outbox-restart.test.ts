import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../gateway/config.ts';
import { startServer } from '../../gateway/server.ts';
import { addUser, createKey, createWorkspace } from '../../src/domain/services/settings.ts';
import { eventually, startSmtp } from './loopback.ts';

const dir = mkdtempSync(join(tmpdir(), 'crm-outbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the email outbox across a restart', () => {
  it('sends an email queued before the server stopped once the next server starts', async () => {
    const smtp = await startSmtp();
    const env = { DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent', SMTP_URL: smtp.url };
    // The first server never polls in time: the email stays queued when it stops.
    const first = await startServer(loadConfig({ ...env, COMMS_POLL_MS: '60000' }));
    const ws = await createWorkspace(first.store, { name: 'Restart', plan: 'pro', trialDays: null });
    const owner = await addUser(first.store, { workspace_id: ws.id, email: 'owner@restart.test', role: 'owner' });
    const { key } = await createKey(first.store, { workspace_id: ws.id, user_id: owner.id, name: 'k', scopes: [], prefix: 'crm' });
    const res = await fetch(`${first.url}/v1/email/send`, {
      method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ to: 'later@example.com', subject: 'Survives restarts', body: 'hello' }),
    });
    const email = await res.json();
    expect(email.status).toBe('queued');
    await first.close();
    expect(smtp.mails).toEqual([]);

    const second = await startServer(loadConfig({ ...env, COMMS_POLL_MS: '30' }));
    try {
      const sent = await eventually(async () => {
        const got = await second.store.getComm(ws.id, 'email', email.email_id);
        return got?.status === 'sent' ? got : undefined;
      });
      expect(sent.attempts).toBe(1);
      expect(smtp.mails.map((m) => m.to)).toEqual([['later@example.com']]);
    } finally {
      await second.close();
      await smtp.close();
    }
  });
});

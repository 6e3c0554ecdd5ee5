import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'crm-cli-'));
const bin = new URL('../../bin/crm.js', import.meta.url).pathname;

async function crm(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env: { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent' } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const json = async (...args: string[]) => {
  const out = await crm(...args, '--json');
  if (out.code !== 0) throw new Error(`crm ${args.join(' ')} failed (${out.code}): ${out.stderr}`);
  return JSON.parse(out.stdout);
};

afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Each step spawns a fresh `crm` process; under a loaded CI machine that takes seconds.
describe('the crm command line', { timeout: 90_000 }, () => {
  it('creates a workspace, a member and a key, calls a tool with it, lists, revokes, and applies billing', async () => {
    const { workspace_id } = await json('workspace', 'create', '--name', 'Acme Inc');
    expect(workspace_id).toMatch(/^ws_/);
    const { user_id } = await json('user', 'add', '--workspace', workspace_id, '--email', 'Ops@Acme.test', '--role', 'admin');
    expect(user_id).toMatch(/^usr_/);
    const { key_id, key } = await json('keys', 'create', '--workspace', workspace_id, '--user', user_id, '--name', 'script', '--scopes', 'records,objects');
    expect(key).toMatch(/^crm_live_/);

    const created = await json('call', 'records.create', JSON.stringify({ object_type_slug: 'companies', data: { name: 'From the CLI' } }), '--key', key);
    expect(created).toMatchObject({ object_type_slug: 'companies', data: { name: 'From the CLI' }, created_by: user_id });

    const { items } = await json('keys', 'list', '--workspace', workspace_id);
    expect(items).toEqual([expect.objectContaining({ key_id, name: 'script', scopes: ['records', 'objects'], last_four: key.slice(-4), revoked_at: null })]);
    expect(JSON.stringify(items)).not.toContain(key);

    await json('billing', 'set', '--workspace', workspace_id, '--trial-ends', '2020-01-01T00:00:00Z');
    const lapsed = await crm('call', 'objects.list', '--key', key, '--json');
    expect(lapsed.code).toBe(1);
    expect(JSON.parse(lapsed.stderr)).toMatchObject({ code: 'subscription_required' });
    expect(await json('billing', 'set', '--workspace', workspace_id, '--plan', 'pro')).toMatchObject({ plan: 'pro' });
    expect((await json('call', 'objects.list', '--key', key)).total).toBe(3);

    expect(await json('keys', 'revoke', '--key-id', key_id)).toMatchObject({ key_id, revoked_at: expect.any(String) });
    const revoked = await crm('call', 'objects.list', '--key', key, '--json');
    expect(JSON.parse(revoked.stderr)).toMatchObject({ code: 'unauthorized' });
  });

  it('serve on an empty data directory creates a workspace and prints a working key, and stops on SIGTERM', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'crm-serve-'));
    const child = spawn(process.execPath, [bin, 'serve'], { env: { ...process.env, DATA_DIR: fresh, PORT: '0', LOG_LEVEL: 'silent' } });
    try {
      let out = '';
      const { url, key } = await new Promise<{ url: string; key: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no key printed:\n${out}`)), 15_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const url = /serving on (http:\/\/\S+)/.exec(out)?.[1];
          const key = /export CRM_API_KEY=(\S+)/.exec(out)?.[1];
          if (url && key) {
            clearTimeout(timer);
            resolve({ url, key });
          }
        });
      });
      const res = await fetch(`${url}/v1/objects/list`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(200);
      expect((await res.json()).items.map((t: { slug: string }) => t.slug)).toEqual(['companies', 'contacts', 'deals']);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('explains usage with exit code 2 and names a bad role', async () => {
    expect((await crm('frobnicate')).code).toBe(2);
    const bad = await crm('user', 'add', '--workspace', 'ws_x', '--email', 'a@b.co', '--role', 'admn', '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr)).toMatchObject({ code: 'validation_error', details: { param: 'role', suggestion: 'admin' } });
  });

  it('rejects a bad configuration value with a message naming the variable', async () => {
    const out = await run(process.execPath, [bin, 'keys', 'list', '--workspace', 'x'], { env: { ...process.env, DATA_DIR: dir, PORT: 'eighty' } })
      .catch((e: { code: number; stderr: string }) => e);
    expect((out as { code: number }).code).toBe(2);
    expect((out as { stderr: string }).stderr).toContain('PORT');
  });
});

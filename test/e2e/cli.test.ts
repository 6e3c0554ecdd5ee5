import Database from 'better-sqlite3';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';
import { callTool, STYLES, type Harness } from './harness.ts';

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
    // A blank plan clears the plan, as on /graphql: it must not read as a paid one.
    expect(await json('billing', 'set', '--workspace', workspace_id, '--plan', ' ')).toMatchObject({ plan: null });
    expect(JSON.parse((await crm('call', 'objects.list', '--key', key, '--json')).stderr)).toMatchObject({ code: 'subscription_required' });
    expect(JSON.parse((await crm('billing', 'set', '--workspace', workspace_id, '--plan', 'p'.repeat(65), '--json')).stderr))
      .toMatchObject({ code: 'validation_error', details: { param: 'plan' } });
    expect(await json('billing', 'set', '--workspace', workspace_id, '--plan', ' pro ')).toMatchObject({ plan: 'pro' });
    expect((await json('call', 'objects.list', '--key', key)).total).toBe(3);

    expect(await json('keys', 'revoke', '--key-id', key_id)).toMatchObject({ key_id, revoked_at: expect.any(String) });
    const revoked = await crm('call', 'objects.list', '--key', key, '--json');
    expect(JSON.parse(revoked.stderr)).toMatchObject({ code: 'unauthorized' });
  });

  it('serve on an empty data directory creates a workspace and prints a working key, and stops on SIGTERM', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'crm-serve-'));
    // An option before the command: the server must keep running all the same.
    const child = spawn(process.execPath, [bin, '--owner-email', 'boss@example.com', 'serve'], { env: { ...process.env, DATA_DIR: fresh, PORT: '0', LOG_LEVEL: 'silent' } });
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

  it('refuses a first start with an --owner-email that is no email before it writes anything', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'crm-serve-'));
    try {
      const freshEnv = { ...process.env, DATA_DIR: fresh, PORT: '0', LOG_LEVEL: 'silent' };
      const failed = await run(process.execPath, [bin, 'serve', '--owner-email', 'notanemail'], { env: freshEnv }).catch((e: { code: number; stderr: string }) => e);
      expect((failed as { code: number }).code).toBe(1);
      expect((failed as { stderr: string }).stderr).toContain('owner-email "notanemail" is not an email address');
      const store = createSqliteStore({ path: join(fresh, 'crm.sqlite') });
      await store.init();
      expect(await store.listWorkspaces().finally(() => store.close())).toEqual([]);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('leaves no workspace behind when a first start cannot listen, so the next start prints a key', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'crm-taken-'));
    const taken = createNetServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as AddressInfo).port);
    try {
      const env = { ...process.env, DATA_DIR: fresh, PORT: port, LOG_LEVEL: 'silent' };
      const failed = await run(process.execPath, [bin, 'serve'], { env }).catch((e: { code: number; stderr: string }) => e);
      expect((failed as { code: number }).code).toBe(1);
      expect((failed as { stderr: string }).stderr).toContain('EADDRINUSE');
      const store = createSqliteStore({ path: join(fresh, 'crm.sqlite') });
      await store.init();
      expect(await store.listWorkspaces().finally(() => store.close())).toEqual([]);
      const next = await serveUntil(spawn(process.execPath, [bin, 'serve'], { env: { ...env, PORT: '0' } }), /export CRM_API_KEY=\S+/);
      expect(next).toContain('First start: created workspace');
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('applies plan changes and a revocation made by other processes while the server runs to the next call, in every style', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'crm-serve-'));
    const child = spawn(process.execPath, [bin, 'serve'], { env: { ...process.env, DATA_DIR: fresh, PORT: '0', LOG_LEVEL: 'silent' } });
    // Another process on the same data directory, as an operator would run it beside the server.
    const cli = async (...args: string[]) => {
      const { stdout } = await run(process.execPath, [bin, ...args, '--json'], { env: { ...process.env, DATA_DIR: fresh, LOG_LEVEL: 'silent' } });
      return JSON.parse(stdout);
    };
    try {
      let out = '';
      const { url, key, workspace } = await new Promise<{ url: string; key: string; workspace: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no key printed:\n${out}`)), 15_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const url = /serving on (http:\/\/\S+)/.exec(out)?.[1];
          const key = /export CRM_API_KEY=(\S+)/.exec(out)?.[1];
          const workspace = /created workspace (ws_\w+)/.exec(out)?.[1];
          if (url && key && workspace) {
            clearTimeout(timer);
            resolve({ url, key, workspace });
          }
        });
      });
      const server = { url, config: { bridgeShape: 'envelope' } } as Harness;
      const outcomes = () => Promise.all(STYLES.map((style) => callTool(server, style, key, 'objects.list', {})));
      // Twice: the second call of each style may be answered from what the first read.
      for (let i = 0; i < 2; i++) expect((await outcomes()).map((o) => o.ok)).toEqual([true, true, true]);

      // The first start's workspace has a plan: its trial end matters once the plan is cleared.
      await cli('billing', 'set', '--workspace', workspace, '--trial-ends', '2020-01-01T00:00:00Z');
      await cli('billing', 'set', '--workspace', workspace, '--plan', 'none');
      expect(await outcomes()).toEqual(STYLES.map(() => expect.objectContaining({ ok: false, status: 403, code: 'subscription_required' })));
      await cli('billing', 'set', '--workspace', workspace, '--plan', 'pro');
      expect((await outcomes()).map((o) => o.ok)).toEqual([true, true, true]);

      // Another process's commit with nothing written by the server in between: its own writes
      // (usage counts, flushed a second after a call; a key's last use, once a minute) would
      // make it read afresh anyway, so let them settle, then change the plan between two calls.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      for (let i = 0; i < 2; i++) expect((await outcomes()).map((o) => o.ok)).toEqual([true, true, true]);
      const other = new Database(join(fresh, 'crm.sqlite'));
      other.prepare('UPDATE workspaces SET plan = NULL WHERE id = ?').run(workspace);
      other.close();
      expect((await outcomes()).map((o) => o.status)).toEqual([403, 403, 403]);

      const { items } = await cli('keys', 'list', '--workspace', workspace);
      await cli('keys', 'revoke', '--key-id', items[0].key_id);
      expect((await outcomes()).map((o) => o.status)).toEqual([401, 401, 401]);
    } finally {
      child.kill('SIGKILL');
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('explains usage with exit code 2 and names a bad role', async () => {
    expect((await crm('frobnicate')).code).toBe(2);
    expect((await crm()).code).toBe(2);
    // An unquoted JSON split by the shell would otherwise run with its first piece alone.
    const split = await crm('call', 'objects.list', '{"a":', '1}', '--key', 'crm_live_x');
    expect([split.code, split.stderr]).toEqual([2, expect.stringContaining('crm call takes one JSON object of parameters; also given: "1}"')]);
    // Asked for, the usage goes to stdout with exit code 0, so `crm --help | less` shows it.
    for (const args of [['--help'], ['-h'], ['help'], ['keys', 'create', '--help']]) {
      const help = await crm(...args);
      expect([args.join(' '), help.code, help.stderr]).toEqual([args.join(' '), 0, '']);
      expect(help.stdout).toContain('crm keys create --workspace W');
    }
    const bad = await crm('user', 'add', '--workspace', 'ws_x', '--email', 'a@b.co', '--role', 'admn', '--json');
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr)).toMatchObject({ code: 'validation_error', details: { param: 'role', suggestion: 'admin' } });
    // A trial length JavaScript cannot date, or none at all, is a usage error, not a stack trace or a lapsed trial.
    for (const days of ['100000000', '', '1.5', '-1']) {
      const out = await crm('workspace', 'create', '--name', 'Trial', `--trial-days=${days}`, '--json');
      expect([days, out.code]).toEqual([days, 2]);
      expect(out.stderr).toContain('--trial-days must be a whole number of days');
    }
    // A plan is read as billing set reads it: blank is none, control characters are refused.
    expect(await json('workspace', 'create', '--name', 'Blank plan', '--plan', ' ', '--trial-days', '0')).toMatchObject({ plan: null });
    const controlled = await crm('workspace', 'create', '--name', 'Odd plan', '--plan', 'a\u0001b', '--json');
    expect([controlled.code, JSON.parse(controlled.stderr)]).toEqual([1, expect.objectContaining({ code: 'validation_error', details: expect.objectContaining({ param: 'plan' }) })]);
  });

  it('rejects a bad configuration value with a message naming the variable', async () => {
    const out = await run(process.execPath, [bin, 'keys', 'list', '--workspace', 'x'], { env: { ...process.env, DATA_DIR: dir, PORT: 'eighty' } })
      .catch((e: { code: number; stderr: string }) => e);
    expect((out as { code: number }).code).toBe(2);
    expect((out as { stderr: string }).stderr).toContain('PORT');
  });

  it('lists a workspace\'s users and creates a key for its Owner when --user is left out', async () => {
    const { workspace_id } = await json('workspace', 'create', '--name', 'Owned');
    const owner = await json('user', 'add', '--workspace', workspace_id, '--email', 'boss@owned.test', '--role', 'owner');
    await json('user', 'add', '--workspace', workspace_id, '--email', 'dev@owned.test', '--role', 'member');
    const { items } = await json('users', 'list', '--workspace', workspace_id);
    expect(items).toEqual([
      expect.objectContaining({ user_id: owner.user_id, email: 'boss@owned.test', role: 'owner' }),
      expect.objectContaining({ email: 'dev@owned.test', role: 'member' }),
    ]);
    const { key_id } = await json('keys', 'create', '--workspace', workspace_id, '--name', 'spare');
    const keys = (await json('keys', 'list', '--workspace', workspace_id)).items;
    expect(keys).toEqual([expect.objectContaining({ key_id, user_id: owner.user_id })]);

    // An empty --scopes (an unset shell variable) would be a key for every tool: refused.
    for (const scopes of ['', ' , ']) {
      const empty = await crm('keys', 'create', '--workspace', workspace_id, '--name', 'empty', '--scopes', scopes);
      expect(empty.code).toBe(2);
      expect(empty.stderr).toContain('--scopes names no scope; leave it out for a key that may call every tool');
    }
    expect((await json('keys', 'list', '--workspace', workspace_id)).items).toHaveLength(1);

    const { workspace_id: ownerless } = await json('workspace', 'create', '--name', 'Ownerless');
    const refused = await crm('keys', 'create', '--workspace', ownerless, '--name', 'k');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`workspace ${ownerless} has no Owner; pass --user`);
  });

  it('names the store it opened when it finds no workspace or key there', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'crm-empty-'));
    try {
      const env = { ...process.env, DATA_DIR: empty, LOG_LEVEL: 'silent' };
      const fail = (args: string[]) => run(process.execPath, [bin, ...args], { env }).catch((e: { code: number; stderr: string }) => e) as Promise<{ code: number; stderr: string }>;
      const noWs = await fail(['keys', 'list', '--workspace', 'ws_01M80M9R1HS9S9FP9P9YQ048KD']);
      expect(noWs.code).toBe(1);
      expect(noWs.stderr).toContain(`this command opened the sqlite at ${join(empty, 'crm.sqlite')}`);
      expect(noWs.stderr).toContain('set DATA_DIR');
      const noKey = await fail(['call', 'objects.list', '--key', 'crm_live_unknown']);
      expect(noKey.stderr).toMatch(/unauthorized[\s\S]*this command opened the sqlite at/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('takes the Owner\'s email on a first start and, on a restart, prints the command that makes a new key', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'crm-owner-'));
    const env = { ...process.env, DATA_DIR: fresh, PORT: '0', LOG_LEVEL: 'silent' };
    try {
      const first = await serveUntil(spawn(process.execPath, [bin, 'serve', '--owner-email', 'Me@Company.test'], { env }), /export CRM_API_KEY=\S+/);
      expect(first).toContain('with its Owner me@company.test');
      const again = await serveUntil(spawn(process.execPath, [bin, 'serve'], { env }), /crm keys create [^\n]+/);
      const command = /crm (keys create --workspace (ws_\w+) --name "new key")/.exec(again);
      expect(command, again).not.toBeNull();
      expect(again).not.toContain('CRM_API_KEY');
      const made = await run(process.execPath, [bin, 'keys', 'create', '--workspace', command![2]!, '--name', 'new key', '--json'], { env });
      expect(JSON.parse(made.stdout).key).toMatch(/^crm_live_/);
      const { stdout } = await run(process.execPath, [bin, 'users', 'list', '--workspace', command![2]!, '--json'], { env });
      expect(JSON.parse(stdout).items).toEqual([expect.objectContaining({ email: 'me@company.test', role: 'owner' })]);

      const envOwner = mkdtempSync(join(tmpdir(), 'crm-owner-env-'));
      try {
        const byEnv = await serveUntil(spawn(process.execPath, [bin, 'serve'], { env: { ...env, DATA_DIR: envOwner, OWNER_EMAIL: 'env@company.test' } }), /export CRM_API_KEY=\S+/);
        expect(byEnv).toContain('with its Owner env@company.test');
      } finally {
        rmSync(envOwner, { recursive: true, force: true });
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('refuses a file it cannot read or write in one line naming the path, as --json when asked, with exit code 1', async () => {
    const { workspace_id } = await json('workspace', 'create', '--name', 'Files');
    await json('user', 'add', '--workspace', workspace_id, '--email', 'o@files.test', '--role', 'owner');
    const missing = join(dir, 'nofile.csv');
    const nowhere = join(dir, 'no', 'such', 'dir', 'x.jsonl');
    const cases: Array<{ args: string[]; message: string; param: string }> = [
      { args: ['import-csv', missing, '--workspace', workspace_id, '--object', 'contacts'], message: `cannot read the CSV file "${missing}": it does not exist`, param: 'file' },
      { args: ['import-csv', dir, '--workspace', workspace_id, '--object', 'contacts'], message: `cannot read the CSV file "${dir}": it is a directory, not a file`, param: 'file' },
      { args: ['export', '--workspace', workspace_id, '--out', nowhere], message: `cannot write the export file "${nowhere}": its directory "${join(dir, 'no', 'such', 'dir')}" does not exist`, param: 'out' },
      { args: ['export', '--workspace', workspace_id, '--out', dir], message: `cannot write the export file "${dir}": it is a directory, not a file`, param: 'out' },
      { args: ['import', '--file', join(dir, 'nofile.jsonl')], message: `cannot read the export file "${join(dir, 'nofile.jsonl')}": it does not exist`, param: 'file' },
      { args: ['import', '--file', dir], message: `cannot read the export file "${dir}": it is a directory, not a file`, param: 'file' },
    ];
    for (const { args, message, param } of cases) {
      const text = await crm(...args);
      expect([args.join(' '), text.code, text.stderr]).toEqual([args.join(' '), 1, `crm: validation_error: ${message}\n`]);
      const asJson = await crm(...args, '--json');
      expect(asJson.code).toBe(1);
      expect(JSON.parse(asJson.stderr)).toEqual({ error: message, code: 'validation_error', details: { param, rule: expect.stringMatching(/^(readable|writable)$/) } });
    }
  });

  it('refuses a CSV import whose rejects file cannot be written before importing any row', async () => {
    const { workspace_id } = await json('workspace', 'create', '--name', 'Rejects');
    await json('user', 'add', '--workspace', workspace_id, '--email', 'o@rejects.test', '--role', 'owner');
    const file = join(dir, 'blocked.csv');
    writeFileSync(file, 'name,email\nOne,one@example.com\nTwo,not-mail\n');
    mkdirSync(join(dir, 'blocked.rejects.csv'));
    const out = await crm('import-csv', file, '--workspace', workspace_id, '--object', 'contacts');
    expect([out.code, out.stderr]).toEqual([1, `crm: validation_error: cannot write the rejects file beside the CSV file "${join(dir, 'blocked.rejects.csv')}": it is a directory, not a file\n`]);
    const listed = await json('call', 'records.list', JSON.stringify({ object_type_slug: 'contacts' }), '--key', (await json('keys', 'create', '--workspace', workspace_id, '--name', 'k')).key);
    expect(listed.total).toBe(0);
  });

  it('npm start runs the server as one process that a SIGTERM to npm stops', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'crm-npm-'));
    const root = new URL('../../', import.meta.url).pathname;
    const npm = spawn('npm', ['start'], { cwd: root, env: { ...process.env, DATA_DIR: fresh, PORT: '0', LOG_LEVEL: 'silent' } });
    try {
      let out = '';
      npm.stdout.on('data', (c: Buffer) => { out += c.toString(); });
      const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
      await until(() => /serving on (http:\/\/\S+)/.test(out) && out.includes('CRM_API_KEY'), () => `npm start printed:\n${out}`);
      const url = /serving on (http:\/\/\S+)/.exec(out)![1]!;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      npm.kill('SIGTERM');
      await exited;
      await until(() => out.includes('received SIGTERM'), () => `no shutdown line:\n${out}`);
      // Nothing listens any more: the server was the process npm signalled, not an orphan of a shell.
      await until(async () => (await fetch(`${url}/healthz`).then(() => 'up', () => 'down')) === 'down', () => `${url} still answers`);
    } finally {
      npm.kill('SIGKILL');
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});

/** Waits (polling, up to 20 s) for a condition; the message says what was seen instead. */
async function until(ok: () => boolean | Promise<boolean>, seen: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(seen());
}

/** Reads a `crm serve` child's output until `pattern` shows, then stops it with SIGTERM and returns the output. */
async function serveUntil(child: ReturnType<typeof spawn>, pattern: RegExp): Promise<string> {
  let out = '';
  child.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await until(() => pattern.test(out), () => `serve printed:\n${out}`);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return out;
}

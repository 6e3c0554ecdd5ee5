import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STANDARD_OBJECT_TYPES } from '../../../src/domain/standard-objects.ts';
import { Connection } from '../../../src/store/sqlite/connection.ts';
import type { Store } from '../../../src/domain/store/port.ts';
import { createSqliteStore } from '../../../src/store/sqlite/index.ts';
import { keyHolderMethods } from '../../../src/store/sqlite/key-holder.ts';
import { settingsMethods } from '../../../src/store/sqlite/settings.ts';
import { addMember, newRecord, randomHash, type Harness } from '../conformance/harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'crm-keycache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A workspace with a member and a key for them, made through a Store on `path`. */
async function keyed(path: string) {
  const setup = createSqliteStore({ path });
  await setup.init();
  const ws = await setup.createWorkspace({ name: 'Keys', objectTypes: [...STANDARD_OBJECT_TYPES] });
  const user = await addMember({ store: setup } as Harness, ws.id);
  const hash = randomHash();
  const key = await setup.createApiKey({ workspace_id: ws.id, user_id: user.id, name: 'k', scopes: ['records'], hash, last_four: 'abcd' });
  await setup.close();
  return { ws, user, hash, key };
}

/**
 * Revokes the key, promotes its user and changes the plan through `writer`, and requires `reader`
 * to see each change on its next read of the key holder.
 */
async function expectEachChangeSeen(reader: Store, writer: Store, { ws, user, hash, key }: Awaited<ReturnType<typeof keyed>>) {
  await writer.revokeApiKey(key.id);
  expect((await reader.findKeyHolder(hash))!.key.revoked_at).not.toBeNull();
  await writer.updateUserRole(ws.id, user.id, 'admin');
  expect((await reader.findKeyHolder(hash))!.user!.role).toBe('admin');
  await writer.updateWorkspace(ws.id, { plan: 'enterprise' });
  expect((await reader.findKeyHolder(hash))!.workspace!.plan).toBe('enterprise');
}

/**
 * Authentication's read of a key with its user and workspace is kept per hash (key-holder.ts) and
 * must never outlive a change: made by this connection, by another one, or by a group of writes
 * that failed to commit.
 */
describe('the SQLite key holder cache', () => {
  it('answers a repeated read from the cache, frozen, until this connection writes anything', async () => {
    const path = join(dir, 'own.sqlite');
    const made = await keyed(path);
    const { ws, hash } = made;
    const store = createSqliteStore({ path });
    await store.init();
    try {
      const first = await store.findKeyHolder(hash);
      expect(await store.findKeyHolder(hash)).toBe(first);
      expect(Object.isFrozen(first) && Object.isFrozen(first!.key) && Object.isFrozen(first!.key.scopes)).toBe(true);

      await expectEachChangeSeen(store, store, made);
      // Any write drops it, whatever it touched: the cache never has to be told.
      const held = await store.findKeyHolder(hash);
      await store.createRecord(ws.id, newRecord('companies', { name: 'Acme' }));
      const after = await store.findKeyHolder(hash);
      expect(after).not.toBe(held);
      expect(after).toEqual(held);
    } finally {
      await store.close();
    }
  });

  it('sees a revocation, a role change and a plan change made through another connection (the CLI while the server runs)', async () => {
    const path = join(dir, 'other.sqlite');
    const made = await keyed(path);
    const { ws, user, hash } = made;
    const server = createSqliteStore({ path });
    await server.init();
    const cli = createSqliteStore({ path });
    await cli.init();
    try {
      const cached = await server.findKeyHolder(hash);
      expect(await server.findKeyHolder(hash)).toBe(cached);
      await expectEachChangeSeen(server, cli, made);
      // A key made elsewhere after this hash was looked up and not found.
      const late = randomHash();
      expect(await server.findKeyHolder(late)).toBeNull();
      await cli.createApiKey({ workspace_id: ws.id, user_id: user.id, name: 'late', scopes: ['records'], hash: late, last_four: 'wxyz' });
      expect((await server.findKeyHolder(late))!.key.name).toBe('late');
    } finally {
      await cli.close();
      await server.close();
    }
  });

  it('sees each change made through another connection in the next call begun, however many calls are in flight', async () => {
    const path = join(dir, 'calls.sqlite');
    const made = await keyed(path);
    const server = createSqliteStore({ path });
    await server.init();
    const cli = createSqliteStore({ path });
    await cli.init();
    try {
      // A long call stays in flight throughout; each change below is read by a call begun after it.
      const long = server.beginCall();
      expect((await server.findKeyHolder(made.hash))!.key.revoked_at).toBeNull();
      await cli.revokeApiKey(made.key.id);
      const next = server.beginCall();
      expect((await server.findKeyHolder(made.hash))!.key.revoked_at).not.toBeNull();
      next();
      await cli.updateUserRole(made.ws.id, made.user.id, 'admin');
      const after = server.beginCall();
      expect((await server.findKeyHolder(made.hash))!.user!.role).toBe('admin');
      after();
      long();
      // No call in flight: every read checks again.
      await cli.updateWorkspace(made.ws.id, { plan: 'enterprise' });
      expect((await server.findKeyHolder(made.hash))!.workspace!.plan).toBe('enterprise');
    } finally {
      await cli.close();
      await server.close();
    }
  });

  it('drops what it kept when the store is closed and opened again (both counters start over)', async () => {
    const path = join(dir, 'reopened.sqlite');
    const { hash, key } = await keyed(path);
    const store = createSqliteStore({ path });
    await store.init();
    const other = createSqliteStore({ path });
    try {
      expect((await store.findKeyHolder(hash))!.key.revoked_at).toBeNull();
      await store.close();
      await other.init();
      await other.revokeApiKey(key.id);
      await store.init();
      expect((await store.findKeyHolder(hash))!.key.revoked_at).not.toBeNull();
    } finally {
      await other.close();
      await store.close();
    }
  });

  /**
   * A Connection of its own on a file with a workspace, a member and a key, driven without the
   * Store's wrapper: what a Store call does, step by step.
   */
  async function onConnection(name: string, steps: (c: {
    conn: Connection; newKey: (hash: string, keyName: string) => unknown; keys: ReturnType<typeof keyHolderMethods>;
  }) => Promise<void> | void): Promise<void> {
    const path = join(dir, name);
    const { ws, user } = await keyed(path);
    const conn = new Connection(path);
    conn.open();
    try {
      const settings = settingsMethods(conn);
      const newKey = (hash: string, keyName: string) =>
        settings.createApiKey({ workspace_id: ws.id, user_id: user.id, name: keyName, scopes: ['records'], hash, last_four: 'dddd' });
      await steps({ conn, newKey, keys: keyHolderMethods(conn) });
    } finally {
      await conn.close();
    }
  }

  it('forgets a key read between the calls of a group that then failed to commit', () => onConnection('lost.sqlite', async ({ conn, newKey, keys }) => {
    conn.db.exec('CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (pid INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)');
    // A deferred foreign key is checked at COMMIT: the group opens now and fails when the loop turns.
    conn.grouped(() => conn.tx(() => conn.run('INSERT INTO child (pid) VALUES (99)')), []);
    const hash = randomHash();
    conn.grouped(() => newKey(hash, 'doomed'), []);
    // Between the group's calls: the key is there, and the read may be kept.
    expect(conn.cacheable).toBe(true);
    expect(conn.grouped(() => keys.findKeyHolder(hash), [])!.key.name).toBe('doomed');
    await expect(conn.groupCommitted).rejects.toThrow(/FOREIGN KEY/);
    expect(keys.findKeyHolder(hash)).toBeNull();
  }));

  it('keeps nothing read inside a transaction body, which may still roll back', () => onConnection('body.sqlite', ({ conn, newKey, keys }) => {
    const hash = randomHash();
    expect(() => conn.tx(() => {
      newKey(hash, 'rolled back');
      expect(keys.findKeyHolder(hash)!.key.name).toBe('rolled back');
      throw new Error('abandon');
    })).toThrow('abandon');
    expect(keys.findKeyHolder(hash)).toBeNull();
  }));
});

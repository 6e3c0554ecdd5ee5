import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CrmError } from '../../../src/domain/errors.ts';
import { createSqliteStore } from '../../../src/store/sqlite/index.ts';
import { tempStore, type TempStore } from './temp-store.ts';

describe('sqlite store lifecycle', () => {
  let t: TempStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('is unavailable before init and after close, and says so in health', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    await expect(store.listWorkspaces()).rejects.toMatchObject({ code: 'unavailable' });
    expect((await store.health()).ok).toBe(false);
    await store.init();
    expect(await store.health()).toEqual({ ok: true });
    await store.close();
    await expect(store.listWorkspaces()).rejects.toBeInstanceOf(CrmError);
    expect((await store.health()).ok).toBe(false);
    await store.close();
  });

  it('creates the parent directories of the database file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'crm-sqlite-'));
    const store = createSqliteStore({ path: join(dir, 'a', 'b', 'crm.db') });
    await store.init();
    expect(await store.health()).toEqual({ ok: true });
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('rejects init with unavailable when the file is not a database', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'crm-sqlite-'));
    const path = join(dir, 'junk.db');
    await writeFile(path, 'this is not a database, just text that is long enough to have a header'.repeat(20));
    const store = createSqliteStore({ path });
    await expect(store.init()).rejects.toMatchObject({ code: 'unavailable' });
    await rm(dir, { recursive: true, force: true });
  });

  it('reports unavailable when another connection holds the write lock too long', async () => {
    t = await tempStore({ busyTimeoutMs: 50 });
    const raw = t.raw();
    raw.exec('BEGIN IMMEDIATE');
    try {
      await expect(t.store.createWorkspace({ name: 'blocked', objectTypes: [] })).rejects.toMatchObject({ code: 'unavailable' });
    } finally {
      raw.exec('ROLLBACK');
    }
    await expect(t.store.createWorkspace({ name: 'free', objectTypes: [] })).resolves.toMatchObject({ name: 'free' });
  });

  it('writes a workspace and its object types together or not at all', async () => {
    t = await tempStore();
    const twice = { slug: 'dup', name: 'Dup', fields: [] };
    await expect(t.store.createWorkspace({ name: 'broken', objectTypes: [twice, twice] })).rejects.toMatchObject({ code: 'conflict' });
    expect((await t.store.listWorkspaces()).map((w) => w.name)).not.toContain('broken');
  });
});

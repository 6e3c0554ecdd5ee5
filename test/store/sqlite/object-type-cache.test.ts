import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STANDARD_OBJECT_TYPES } from '../../../src/domain/standard-objects.ts';
import type { Store } from '../../../src/domain/store/port.ts';
import type { Workspace } from '../../../src/domain/types.ts';
import { createSqliteStore } from '../../../src/store/sqlite/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'crm-otcache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the SQLite object type cache', () => {
  /**
   * A store (the server) and a second store on the same file (the CLI while the server runs), a
   * workspace with the standard object types, and the server's view of the companies' fields.
   */
  async function serverAndCli(name: string, steps: (s: {
    server: Store; cli: Store; ws: Workspace; fields: () => Promise<string[]>;
  }) => Promise<void>): Promise<void> {
    const path = join(dir, name);
    const server = createSqliteStore({ path });
    await server.init();
    const cli = createSqliteStore({ path });
    await cli.init();
    try {
      const ws = await server.createWorkspace({ name: 'Cache', objectTypes: [...STANDARD_OBJECT_TYPES] });
      const fields = async () => (await server.getObjectType(ws.id, 'companies'))!.fields.map((f) => f.slug);
      await steps({ server, cli, ws, fields });
    } finally {
      await cli.close();
      await server.close();
    }
  }

  it('sees a field added through another connection to the same file (the CLI while the server runs)', () => serverAndCli('shared.sqlite', async ({ cli, ws, fields }) => {
    expect(await fields()).not.toContain('tier');
    await cli.addField(ws.id, 'companies', { slug: 'tier', name: 'Tier', type: 'text' });
    expect(await fields()).toContain('tier');
  }));

  it('checks for another connection\'s commits once per call begun while calls are in flight', () => serverAndCli('calls.sqlite', async ({ server, cli, ws, fields }) => {
    const first = server.beginCall();
    expect(await fields()).not.toContain('tier');
    await cli.addField(ws.id, 'companies', { slug: 'tier', name: 'Tier', type: 'text' });
    // Committed while the call runs: the call goes on with what it checked when it began...
    expect(await fields()).not.toContain('tier');
    // ...and a call begun after the commit sees it (so does the first, from then on).
    const second = server.beginCall();
    expect(await fields()).toContain('tier');
    second();
    first();
    // With no call in flight every read checks: the bracket ended, nothing is kept.
    await cli.addField(ws.id, 'companies', { slug: 'region', name: 'Region', type: 'text' });
    expect(await fields()).toContain('region');
    // Ending a call twice does not end another one.
    const third = server.beginCall();
    const fourth = server.beginCall();
    third();
    third();
    expect(await fields()).toContain('region');
    await cli.addField(ws.id, 'companies', { slug: 'segment', name: 'Segment', type: 'text' });
    expect(await fields()).not.toContain('segment');
    fourth();
    expect(await fields()).toContain('segment');
  }));

  it('drops what it kept when the store is closed and opened again (data_version starts over)', async () => {
    const path = join(dir, 'reopened.sqlite');
    const store = createSqliteStore({ path });
    await store.init();
    const ws = await store.createWorkspace({ name: 'Cache', objectTypes: [...STANDARD_OBJECT_TYPES] });
    expect((await store.getObjectType(ws.id, 'companies'))!.fields.map((f) => f.slug)).not.toContain('tier');
    await store.close();
    const cli = createSqliteStore({ path });
    await cli.init();
    await cli.addField(ws.id, 'companies', { slug: 'tier', name: 'Tier', type: 'text' });
    await cli.close();
    await store.init();
    expect((await store.getObjectType(ws.id, 'companies'))!.fields.map((f) => f.slug)).toContain('tier');
    await store.close();
  });

  it('sees its own writes at once, and an object type created after a miss', async () => {
    const store = createSqliteStore({ path: join(dir, 'own.sqlite') });
    await store.init();
    const ws = await store.createWorkspace({ name: 'Cache', objectTypes: [...STANDARD_OBJECT_TYPES] });
    expect(await store.getObjectType(ws.id, 'projects')).toBeNull();
    await store.createObjectType(ws.id, { slug: 'projects', name: 'Projects', fields: [{ slug: 'name', name: 'Name', type: 'text' }] });
    expect((await store.getObjectType(ws.id, 'projects'))!.name).toBe('Projects');
    await store.updateField(ws.id, 'projects', 'name', { archived: true });
    expect((await store.getObjectType(ws.id, 'projects'))!.fields[0]!.archived).toBe(true);
    await store.close();
  });

  it('hands out frozen object types, since requests share them', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    await store.init();
    const ws = await store.createWorkspace({ name: 'Cache', objectTypes: [...STANDARD_OBJECT_TYPES] });
    const type = (await store.getObjectType(ws.id, 'deals'))!;
    expect(Object.isFrozen(type) && Object.isFrozen(type.fields) && Object.isFrozen(type.fields[0])).toBe(true);
    await store.close();
  });
});

import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STANDARD_OBJECT_TYPES } from '../../../src/domain/standard-objects.ts';
import type { Workspace } from '../../../src/domain/types.ts';
import type { Store } from '../../../src/domain/store/port.ts';
import { createSqliteStore, type SqliteStoreOptions } from '../../../src/store/sqlite/index.ts';

/** A file-backed store in a temp directory, and a second raw connection to look inside it. */
export interface TempStore {
  dir: string;
  path: string;
  store: Store;
  /** A raw connection to the same file, opened on first use. */
  raw(): Database.Database;
  workspace(): Promise<Workspace>;
  /**
   * Runs a search in the workspace, which first writes the search rows that single writes leave
   * behind (record-index.ts, catchUpSearch): after it, the index tables hold every write.
   */
  searched(workspaceId: string): Promise<void>;
  cleanup(): Promise<void>;
}

export async function tempStore(opts: Omit<SqliteStoreOptions, 'path'> = {}): Promise<TempStore> {
  const dir = await mkdtemp(join(tmpdir(), 'crm-sqlite-'));
  const path = join(dir, 'crm.db');
  const store = createSqliteStore({ path, ...opts });
  await store.init();
  let raw: Database.Database | undefined;
  return {
    dir,
    path,
    store,
    raw: () => (raw ??= new Database(path)),
    workspace: () => store.createWorkspace({ name: 'test', objectTypes: structuredClone([...STANDARD_OBJECT_TYPES]) }),
    searched: async (workspaceId) => {
      await store.searchRecords(workspaceId, { text: 'anything', offset: 0, limit: 1 });
    },
    cleanup: async () => {
      raw?.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

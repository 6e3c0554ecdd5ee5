import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';
import { runStoreConformance } from './conformance.ts';

runStoreConformance('sqlite (temp file)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'crm-store-'));
  // A nested path, so the adapter has to create the parent directories.
  const store = createSqliteStore({ path: join(dir, 'nested', 'crm.db') });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

runStoreConformance('sqlite (:memory:)', async () => {
  const store = createSqliteStore({ path: ':memory:' });
  return { store, cleanup: () => store.close() };
});

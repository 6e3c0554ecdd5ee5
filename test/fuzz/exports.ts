import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Store } from '../../src/domain/store/port.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';
import { exportWorkspace } from '../../src/store/transfer.ts';

/**
 * A second connection to the fuzzed server's database file, to take full exports (`crm export`)
 * of a workspace between calls: a refused call must leave the export byte-identical.
 */
export interface ExportReader {
  /** The export without its usage counters (see below). */
  exportOf(workspaceId: string): Promise<string>;
  close(): Promise<void>;
}

export async function openExportReader(dataDir: string): Promise<ExportReader> {
  const store: Store = createSqliteStore({ path: join(dataDir, 'crm.sqlite') });
  await store.init();
  return {
    async exportOf(workspaceId) {
      const chunks: string[] = [];
      const sink = new Writable({ write(chunk, _enc, done) { chunks.push(String(chunk)); done(); } });
      await exportWorkspace(store, workspaceId, sink);
      // Usage counters meter every call, refused ones too (billing counts attempts), so they are
      // a part of an export a refused call is expected to change.
      // A key's last use is recorded once a minute, also on refused calls: blanked for the same reason.
      // The trailer counts the rows, usage counters among them: left out with them.
      return chunks.join('').split('\n').filter((line) => !line.startsWith('{"kind":"usage"') && !line.startsWith('{"end":"crm-export"'))
        .map((line) => (line.startsWith('{"kind":"api_key"') ? line.replace(/"last_used_at":"[^"]*"/, '"last_used_at":null') : line)).join('\n');
    },
    close: () => store.close(),
  };
}

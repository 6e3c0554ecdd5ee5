import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.ts';
import { CHECKPOINT_NICE } from '../../../src/store/sqlite/checkpointer.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/** The WAL header's checkpoint sequence number (bytes 12-15): SQLite adds one each time it starts the WAL over. */
function walSequence(path: string): number {
  const fd = openSync(path, 'r');
  try {
    const header = Buffer.alloc(16);
    return readSync(fd, header, 0, 16, 0) === 16 ? header.readUInt32BE(12) : -1;
  } finally {
    closeSync(fd);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The nice value of each thread of this process (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return []; // the thread ended while we looked
    }
  });
}

/** Companies for the bulk path, each with the given extra data. */
const companies = (count: number, extra: Record<string, unknown> = {}) => Array.from({ length: count }, (_, i) => ({
  object_type_slug: 'companies', data: { name: `Company ${i}`, ...extra }, uniques: [], refs: [], created_by: null, assignee_id: null,
}));

/** Whether the database file grew past `before` within four seconds: the checkpoint thread copied WAL frames into it. */
async function fileGrew(path: string, before: number): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    if (statSync(path).size > before) return true;
    await sleep(100);
  }
  return statSync(path).size > before;
}

describe('sqlite WAL checkpoints', () => {
  let t: TempStore | undefined;
  afterEach(async () => t?.cleanup());

  it('copies committed writes into the database file in the background, not in the writing call', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    const before = statSync(t.path).size;
    await t.store.createRecords(ws.id, companies(300, { description: 'x'.repeat(500) }));
    // 300 records fill far fewer than the 1000 WAL pages after which a commit would checkpoint
    // by itself, so only the background thread can have copied them into the file.
    expect(await fileGrew(t.path, before)).toBe(true);
  });

  it.runIf(existsSync('/proc/self/task'))('runs the checkpoint thread at a lower priority than the threads that serve calls', async () => {
    const lowered = () => threadNiceValues().filter((nice) => nice === CHECKPOINT_NICE).length;
    const before = lowered();
    t = await tempStore();
    let after = lowered();
    for (let i = 0; i < 40 && after === before; i++) {
      await sleep(50);
      after = lowered();
    }
    expect(after).toBe(before + 1);
    expect(threadNiceValues().filter((nice) => nice === 0).length).toBeGreaterThan(0);
  });

  it('starts the WAL over under a stream of writes that never lets a checkpoint catch up, and every write succeeds', async () => {
    // 256 frames (1 MB) instead of 1 GB, so the writes cross the bound within a checkpoint pass.
    t = await tempStore({ walRestartFrames: 256 });
    const ws = await t.workspace();
    const wal = `${t.path}-wal`;
    let written = 0;
    let restarts = 0;
    let sequence = walSequence(wal);
    const deadline = Date.now() + 8_000;
    // Four callers at once, each writing record after record: every createRecord is a
    // transaction that reads (the object type, the claims) before it writes, the kind a restart
    // under way would fail with SQLITE_BUSY rather than make wait.
    await Promise.all(Array.from({ length: 4 }, async (_, caller) => {
      for (let i = 0; restarts < 3 && Date.now() < deadline; i++) {
        await t!.store.createRecord(ws.id, { ...companies(1, { description: 'x'.repeat(2000), rank: i })[0]!, id: newId('record') });
        written++;
        const now = walSequence(wal);
        if (now !== sequence) restarts++;
        sequence = now;
        // A server turns its event loop between calls (the thread's requests arrive there), as
        // setImmediate does; a chain of zero timeouts would stay in the loop's timer phase.
        if (i % 8 === caller) await new Promise((resolve) => setImmediate(resolve));
      }
    }));
    // Without the restarts the WAL only grows: no pass ever finds the writer caught up.
    expect(restarts).toBeGreaterThanOrEqual(3);
    expect(await t.store.countRecords(ws.id, 'companies')).toBe(written);
  });

  it('keeps checkpointing and starts the WAL over for a caller that never lets the event loop turn (a bulk load)', async () => {
    t = await tempStore({ walRestartFrames: 256 });
    const ws = await t.workspace();
    const wal = `${t.path}-wal`;
    let sequence = walSequence(wal);
    let restarts = 0;
    let written = 0;
    const deadline = Date.now() + 8_000;
    // One store call after another, each awaited: only microtasks run in between, so a message
    // from the checkpoint thread would not be read until the loop ends.
    while (restarts < 5 && Date.now() < deadline) {
      written += await t.store.createRecords(ws.id, companies(20, { description: 'x'.repeat(2000) }).map((c) => ({ ...c, id: newId('record') })));
      const now = walSequence(wal);
      if (now !== sequence) restarts++;
      sequence = now;
    }
    // Under a stream of writes only the thread's RESTART, granted between two calls, starts the WAL
    // over (0 restarts here when calls never grant it, and 0 when the thread stopped its passes
    // while it waited for an answer by message).
    expect(restarts).toBeGreaterThanOrEqual(5);
    expect(await t.store.countRecords(ws.id, 'companies')).toBe(written);
  });

  it('makes the next store call after an idle ask wait only for the restart, and closes at once while an ask is pending', async () => {
    t = await tempStore({ walRestartFrames: 256 });
    const ws = await t.workspace();
    const fill = () => t!.store.createRecords(ws.id, companies(30, { description: 'x'.repeat(2000) }).map((c) => ({ ...c, id: newId('record') })));
    const timed = async (work: () => Promise<unknown>): Promise<number> => {
      const started = Date.now();
      await work();
      return Date.now() - started;
    };
    await fill();
    // Idle: the thread copies every frame, finds the WAL over its bound and asks; nobody grants it
    // until the next store call, which waits for the restart (not for HOLD_LIMIT_MS, 10 s).
    await sleep(1_000);
    expect(await timed(() => t!.store.countRecords(ws.id, 'companies'))).toBeLessThan(2_000);
    // Asked again and not granted: close() neither waits for the grant nor on the thread's wait.
    await fill();
    await sleep(1_000);
    expect(await timed(() => t!.store.close())).toBeLessThan(2_000);
  });

  it('has closed the checkpoint thread\'s connection too when close() resolves, so the WAL is folded and gone', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    await t.store.createRecords(ws.id, companies(50));
    // Wait for the thread's first checkpoint: it has its connection open from then on.
    expect(await fileGrew(t.path, statSync(t.path).size)).toBe(true);
    expect(existsSync(`${t.path}-wal`)).toBe(true);
    await t.store.close();
    // The last connection to close checkpoints the WAL into the file and deletes it; a thread
    // still holding its own connection would leave it behind for whoever copies the file next.
    expect(existsSync(`${t.path}-wal`)).toBe(false);
  });
});

import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateRecordData } from '../../src/domain/fields.ts';
import { createServices, type Services } from '../../src/domain/services/context.ts';
import { addUser, createKey, createWorkspace } from '../../src/domain/services/settings.ts';
import type { ObjectType, Role } from '../../src/domain/types.ts';
import { openStore } from '../../src/store/index.ts';
import type { NewRecord, Store } from '../../src/domain/store/port.ts';
import {
  BULK_LISTS, batchPlan, Generator, GENERATOR_VERSION, PIPELINE_LIST, VIEWS, type BatchWork, type DatasetSample, type Slug,
} from './generator.ts';
import { peakRssMb, resetPeakRss } from './proc.ts';

const SEED = 20_260_131;
const KEY_PREFIX = 'crm';
const SLUGS: Slug[] = ['companies', 'contacts', 'deals'];
const MEMBERS: Array<[string, Role]> = [['owner@bench.test', 'owner'], ['admin@bench.test', 'admin'], ['ana@bench.test', 'member'], ['bo@bench.test', 'member'], ['cy@bench.test', 'member']];

/** How the dataset was loaded, kept with the cache so a cached run still reports it. */
export interface LoadStats {
  records: number;
  seconds: number;
  records_per_s: number;
  /** Seconds inside Store.createRecords alone (generation, validation and links excluded). */
  store_seconds: number;
  store_records_per_s: number;
  /** Seconds inside Store.createLinks, and the links it wrote per second. */
  links_seconds?: number;
  links_per_s?: number;
  /** CPU seconds of the process (all threads) inside createRecords and createLinks: steadier than wall time on a shared machine. */
  records_cpu_seconds?: number;
  links_cpu_seconds?: number;
  batches: number;
  peak_rss_mb: number | null;
  /** Seconds writing the lists, entries, views, notes and tasks through the domain services (not in `seconds`). */
  work_seconds?: number;
}

export interface Dataset {
  size: number;
  /** The cached store; never served directly (see runCopy). */
  dir: string;
  workspace_id: string;
  owner_id: string;
  key: string;
  counts: Record<Slug, number>;
  /** Links written besides the field references. */
  links: number;
  /** Work data written through the domain services (each write also writes its timeline event). */
  work?: { lists: number; entries: number; views: number; notes: number; tasks: number };
  sample: DatasetSample;
  load: LoadStats;
}

/** The cache key: size, generator version and the store schema (a migration change re-generates). */
function cacheName(size: number): string {
  const schema = createHash('sha256').update(readFileSync(new URL('../../src/store/sqlite/migrations.ts', import.meta.url))).digest('hex');
  return `${size}-g${GENERATOR_VERSION}-s${schema.slice(0, 8)}`;
}

/**
 * The dataset of `size` records under `root` (bench/.data), generated and bulk-loaded on first use,
 * then cached; `meta.json` is written last, so an interrupted load is redone.
 */
export async function ensureDataset(root: string, size: number, log: (line: string) => void): Promise<Dataset & { cached: boolean }> {
  const dir = join(root, cacheName(size));
  const metaPath = join(dir, 'meta.json');
  if (existsSync(metaPath)) {
    // A cache written before the loader waited for the checkpoint thread can still hold its WAL.
    foldWal(join(dir, 'crm.sqlite'));
    return { ...(JSON.parse(readFileSync(metaPath, 'utf8')) as Dataset), dir, cached: true };
  }
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
  const store = await openStore({ store: 'sqlite', dataDir: tmp, neo4j: null });
  try {
    const dataset = await load(store, size, log);
    await store.close();
    foldWal(join(tmp, 'crm.sqlite'));
    renameSync(tmp, dir);
    const full: Dataset = { ...dataset, dir };
    writeFileSync(metaPath, `${JSON.stringify(full)}\n`);
    return { ...full, cached: false };
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Copies the load's WAL into the database file and empties it. One long load never gives SQLite
 * a moment to start its WAL over (see the checkpoint notes in docs/decisions.md), and a 100k
 * dataset left a 3 GB WAL that every gateway run then copied.
 */
function foldWal(path: string): void {
  const db = new Database(path);
  try {
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; log: number; checkpointed: number }>;
    if (result?.busy) throw new Error(`could not empty the WAL of ${path}: another connection held it (${JSON.stringify(result)})`);
  } finally {
    db.close();
  }
  const wal = `${path}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) throw new Error(`${wal} is still ${statSync(wal).size} bytes after a TRUNCATE checkpoint`);
}

async function load(store: Store, size: number, log: (line: string) => void): Promise<Omit<Dataset, 'dir'>> {
  resetPeakRss(process.pid);
  const ws = await createWorkspace(store, { name: `Bench ${size}`, plan: 'pro', trialDays: null });
  const users: string[] = [];
  for (const [email, role] of MEMBERS) users.push((await addUser(store, { workspace_id: ws.id, email, role })).id);
  const owner = users[0]!;
  const { key } = await createKey(store, { workspace_id: ws.id, user_id: owner, name: 'bench', scopes: [], prefix: KEY_PREFIX });
  const types = new Map<string, ObjectType>();
  for (const slug of SLUGS) types.set(slug, (await store.getObjectType(ws.id, slug))!);

  const generator = new Generator(SEED, users);
  const services = createServices(store, {
    workspace_id: ws.id, user_id: owner, role: 'owner', key_id: null, scopes: [], via: 'cli', tool: 'bench.dataset', plan: ws.plan, trial_ends_at: null,
  });
  const workStarted = performance.now();
  const work = await startWork(services, generator.sample);
  const workStartMs = performance.now() - workStarted;
  let workMs = 0;
  const plan = batchPlan(size);
  const counts: Record<Slug, number> = { companies: 0, contacts: 0, deals: 0 };
  const started = performance.now();
  let storeMs = 0;
  let linksMs = 0;
  let recordsCpu = 0;
  let linksCpu = 0;
  let relations = 0;
  let done = 0;
  let nextReport = 0.1;
  for (const batch of plan) {
    const raws = generator.batch(batch);
    const inputs: NewRecord[] = raws.map((raw, i) => {
      const valid = validateRecordData(types.get(raw.object_type_slug)!, raw.data);
      counts[raw.object_type_slug] += 1;
      return {
        id: raw.id, object_type_slug: raw.object_type_slug, data: valid.data, uniques: valid.uniques, refs: valid.refs,
        created_by: owner, assignee_id: users[(done + i) % users.length]!,
      };
    });
    const t = performance.now();
    const tc = cpuSeconds();
    await store.createRecords(ws.id, inputs);
    const l = performance.now();
    const lc = cpuSeconds();
    storeMs += l - t;
    recordsCpu += lc - tc;
    const batchWork = generator.work(raws);
    // All of a batch's links in one call (one transaction): committing every 5,000 links rewrote
    // the same relations_by_to pages to the WAL again and again (links 1.4x faster per CPU second at 20k).
    relations += await store.createLinks(ws.id, generator.links(inputs.length).map((l) => ({ ...l, properties: {}, created_by: owner })));
    linksMs += performance.now() - l;
    linksCpu += cpuSeconds() - lc;
    const w = performance.now();
    await writeWork(services, generator.sample.pipelineListId!, batchWork, work);
    workMs += performance.now() - w;
    done += inputs.length;
    if (done / size >= nextReport) {
      log(`  loaded ${done.toLocaleString('en')} / ${size.toLocaleString('en')} records (${Math.round(done / ((performance.now() - started) / 1000)).toLocaleString('en')}/s)`);
      nextReport += 0.1;
    }
  }
  const seconds = (performance.now() - started - workMs) / 1000;
  for (const slug of SLUGS) {
    const stored = await store.countRecords(ws.id, slug);
    if (stored !== counts[slug]) throw new Error(`dataset ${size}: ${slug} has ${stored} records, expected ${counts[slug]}`);
  }
  return {
    size, workspace_id: ws.id, owner_id: owner, key, counts, links: relations, work, sample: generator.sample,
    load: {
      records: done, seconds, records_per_s: done / seconds, store_seconds: storeMs / 1000,
      store_records_per_s: done / (storeMs / 1000), links_seconds: linksMs / 1000, links_per_s: relations / (linksMs / 1000),
      records_cpu_seconds: recordsCpu, links_cpu_seconds: linksCpu, work_seconds: (workStartMs + workMs) / 1000, batches: plan.length, peak_rss_mb: peakRssMb(process.pid),
    },
  };
}

type WorkCounts = NonNullable<Dataset['work']>;

/** The lists and views, written before the records: the pipeline, the bulk targets and the saved views. */
async function startWork(services: Services, sample: DatasetSample): Promise<WorkCounts> {
  sample.pipelineListId = (await services.lists.create(structuredClone(PIPELINE_LIST) as unknown as Parameters<Services['lists']['create']>[0])).id;
  sample.bulkListIds = [];
  for (let i = 0; i < BULK_LISTS; i++) {
    const list = await services.lists.create({
      object_type_slug: 'contacts', name: `Bench bulk target ${i + 1}`, fields: [{ slug: 'source', name: 'Source', type: 'select', config: { options: ['bench', 'import'] } }],
    });
    sample.bulkListIds.push(list.id);
  }
  sample.viewIds = [];
  for (const view of VIEWS) {
    sample.viewIds.push((await services.views.create({ ...view, filters: structuredClone(view.filters) as Record<string, unknown>, sorts: [...view.sorts], visible_fields: [...view.visible_fields] })).id);
  }
  return { lists: 1 + BULK_LISTS, entries: 0, views: VIEWS.length, notes: 0, tasks: 0 };
}

/** A batch's pipeline entries (lists.bulk_add_entry's path, 100 a call), notes and tasks, as the tools write them. */
async function writeWork(services: Services, pipelineListId: string, work: BatchWork, counts: WorkCounts): Promise<void> {
  for (const entries of chunks(work.entries, 100)) counts.entries += (await services.lists.bulkAdd({ list_id: pipelineListId, entries })).added;
  for (const note of work.notes) await services.notes.create(note);
  for (const task of work.tasks) await services.tasks.create(task);
  counts.notes += work.notes.length;
  counts.tasks += work.tasks.length;
}

function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

function* chunks<T>(items: readonly T[], size: number): IterableIterator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * A private copy of the cached store for one server run (creates must not grow the cache), made
 * afresh in `root/<name>`: two servers up at once need two names.
 */
export function runCopy(dataset: Dataset, root: string, name = 'run'): string {
  const dir = join(root, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(dataset.dir, dir, { recursive: true });
  return dir;
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASES, Sampler, caseName } from '../../bench/lib/cases.ts';
import { ensureDataset, type Dataset } from '../../bench/lib/dataset.ts';
import { authenticate } from '../../gateway/auth/principal.ts';
import { CATALOG } from '../../gateway/tools/index.ts';
import { actorOf, type Actor } from '../../src/domain/actor.ts';
import { eventFor } from '../../src/domain/services/events.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { createContext } from '../../src/graphql/context.ts';
import { runOperation } from '../../src/graphql/execute.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';
import { eventRow } from '../../src/store/sqlite/timeline.ts';

/**
 * V8 gives some objects a hidden class each: a literal that starts with a spread and then adds
 * keys the spread did not have (`{ ...row, extra }`), or a frozen copy of a spread. Every property
 * read of such objects then misses its inline cache and is looked up from scratch (records.get's
 * relation summaries made so cost it about a tenth of its server time). This holds every object the domain hands the
 * compiled operations of the benchmark's read cases, grouped by their keys, to a few classes per
 * group, with V8's own %HaveSameMap, on a small dataset made by the benchmark's generator.
 */
setFlagsFromString('--allow-natives-syntax');
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** How many hidden classes the objects have, counting up to `cap`. */
function classes(objects: readonly object[], cap = 20): number {
  const seen: object[] = [];
  for (const o of objects) {
    if (!seen.some((s) => sameMap(s, o))) seen.push(o);
    if (seen.length >= cap) break;
  }
  return seen.length;
}

/** Every plain object reachable from a value, grouped by its list of keys. */
function byKeys(root: unknown, groups: Map<string, object[]>): void {
  const stack = [root];
  const seen = new Set<object>();
  while (stack.length) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (!Array.isArray(value)) {
      const key = Object.keys(value).join(',');
      const group = groups.get(key);
      if (group) group.push(value);
      else groups.set(key, [value]);
    }
    for (const inner of Object.values(value)) stack.push(inner);
  }
}

/** Services whose every method's result (awaited) is also handed to `keep`. */
function watched<T extends object>(services: T, keep: (result: unknown) => void): T {
  return new Proxy(services, {
    get(target, name) {
      const service = Reflect.get(target, name) as unknown;
      if (service === null || typeof service !== 'object') return service;
      return new Proxy(service, {
        get(inner, method) {
          const fn = Reflect.get(inner, method) as unknown;
          if (typeof fn !== 'function') return fn;
          return (...args: unknown[]) => {
            const result = (fn as (...a: unknown[]) => unknown).apply(inner, args);
            if (result instanceof Promise) return result.then((value) => (keep(value), value));
            keep(result);
            return result;
          };
        },
      });
    },
  });
}

let root: string;
let store: Store;
let dataset: Dataset;
let principal: Omit<Actor, 'via' | 'tool'>;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'crm-classes-'));
  dataset = await ensureDataset(root, 1_500, () => undefined);
  store = createSqliteStore({ path: join(dataset.dir, 'crm.sqlite') });
  await store.init();
  principal = await authenticate(store, `Bearer ${dataset.key}`, dataset.key.split('_')[0]!);
}, 120_000);
afterAll(async () => {
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('objects handed to the compiled operations', () => {
  it('include an actor per call that shares one class with every other', () => {
    const actors = Array.from({ length: 30 }, (_, i) => actorOf({ ...principal, user_id: `usr_${i}` }, i % 2 ? 'rest' : 'mcp', i % 3 ? 'records.get' : null));
    expect(classes(actors)).toBe(1);
  });

  it('include no event rows of a class each on the write path', () => {
    // Every write appends its timeline events through eventRow; a class per event was an old-space object per write.
    const actor = actorOf(principal, 'rest', 'records.create');
    const rows = Array.from({ length: 30 }, (_, i) => eventRow(
      eventFor(actor, i % 2 ? 'create' : 'update', 'record', `rec_${i}`, [`rec_${i}`], i % 3 ? { name: { before: null, after: `n${i}` } } : null),
      principal.workspace_id, new Date(i).toISOString(),
    ));
    expect(classes(rows)).toBe(1);
  });

  for (const bench of CASES.filter((c) => !c.writes)) {
    it(`share a few classes per shape: ${caseName(bench)}`, async () => {
      const tool = CATALOG.get(bench.tool)!;
      const sampler = new Sampler(dataset.sample);
      const groups = new Map<string, object[]>();
      let results = 0;
      for (let i = 0; i < 25; i++) {
        const context = createContext(store, actorOf(principal, 'rest', tool.name));
        context.services = watched(context.services, (result) => {
          results++;
          byKeys(result, groups);
        });
        const params = tool.input.parse(bench.params(sampler));
        await runOperation(tool.operation.document, tool.operation.variables(params), context, { plainLeaves: tool.operation.plainLeaves });
      }
      expect(results).toBeGreaterThanOrEqual(25);
      // Records of the dataset's object types differ in their data keys, so `data` objects group
      // by type already; a few classes per group allow for optional keys and a field whose values
      // change representation (V8 moves such an object to a new class once).
      const many = [...groups].filter(([, objects]) => objects.length >= 10).map(([keys, objects]) => ({ keys, count: objects.length, classes: classes(objects) }));
      expect(many.length).toBeGreaterThan(0);
      expect(many.filter((g) => g.classes > 4)).toEqual([]);
    });
  }
});

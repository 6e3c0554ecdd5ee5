import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { isCrmError } from '../../src/domain/errors.ts';
import { createServices } from '../../src/domain/services/context.ts';
import { createWorkspace } from '../../src/domain/services/settings.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';

/**
 * A field made unique between a write's validation and its transaction: the write, validated
 * against the type without the flag, must not land unclaimed beside the value's holder. The real
 * store, with objects.update_field run from inside the write's first store call (as a call of
 * another connection would land there).
 */
let real: Store;
beforeAll(async () => {
  real = createSqliteStore({ path: ':memory:' });
  await real.init();
});
afterAll(() => real.close());

/** The store (`base`, the shared one by default), running `meanwhile` once just before the first call of `method`. */
function racing(method: 'createRecord' | 'updateRecord' | 'restoreRecord', meanwhile: () => Promise<unknown>, base: Store = real): Store {
  let ran = false;
  return new Proxy(base, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== method || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        if (!ran) {
          ran = true;
          await meanwhile();
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('a field made unique while a write is under way', () => {
  const setUp = async () => {
    const ws = await createWorkspace(real, { name: 'Race', plan: 'pro', trialDays: null });
    const actor: Actor = { workspace_id: ws.id, user_id: 'usr_x', role: 'owner', key_id: null, scopes: [], via: 'rest', tool: null, plan: 'pro', trial_ends_at: null };
    const services = createServices(real, actor);
    await services.objects.create({ slug: 'tickets', name: 'Tickets', fields: [{ slug: 'ref', name: 'Ref', type: 'text' }] });
    const holder = await services.records.create({ object_type_slug: 'tickets', data: { ref: 'SAME' } });
    const makeUnique = () => createServices(real, actor).objects.updateField('tickets', 'ref', { unique: true });
    const holders = async () => (await createServices(real, actor).records.list({ object_type_slug: 'tickets', filters: { ref: 'SAME' } })).total;
    return { actor, services, holder, makeUnique, holders };
  };
  const refusal = (error: unknown) => (isCrmError(error) ? { code: error.code, details: error.details } : error);

  it('validates a create again and refuses the taken value', async () => {
    const { actor, makeUnique, holders } = await setUp();
    const create = createServices(racing('createRecord', makeUnique), actor).records.create({ object_type_slug: 'tickets', data: { ref: 'SAME' } });
    expect(await create.then(() => null, refusal)).toMatchObject({ code: 'conflict', details: { param: 'data.ref', rule: 'unique' } });
    expect(await holders()).toBe(1);
  });

  it('validates an update again and refuses the taken value', async () => {
    const { actor, services, makeUnique, holders } = await setUp();
    const other = await services.records.create({ object_type_slug: 'tickets', data: { ref: 'OTHER' } });
    const update = createServices(racing('updateRecord', makeUnique), actor).records.update({ record_id: other.id, data: { ref: 'SAME' } });
    expect(await update.then(() => null, refusal)).toMatchObject({ code: 'conflict', details: { param: 'data.ref', rule: 'unique' } });
    expect(await holders()).toBe(1);
  });

  it('claims the value of a record it restores, and refuses the restore when the value is taken', async () => {
    const { actor, services, makeUnique, holders } = await setUp();
    const twin = await services.records.create({ object_type_slug: 'tickets', data: { ref: 'SAME' } });
    await services.records.delete(twin.id);
    const restore = createServices(racing('restoreRecord', makeUnique), actor).records.restore(twin.id);
    expect(await restore.then(() => null, refusal)).toMatchObject({ code: 'conflict', details: { param: 'record_id', rule: 'unique' } });
    expect(await holders()).toBe(1);
  });

  it('lands a write whose value is free, with its claim', async () => {
    const { actor, makeUnique } = await setUp();
    const fresh = await createServices(racing('createRecord', makeUnique), actor).records.create({ object_type_slug: 'tickets', data: { ref: 'FREE' } });
    expect(fresh.data).toEqual({ ref: 'FREE' });
    const again = createServices(real, actor).records.create({ object_type_slug: 'tickets', data: { ref: 'FREE' } });
    expect(await again.then(() => null, refusal)).toMatchObject({ code: 'conflict', details: { param: 'data.ref' } });
  });

  it('reads the type afresh when another process made the field unique during a call', async () => {
    // Two connections on one file, as two processes; the first is inside a gateway call, which
    // keeps the other connection's data_version read once per call.
    const dir = mkdtempSync(join(tmpdir(), 'crm-race-'));
    const path = join(dir, 'crm.db');
    const mine = createSqliteStore({ path });
    await mine.init();
    const theirs = createSqliteStore({ path });
    await theirs.init();
    try {
      const ws = await createWorkspace(mine, { name: 'Two', plan: 'pro', trialDays: null });
      const actor: Actor = { workspace_id: ws.id, user_id: 'usr_x', role: 'owner', key_id: null, scopes: [], via: 'rest', tool: null, plan: 'pro', trial_ends_at: null };
      await createServices(mine, actor).objects.create({ slug: 'tickets', name: 'Tickets', fields: [{ slug: 'ref', name: 'Ref', type: 'text' }] });
      await createServices(mine, actor).records.create({ object_type_slug: 'tickets', data: { ref: 'SAME' } });
      const meanwhile = () => createServices(theirs, actor).objects.updateField('tickets', 'ref', { unique: true });
      const end = mine.beginCall();
      try {
        const create = createServices(racing('createRecord', meanwhile, mine), actor).records.create({ object_type_slug: 'tickets', data: { ref: 'SAME' } });
        expect(await create.then(() => null, refusal)).toMatchObject({ code: 'conflict', details: { param: 'data.ref', rule: 'unique' } });
      } finally {
        end();
      }
      expect((await createServices(mine, actor).records.list({ object_type_slug: 'tickets', filters: { ref: 'SAME' } })).total).toBe(1);
    } finally {
      await theirs.close();
      await mine.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

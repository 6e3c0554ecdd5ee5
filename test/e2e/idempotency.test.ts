import { randomUUID } from 'node:crypto';
import { newId } from '../../src/domain/ids.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, startHarness, STYLES, type Harness, type Style } from './harness.ts';

/** `Idempotency-Key` on writes, the same over REST, the bridge and MCP. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe.each(STYLES)('idempotency keys over %s', (style: Style) => {
  const call = (tool: string, params: unknown, idem?: string, key = h.ws.owner.key) =>
    callTool(h, style, key, tool, params, idem ? { 'Idempotency-Key': idem } : {});
  const count = async (name: string) => {
    const out = await call('records.list', { object_type_slug: 'companies', filters: { name }, page_size: 100 });
    if (!out.ok) throw new Error(out.message);
    return out.result.total as number;
  };

  it('replays the first answer to a retry with the same key and creates the record once', async () => {
    const idem = randomUUID();
    const name = `Idem ${style} ${idem}`;
    const first = await call('records.create', { object_type_slug: 'companies', data: { name } }, idem);
    const second = await call('records.create', { object_type_slug: 'companies', data: { name } }, idem);
    expect(first.ok).toBe(true);
    expect({ status: second.status, result: second.ok && second.result }).toEqual({ status: first.status, result: first.ok && first.result });
    expect(await count(name)).toBe(1);
  });

  it('treats the same parameters in another key order as the same call', async () => {
    const idem = randomUUID();
    const name = `Order ${style} ${idem}`;
    const first = await call('records.create', { object_type_slug: 'companies', data: { name } }, idem);
    const second = await call('records.create', { data: { name }, object_type_slug: 'companies' }, idem);
    expect(second).toMatchObject({ ok: true, result: first.ok ? first.result : null });
  });

  it('refuses the same key with other parameters with 409 conflict naming the header', async () => {
    const idem = randomUUID();
    expect(await call('records.create', { object_type_slug: 'companies', data: { name: `A ${idem}` } }, idem)).toMatchObject({ ok: true });
    const other = await call('records.create', { object_type_slug: 'companies', data: { name: `B ${idem}` } }, idem);
    expect(other).toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'Idempotency-Key' } });
    expect(await count(`B ${idem}`)).toBe(0);
  });

  it('replays a refusal too, with its status and body', async () => {
    const idem = randomUUID();
    const params = { record_id: newId('record'), data: { name: 'x' } };
    const first = await call('records.update', params, idem);
    expect(first).toMatchObject({ ok: false, status: 404 });
    const again = await call('records.update', params, idem);
    expect({ ...again, headers: null }).toEqual({ ...first, headers: null });
  });

  it('runs concurrent duplicates once and answers them all alike', async () => {
    const idem = randomUUID();
    const name = `Concurrent ${style} ${idem}`;
    const outs = await Promise.all(Array.from({ length: 6 }, () => call('records.create', { object_type_slug: 'companies', data: { name } }, idem)));
    const ids = new Set(outs.map((o) => (o.ok ? o.result.record_id : `${o.status} ${o.code} ${o.message}`)));
    expect(ids.size).toBe(1);
    expect(outs[0]!.ok).toBe(true);
    expect(await count(name)).toBe(1);
  });

  it('keeps keys per API key: another key may use the same value for its own call', async () => {
    const idem = randomUUID();
    const a = await call('records.create', { object_type_slug: 'companies', data: { name: `Mine ${idem}` } }, idem);
    const b = await call('records.create', { object_type_slug: 'companies', data: { name: `Yours ${idem}` } }, idem, h.ws.admin.key);
    expect(a.ok && b.ok).toBe(true);
    expect(a.ok && b.ok && a.result.record_id !== b.result.record_id).toBe(true);
  });

  it('does not keep a refusal about the caller\'s role, so the key stays free for a retry', async () => {
    const idem = randomUUID();
    const first = await call('objects.create', { slug: `m_${idem.slice(0, 8)}`, name: 'M', fields: [{ slug: 'name', name: 'Name', type: 'text' }] }, idem, h.ws.member.key);
    expect(first).toMatchObject({ ok: false, status: 403, code: 'permission_denied' });
    const other = await call('objects.create', { slug: `n_${idem.slice(0, 8)}`, name: 'N', fields: [{ slug: 'name', name: 'Name', type: 'text' }] }, idem, h.ws.member.key);
    expect(other).toMatchObject({ ok: false, status: 403, code: 'permission_denied' });
  });

  it('ignores the key on a read, and refuses a malformed key naming the header', async () => {
    const idem = randomUUID();
    expect(await call('objects.list', {}, idem)).toMatchObject({ ok: true });
    expect(await call('records.list', { object_type_slug: 'companies' }, idem)).toMatchObject({ ok: true });
    const bad = await call('records.create', { object_type_slug: 'companies', data: { name: 'x' } }, 'has space');
    expect(bad).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'Idempotency-Key' } });
    expect(await call('objects.list', {}, 'has space')).toMatchObject({ ok: true });
    // Sent empty, the header is malformed too: read as absent, the write would run unprotected.
    const name = `Empty key ${style} ${randomUUID()}`;
    const empty = await callTool(h, style, h.ws.owner.key, 'records.create', { object_type_slug: 'companies', data: { name } }, { 'Idempotency-Key': '' });
    expect(empty).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'Idempotency-Key', rule: 'format' } });
    expect(await count(name)).toBe(0);
  });
});

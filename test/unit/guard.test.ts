import { describe, expect, it } from 'vitest';
import { parseJson, unmarkKey } from '../../gateway/body.ts';
import { guardParams } from '../../gateway/tools/guard.ts';
import { LIMITS } from '../../src/domain/limits.ts';

const refusal = (params: unknown) => {
  try {
    guardParams(params, 'records.list');
  } catch (err) {
    return (err as { details?: unknown }).details;
  }
  return null;
};

describe('parseJson', () => {
  it('keeps a __proto__ key as a marked own key and leaves the prototype alone', () => {
    const parsed = parseJson('{"a": {"__proto__": {"polluted": true}}}') as { a: Record<string, unknown> };
    expect(Object.getPrototypeOf(parsed.a)).toBe(Object.prototype);
    expect(Object.keys(parsed.a).map(unmarkKey)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect({ ...parsed.a }).not.toHaveProperty('polluted');
  });

  it('finds __proto__ written with unicode escapes', () => {
    const parsed = parseJson('{"\\u005f_proto__": 1}') as Record<string, unknown>;
    expect(Object.keys(parsed).map(unmarkKey)).toEqual(['__proto__']);
  });

  it('marks __proto__ under nesting deeper than a reviver could walk', () => {
    const depth = 100_000;
    const parsed = parseJson(`${'['.repeat(depth)}{"__proto__": 1}${']'.repeat(depth)}`);
    let node = parsed as unknown[];
    for (let i = 1; i < depth; i++) node = node[0] as unknown[];
    expect(Object.keys(node[0] as object).map(unmarkKey)).toEqual(['__proto__']);
  });

  it('parses ordinary JSON unchanged', () => {
    expect(parseJson('{"a": [1, {"b": "c"}], "constructor": 2}')).toEqual({ a: [1, { b: 'c' }], constructor: 2 });
  });
});

describe('guardParams', () => {
  it('accepts ordinary parameters', () => {
    expect(refusal({ object_type_slug: 'companies', filters: { name: { in: ['a', 'b'] } }, page: 1 })).toBeNull();
  });

  it('refuses prototype keys at any depth, marked or not, naming them', () => {
    expect(refusal(parseJson('{"filters": {"__proto__": {}}}'))).toMatchObject({ param: 'filters.__proto__', rule: 'unknown_parameter' });
    expect(refusal({ data: [{ constructor: 1 }] })).toMatchObject({ param: 'data[0].constructor' });
    expect(refusal({ prototype: 1 })).toMatchObject({ param: 'prototype' });
  });

  it('refuses a string past the global bound and names where it was', () => {
    expect(refusal({ filters: { name: 'x'.repeat(LIMITS.stringMaxLength + 1) } })).toMatchObject({ param: 'filters.name', rule: 'max' });
    expect(refusal({ note: 'x'.repeat(LIMITS.stringMaxLength) })).toBeNull();
    expect(refusal({ note: '😀'.repeat(LIMITS.stringMaxLength) })).toBeNull();
    expect(refusal({ note: '😀'.repeat(LIMITS.stringMaxLength + 1) })).toMatchObject({ param: 'note', rule: 'max' });
  });

  it('refuses a key past the key bound, with the key cut short in the name', () => {
    const details = refusal({ data: { ['k'.repeat(1_000_000)]: 1 } }) as { param: string; rule: string };
    expect(details.rule).toBe('key_max');
    expect(details.param.length).toBeLessThan(60);
  });

  it('refuses nesting past the depth bound without recursing', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(refusal({ filters: deep })).toMatchObject({ rule: 'max_depth' });
  });

  it('refuses a lone surrogate in a value or a key, naming where, and lets pairs and other text through', () => {
    expect(refusal({ title: 's', body: 'x\ud800y' })).toEqual({ param: 'body', rule: 'unicode' });
    expect(refusal({ filters: { name: { in: ['ok', 'end\udc00'] } } })).toEqual({ param: 'filters.name.in[1]', rule: 'unicode' });
    expect(refusal(JSON.parse('{"data": {"\\udbff": 1}}'))).toMatchObject({ rule: 'unicode' });
    expect(refusal({ body: 'emoji 😀, U+FFFD \ufffd, U+0001 \u0001, 日本語' })).toBeNull();
  });

  it('refuses a NUL character in a value or a key, naming where', () => {
    expect(refusal({ filters: { name: { contains: '\u0000' } } })).toEqual({ param: 'filters.name.contains', rule: 'unicode' });
    expect(refusal({ data: { name: 'nul\u0000byte' } })).toEqual({ param: 'data.name', rule: 'unicode' });
    expect(refusal(JSON.parse('{"data": {"a\\u0000b": 1}}'))).toMatchObject({ rule: 'unicode' });
  });
});

import fc from 'fast-check';

/**
 * fast-check arbitraries derived from a tool's JSON Schema (the one tools/list publishes): mostly
 * well-shaped parameters, so calls get past the envelope and reach the tool, mixed with hostile
 * values where any parameter may be — huge strings, prototype keys, wrong types, deep nesting,
 * unicode — the shapes the probing found, and their neighbours.
 */
type Schema = Record<string, any>;

/** 100 KB to about 900 KB: big enough to stall a quadratic step, small enough to pass the body limit. */
export const hugeString = fc.integer({ min: 100_000, max: 900_000 }).chain((n) =>
  fc.constantFrom('x', 'é', '_', '\u{1F600}', 'ab').map((unit) => unit.repeat(Math.ceil(n / unit.length))));

/**
 * 20,000 to 99,999 characters: under the global bound, so it reaches the tool and the store, past
 * what store-side limits (SQLite's 50,000-byte LIKE pattern) take once escaped or UTF-8 encoded.
 */
export const longString = fc.integer({ min: 20_000, max: 99_999 }).chain((n) =>
  fc.constantFrom('x', '%', '日', '\u{1F600}').map((unit) => unit.repeat(Math.floor(n / unit.length))));

export const prototypeKey = fc.constantFrom('__proto__', 'constructor', 'prototype');

/** A number JSON cannot hold as a JS number (1e400, -1e400, 1e-400), sent as its literal text (see test/e2e/harness.ts). */
export const RAW_NUMBER = (text: string): string => `@@raw-number:${text}@@`;

/** Text that has broken parsers and renderers: bidi overrides, zero-width, lone surrogates, combining runs. */
export const trickyUnicode = fc.constantFrom(
  '\u202Egnp.exe', 'abc\u200B\u200C\u200D\uFEFF', '\uD800', 'x\uDC00y', '\uDBFF\uDFFF', 'e\u0301\u0301\u0301\u0301',
  '\u0627\u0644\u0639\u0631\u0628\u064A\u0629', '\u2066isolate\u2069', 'Z\u0351\u0352\u0353\u0354\u0355', '\u{10FFFF}', '\r\n\t\v\f',
);

/** Strings that look like injection into SQL, Cypher, templates or paths; they must stay plain data. */
export const injection = fc.constantFrom(
  '$and', '$or', 'toString', 'hasOwnProperty', '../../etc/passwd', "' OR 1=1 --", "'; DROP TABLE records; --", '1\' UNION SELECT hash FROM api_keys --',
  'MATCH (n) DETACH DELETE n', '") RETURN n //', '}) MATCH (m) DETACH DELETE m //', '`n`.`id`', '%', '_', '\\', '*', '{{7*7}}', '${7*7}',
);

/** Numbers outside what JSON numbers hold, and the strings people send for them. */
export const strangeNumber = fc.constantFrom<unknown>(
  RAW_NUMBER('1e400'), RAW_NUMBER('-1e400'), RAW_NUMBER('1e-400'), 'NaN', 'Infinity', '-Infinity', Number.MAX_SAFE_INTEGER + 2, -0, 1e308,
);

/** Dates that parse nowhere, or only at the ends of the representable range. */
export const strangeDate = fc.constantFrom(
  '0000-00-00', '2024-02-30', '2024-13-01T00:00:00Z', '+275760-09-13T00:00:00.000Z', '-271821-04-20T00:00:00.000Z', '+275760-09-14T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z', '0001-01-01T00:00:00Z', '1970-01-01T00:00:00+25:00', '2026-01-01T24:00:00Z', 'yesterday', '',
);

const oddString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000'),
  trickyUnicode,
  injection,
  prototypeKey,
);

/** `levels` of arrays or objects around a leaf. */
const deep = fc.tuple(fc.integer({ min: 20, max: 3000 }), fc.boolean()).map(([levels, arrays]) => {
  let v: unknown = 'leaf';
  for (let i = 0; i < levels; i++) v = arrays ? [v] : { a: v };
  return v;
});

/**
 * Deep nesting shaped like the maps it lands in: a field of `data`, a filter's operator tree
 * (`and`/`or`/`not`), a report config's filters — so the nesting reaches past the first check.
 */
const deepShaped = fc.tuple(fc.integer({ min: 8, max: 400 }), fc.constantFrom('name', 'and', 'or', 'not', 'filters', 'config')).map(([levels, key]) => {
  let v: unknown = { name: 'leaf' };
  for (let i = 0; i < levels; i++) v = key === 'and' || key === 'or' ? { [key]: [v, { name: 'x' }] } : { [key]: v };
  return v;
});

/** An object with these entries as own keys, `__proto__` included (assignment would set a prototype). */
export function objectOf(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

const hostileKey = fc.oneof({ weight: 3, arbitrary: prototypeKey }, { weight: 1, arbitrary: hugeString }, { weight: 2, arbitrary: oddString });

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hugeString },
  { weight: 2, arbitrary: longString },
  { weight: 2, arbitrary: oddString },
  { weight: 2, arbitrary: fc.array(fc.tuple(hostileKey, fc.jsonValue({ maxDepth: 2 })), { minLength: 1, maxLength: 3 }).map(objectOf) },
  { weight: 1, arbitrary: deep },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({})) },
  { weight: 1, arbitrary: fc.array(fc.string(), { minLength: 1000, maxLength: 5000 }) },
  { weight: 2, arbitrary: strangeNumber },
  { weight: 2, arbitrary: strangeDate },
  { weight: 1, arbitrary: deepShaped },
);

/**
 * Parameters for a tool: its schema's shape, each value hostile now and then. `ids` are ids of
 * real rows; `*_id` and `*_ids` parameters often take one, so calls reach the store.
 */
export function paramsFor(schema: Schema, ids: readonly string[] = []): fc.Arbitrary<unknown> {
  return fromSchema(schema, 0, '', ids);
}

function withHostile(arb: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 5, arbitrary: arb }, { weight: 1, arbitrary: hostileValue });
}

function fromSchema(schema: Schema, depth: number, name: string, ids: readonly string[]): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...(schema.anyOf as Schema[]).map((s) => fromSchema(s, depth, name, ids)));
  if (schema.enum) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
  switch (schema.type) {
    case 'object':
      return objectFrom(schema, depth, ids);
    case 'array': {
      const items = schema.items ? fromSchema(schema.items, depth + 1, name, ids) : fc.jsonValue({ maxDepth: 2 });
      return fc.array(items, { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 5) });
    }
    case 'string':
      return /_ids?$/.test(name) && ids.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: stringFrom(schema) }) : stringFrom(schema);
    case 'integer':
      return fc.oneof({ weight: 4, arbitrary: fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 }) }, { weight: 1, arbitrary: fc.integer() }, { weight: 1, arbitrary: strangeNumber });
    case 'number':
      return fc.oneof({ weight: 4, arbitrary: fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true }) }, { weight: 1, arbitrary: fc.double() }, { weight: 1, arbitrary: strangeNumber });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 3 });
  }
}

function stringFrom(schema: Schema): fc.Arbitrary<string> {
  const max = Math.min(schema.maxLength ?? 40, 80);
  const plain = schema.pattern
    ? fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= max)
    : fc.string({ minLength: schema.minLength ?? 0, maxLength: max });
  // Names the store knows, so some calls reach real rows.
  return fc.oneof({ weight: 3, arbitrary: plain }, { weight: 1, arbitrary: fc.constantFrom('companies', 'contacts', 'deals', 'name', 'email', 'open') });
}

/** Parameters that hold caller-shaped maps, where deep nesting is most plausible. */
const NESTED_MAPS = new Set(['data', 'filters', 'config', 'properties', 'field']);

function objectFrom(schema: Schema, depth: number, ids: readonly string[]): fc.Arbitrary<unknown> {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set<string>(schema.required ?? []);
  const names = Object.keys(props);
  const known = names.length === 0 ? fc.constant([] as Array<[string, unknown]>) : fc.tuple(...names.map((name) => {
    const derived = fromSchema(props[name]!, depth + 1, name, ids);
    const shaped = NESTED_MAPS.has(name) ? fc.oneof({ weight: 6, arbitrary: derived }, { weight: 1, arbitrary: deepShaped }) : derived;
    const dated = /_at$|_before$|_after$|^since$|^from$|^to$/.test(name) ? fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 1, arbitrary: strangeDate }) : shaped;
    const value = depth === 0 ? withHostile(dated) : dated;
    return required.has(name) ? value.map((v) => [[name, v]] as Array<[string, unknown]>) : fc.option(value, { nil: undefined, freq: 2 })
      .map((v) => (v === undefined ? [] : [[name, v]]) as Array<[string, unknown]>);
  })).map((parts) => parts.flat());
  // Maps (data, filters) get field-like keys; any object may get a hostile extra key.
  const extraValue = typeof schema.additionalProperties === 'object' ? fromSchema(schema.additionalProperties, depth + 1, '', ids) : fc.jsonValue({ maxDepth: 2 });
  const extraKey = typeof schema.additionalProperties === 'object' ? fc.oneof(stringFrom(schema.propertyNames ?? { type: 'string' }), hostileKey) : hostileKey;
  const extras = fc.array(fc.tuple(extraKey, extraValue), { maxLength: schema.additionalProperties === false ? 1 : 3 });
  const bothEntries = fc.tuple(known, fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: extras }));
  return bothEntries.map(([a, b]) => objectOf([...a, ...b]));
}

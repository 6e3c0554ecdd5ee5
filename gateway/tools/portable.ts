/**
 * Tool schemas in the JSON Schema forms every model provider accepts. zod writes a nullable
 * primitive as a type array (`{"type": ["string", "null"]}`) and `unknown` as the empty schema
 * `{}`; both are legal JSON Schema, yet clients that map tool schemas onto a single-`type`
 * dialect (the OpenAPI subset some providers use) reject the tool or drop the constraint. The
 * rewrite is exact: a type array becomes `anyOf` with one `type` per branch, and a schema that
 * constrains nothing becomes an `anyOf` over every JSON type, which accepts the same values.
 */

type Schema = Record<string, unknown>;

const MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];
const ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SINGLE_KEYWORDS = [
  'items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else',
  'additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems', 'contentSchema',
];
/** Where `true` / `false` are ordinary values rather than schemas standing in for objects. */
const BOOLEAN_VALUED = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);

/** Keywords that assert something about a value; a schema with none of them accepts anything. */
const CONSTRAINING = new Set([
  'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'format', 'contentMediaType', 'contentEncoding', 'contentSchema',
  'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties',
  'required', 'dependentRequired', 'allOf', 'anyOf', 'oneOf', 'not', 'items', 'prefixItems', 'contains',
  'additionalItems', 'unevaluatedItems', 'properties', 'patternProperties', 'additionalProperties',
  'unevaluatedProperties', 'propertyNames', 'dependentSchemas', 'dependencies', '$ref', '$dynamicRef',
]);

/** The keywords that only apply to one JSON type, so a type-array split moves them into that branch. */
const TYPE_KEYWORDS: Record<string, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format', 'contentMediaType', 'contentEncoding', 'contentSchema'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['items', 'prefixItems', 'contains', 'minItems', 'maxItems', 'uniqueItems', 'minContains', 'maxContains', 'additionalItems', 'unevaluatedItems'],
  object: [
    'properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames',
    'minProperties', 'maxProperties', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties',
  ],
};
TYPE_KEYWORDS.integer = TYPE_KEYWORDS.number!;

/** Every JSON value, spelled with one `type` per branch. */
export const ANY_JSON_VALUE: readonly Schema[] = Object.freeze(
  ['string', 'number', 'boolean', 'object', 'array', 'null'].map((type) => Object.freeze({ type })),
);

/** One way a schema is less portable than it could be, with where it is. */
export interface PortabilityProblem {
  path: string;
  rule: 'type-union' | 'untyped-schema' | 'boolean-schema' | 'remote-ref';
}

/** A portable copy of a JSON Schema: no type arrays, no schema that constrains nothing. */
export function portableSchema(schema: Schema): Schema {
  return rewrite(schema, undefined) as Schema;
}

function rewrite(node: unknown, keyword: string | undefined): unknown {
  if (typeof node === 'boolean') {
    if (keyword !== undefined && BOOLEAN_VALUED.has(keyword)) return node;
    return node ? { anyOf: [...ANY_JSON_VALUE] } : { not: {} };
  }
  if (!isSchema(node)) return node;
  let out: Schema = {};
  for (const [key, value] of Object.entries(node)) out[key] = rewriteChild(key, value);
  if (Array.isArray(out.type)) out = splitTypes(out, out.type as string[]);
  if (keyword !== 'not' && !Object.keys(out).some((k) => CONSTRAINING.has(k))) out = { ...out, anyOf: [...ANY_JSON_VALUE] };
  return out;
}

function rewriteChild(key: string, value: unknown): unknown {
  if (MAP_KEYWORDS.includes(key) && isSchema(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, rewrite(sub, key)]));
  }
  if (ARRAY_KEYWORDS.includes(key) && Array.isArray(value)) return value.map((sub) => rewrite(sub, key));
  if (SINGLE_KEYWORDS.includes(key)) return rewrite(value, key);
  return value;
}

/** `{type: [a, b], ...}` as `{anyOf: [{type: a, ...a's keywords}, {type: b, ...}]}`. */
function splitTypes(node: Schema, types: string[]): Schema {
  const { type: _type, ...rest } = node;
  const typed = new Set(Object.values(TYPE_KEYWORDS).flat());
  const shared = Object.fromEntries(Object.entries(rest).filter(([k]) => !typed.has(k)));
  const branches = types.map((t) => ({
    type: t,
    ...Object.fromEntries((TYPE_KEYWORDS[t] ?? []).filter((k) => k in rest).map((k) => [k, rest[k]])),
  }));
  if (!Array.isArray(shared.anyOf)) return { ...shared, anyOf: branches };
  const { anyOf, ...others } = shared;
  return { ...others, allOf: [...((others.allOf as unknown[]) ?? []), { anyOf }, { anyOf: branches }] };
}

/** The portability problems of a schema, by the rules tool-schema linters apply. */
export function portabilityProblems(schema: unknown): PortabilityProblem[] {
  const problems: PortabilityProblem[] = [];
  const visit = (node: unknown, path: string, keyword: string | undefined): void => {
    if (typeof node === 'boolean') {
      if (keyword === undefined || !BOOLEAN_VALUED.has(keyword)) problems.push({ path, rule: 'boolean-schema' });
      return;
    }
    if (!isSchema(node)) return;
    if (Array.isArray(node.type)) problems.push({ path, rule: 'type-union' });
    if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) problems.push({ path, rule: 'remote-ref' });
    if (keyword !== 'not' && !Object.keys(node).some((k) => CONSTRAINING.has(k))) problems.push({ path, rule: 'untyped-schema' });
    for (const [key, value] of Object.entries(node)) {
      if (MAP_KEYWORDS.includes(key) && isSchema(value)) for (const [name, sub] of Object.entries(value)) visit(sub, `${path}.${key}.${name}`, key);
      else if (ARRAY_KEYWORDS.includes(key) && Array.isArray(value)) value.forEach((sub, i) => visit(sub, `${path}.${key}[${i}]`, key));
      else if (SINGLE_KEYWORDS.includes(key)) visit(value, `${path}.${key}`, key);
    }
  };
  visit(schema, '$', undefined);
  return problems;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A tool's description is the agent's manual: what it does, its limits, an example call and what
 * it returns. Authors write the first and usually the example; what a description leaves out is
 * completed here from the tool's own schemas, so every tool (whoever adds it) publishes all four.
 */
import type { ToolDefinition } from './define.ts';
import { toolSchemas } from './index.ts';

type Schema = Record<string, unknown>;

const manuals = new Map<string, string>();

/** The published description of a tool: its own text, completed with limits, example and result. */
export function toolManual(tool: ToolDefinition): string {
  let text = manuals.get(tool.name);
  if (text === undefined) {
    const { inputSchema, outputSchema } = toolSchemas(tool);
    const parts = [tool.description.trim()];
    const limits = limitsOf(inputSchema);
    if (limits.length > 0 && !/\bLimits:/.test(parts[0]!)) parts.push(`Limits: ${limits.join('; ')}.`);
    if (!/\bExample\b/.test(parts[0]!)) parts.push(`Example: ${JSON.stringify(exampleOf(inputSchema))}.`);
    if (!/\bReturns\b/.test(parts[0]!)) parts.push(`Returns ${shapeOf(outputSchema)}.`);
    text = parts.join(' ');
    manuals.set(tool.name, text);
  }
  return text;
}

/** The JSON objects that follow the word "Example" in a text (balanced braces, parsed). */
export function examplesIn(text: string): unknown[] {
  const found: unknown[] = [];
  for (const match of text.matchAll(/\bExample\b/g)) {
    const start = text.indexOf('{', match.index);
    if (start < 0) break;
    const end = closingBrace(text, start);
    if (end < 0) continue;
    try {
      found.push(JSON.parse(text.slice(start, end + 1)));
    } catch {
      found.push(undefined);
    }
  }
  return found;
}

function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Bounds of the top-level parameters, e.g. "page_size at most 100", "entries at most 100 items". */
function limitsOf(schema: Schema): string[] {
  const out: string[] = [];
  for (const [name, raw] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const s = firstBranch(raw);
    if (typeof s.maximum === 'number' && s.maximum < Number.MAX_SAFE_INTEGER) out.push(`${name} at most ${s.maximum}`);
    if (typeof s.maxItems === 'number') out.push(`${name} at most ${s.maxItems} items`);
    if (typeof s.maxLength === 'number') out.push(`${name} at most ${s.maxLength} characters`);
  }
  return out;
}

/** A call with the required parameters, using each one's own `e.g.` value where it gives one. */
function exampleOf(schema: Schema): unknown {
  const s = firstBranch(schema);
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  switch (s.type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const required = (s.required ?? []) as string[];
      return Object.fromEntries(required.filter((k) => props[k]).map((k) => [k, exampleOf(props[k]!)]));
    }
    case 'array':
      return typeof s.minItems === 'number' && s.minItems > 0 && s.items ? [exampleOf(s.items as Schema)] : [];
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'string':
      return /e\.g\. "([^"]+)"/.exec(String(s.description ?? ''))?.[1] ?? '…';
    default:
      return null;
  }
}

/** The top-level keys of the success result, e.g. "{items, total, page, page_size}". */
function shapeOf(schema: Schema): string {
  const keys = Object.keys((firstBranch(schema).properties ?? {}) as Schema);
  return keys.length > 0 ? `{${keys.join(', ')}}` : 'an object';
}

/** The schema itself, or its first non-null anyOf branch (how nullable values are spelled). */
function firstBranch(schema: Schema): Schema {
  const branches = schema.anyOf as Schema[] | undefined;
  if (schema.type || !Array.isArray(branches)) return schema;
  return { ...(branches.find((b) => b.type !== 'null') ?? {}), description: schema.description };
}

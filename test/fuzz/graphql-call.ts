import { CATALOG } from '../../gateway/tools/index.ts';
import { toJson, type Harness } from '../e2e/harness.ts';

/** Codes a hostile GraphQL operation may end with: the service's own, or GraphQL's validation codes. */
const EXPECTED = new Set(['validation_error', 'not_found', 'conflict', 'payload_too_large', 'permission_denied', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'GRAPHQL_PARSE_FAILED']);

export interface GraphQLOutcome {
  ok: boolean;
  status: number;
  codes: string[];
  /** The variables actually sent (the tool's builder drops keys it does not know). */
  sent: unknown;
}

/**
 * A tool's own GraphQL operation sent to /graphql with fuzzed variables: mapped through the tool's
 * variable builder when it accepts them, sent as they are otherwise, so the field arguments
 * themselves meet the hostile values.
 */
export async function callGraphQL(h: Harness, key: string, tool: string, params: unknown): Promise<GraphQLOutcome> {
  const def = CATALOG.get(tool);
  let variables: unknown = params;
  try {
    if (def && params && typeof params === 'object') variables = def.operation.variables(params as never);
  } catch {
    variables = params;
  }
  const res = await fetch(`${h.url}/graphql`, {
    method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: toJson({ query: def?.operation.document ?? `{ ${tool} }`, variables }),
  });
  const text = await res.text();
  let body: { errors?: Array<{ extensions?: { code?: string } }>; code?: string } = {};
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, status: res.status, codes: ['unparseable answer'], sent: variables };
  }
  // The gateway's own refusals (413, 429, …) come before GraphQL, in the plain error shape.
  const codes = body.code ? [body.code] : (body.errors ?? []).map((e) => e.extensions?.code ?? 'GRAPHQL_VALIDATION_FAILED');
  return { ok: res.ok && codes.length === 0, status: res.status, codes, sent: variables };
}

/** What is wrong with a GraphQL answer, or null: no 5xx, no internal error, only expected codes. */
export function graphqlProblem(out: GraphQLOutcome): string | null {
  if (out.status >= 500) return `answered ${out.status}`;
  const odd = out.codes.filter((c) => !EXPECTED.has(c));
  return odd.length ? `unexpected codes ${odd.join(', ')}` : null;
}

import { ERROR_CODES, ERROR_TABLE, type McpTreatment } from '../src/domain/errors.ts';

/**
 * The prose half of the OpenAPI document: how the same tools are reached over the bridge, MCP and
 * GraphQL, and the error table. It is the `info.description` (Markdown), so any OpenAPI renderer
 * (the one at /docs included) shows it above the per-tool endpoints.
 */

const MCP_CARRIES: Record<McpTreatment, string> = {
  tool_result: 'tool result with `isError: true`',
  jsonrpc: 'JSON-RPC error',
  http: 'HTTP status',
};

/** One row per error code: HTTP status, the bridge's upper-case code, and how MCP carries it. */
function errorTable(): string {
  const rows = ERROR_CODES.map((code) => {
    const t = ERROR_TABLE[code];
    return `| \`${code}\` | ${t.status} | \`${t.upper}\` | ${MCP_CARRIES[t.mcp]} |`;
  });
  return ['| code | HTTP | bridge (shape B) | MCP |', '|---|---|---|---|', ...rows].join('\n');
}

/** The Markdown of `info.description`. */
export function apiGuide(): string {
  return `Every tool is \`POST {base_url}/<category>/<action>\` with its parameters as the JSON body and
\`Authorization: Bearer <API_KEY>\`. The same tools, with the same parameters and results, are also
served by the REST bridge and MCP below; internal teams use GraphQL.

## Per-tool REST
One endpoint per tool, listed below by category. A success is the tool's result as the body
(status 200); a failure is shape A: \`{"error": "...", "code": "...", "details": {...}}\`.

## REST bridge
\`POST /mcp/api/developers/mcp/call/\` with \`{"tool": "records.create", "params": {...}}\`.
By default it answers shape B: \`{"success": true, "data": <result>}\` or
\`{"success": false, "error": {"code": "VALIDATION_ERROR", "message": "..."}}\`;
with \`BRIDGE_RESPONSE_SHAPE=plain\` it answers like per-tool REST.

## MCP
JSON-RPC 2.0 at \`POST /mcp/\` (Streamable HTTP, stateless, JSON answers): \`tools/list\` gives every
tool with its input and output schema, \`tools/call\` with \`{"name": "records.get", "arguments": {...}}\`
calls one. Browsers may call it only from the same origin or one listed in \`ALLOWED_ORIGINS\`.

## GraphQL
\`POST /graphql\` with \`{"query": "...", "variables": {...}}\` and the same bearer key; open
\`/graphql\` in a browser for GraphiQL and the schema. Workspace settings (members, API keys,
plan: the \`settings\` query and the \`createApiKey\`, \`revokeApiKey\`, \`addMember\`, \`setMemberRole\`
and \`setPlan\` mutations) are there and for the workspace Owner only; the web console at
\`/console\` uses them. Errors carry the code in \`errors[].extensions.code\`. Every other root
field runs one tool's operation, and its arguments are checked with that tool's parameter schema
first: what a tool call refuses, \`/graphql\` refuses with the same message and \`details.param\`
(plus \`details.graphql_field\`), as a 400 in which no field ran.

## Errors
Every failure carries one of these codes, whichever way it came in; \`details.param\` names the
parameter at fault. A path the service does not serve is 404 \`not_found\`; a wrong HTTP method is
HTTP's own answer, 405 with an \`Allow\` header and a body \`{"error": "..."}\` (on MCP a JSON-RPC error).

${errorTable()}

A 429 carries \`Retry-After\`; every answer carries the \`RateLimit-Policy\` and \`RateLimit\` headers.`;
}

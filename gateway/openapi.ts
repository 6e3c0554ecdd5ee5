import { ERROR_CODES } from '../src/domain/errors.ts';
import { listTools, toolSchemas } from './tools/index.ts';
import { examplesIn, toolManual } from './tools/manual.ts';
import { apiGuide } from './openapi-guide.ts';

const ERROR_RESPONSES: Record<string, string> = {
  400: 'validation_error: a parameter is invalid; `details.param` names it',
  401: 'unauthorized: missing, invalid or revoked API key',
  403: 'permission_denied (scope or role) or subscription_required (trial ended)',
  404: 'not_found or tool_not_found',
  409: 'conflict: a unique value is taken, something still depends on what is deleted, or other calls kept changing the record (send it again)',
  413: 'payload_too_large',
  415: 'validation_error: a Content-Type other than application/json, or a Content-Encoding other than identity (bodies are not compressed)',
  429: 'rate_limited: see Retry-After',
  500: 'internal_error',
  503: 'unavailable: the store cannot be reached',
};

function strip(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _s, ...rest } = schema;
  return rest;
}

/** The OpenAPI 3.1 description of the per-tool REST interface, generated from the catalog. */
export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const tool of [...listTools()].sort((a, b) => a.name.localeCompare(b.name))) {
    const [category, action] = tool.name.split('.') as [string, string];
    const { inputSchema, outputSchema } = toolSchemas(tool);
    const manual = toolManual(tool);
    const example = examplesIn(manual).find((e) => e !== undefined);
    const errors = Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([status, description]) => [
      status, { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    ]));
    paths[`/${category}/${action}`] = {
      post: {
        operationId: tool.name.replace('.', '_'),
        summary: tool.title,
        description: manual,
        tags: [category],
        'x-scope': tool.scope,
        'x-annotations': tool.annotations,
        requestBody: { required: true, content: { 'application/json': { schema: strip(inputSchema), ...(example ? { example } : {}) } } },
        responses: {
          200: { description: 'The tool result.', content: { 'application/json': { schema: strip(outputSchema) } } },
          ...errors,
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'CRM tool service — per-tool REST',
      version: '1.0.0',
      description: apiGuide(),
    },
    servers: [{ url: '{base_url}', description: 'Production server', variables: { base_url: { default: 'http://localhost:8080/v1' } } }],
    security: [{ bearer: [] }],
    tags: [...new Set(listTools().map((t) => t.name.split('.')[0]!))].sort().map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'A workspace API key, <prefix>_live_<random>.' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['error', 'code'],
          properties: {
            error: { type: 'string', description: 'What was wrong; for validation errors, which parameter.' },
            code: { type: 'string', enum: [...ERROR_CODES] },
            details: { type: 'object', description: 'param, rule, allowed values and a suggestion where one exists.' },
          },
        },
      },
    },
  };
}

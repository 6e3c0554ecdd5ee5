import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** schema/openapi.json is what /docs renders and what clients generate from: it must be valid. */
describe('the published OpenAPI document', () => {
  const doc = JSON.parse(readFileSync(new URL('../../schema/openapi.json', import.meta.url), 'utf8'));

  it('passes an OpenAPI 3.1 validator', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
  });

  it('covers the 62 tools, each with a request example and the error responses', () => {
    const operations = Object.values(doc.paths).map((p: any) => p.post);
    expect(operations).toHaveLength(62);
    for (const op of operations) {
      expect(op.requestBody.content['application/json'].example, op.operationId).toBeDefined();
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '429']));
    }
  });

  it('explains the bridge, MCP, GraphQL and the error table in its description', () => {
    for (const heading of ['## REST bridge', '## MCP', '## GraphQL', '## Errors']) expect(doc.info.description).toContain(heading);
    expect(doc.info.description).toContain('| `subscription_required` | 403 | `SUBSCRIPTION_REQUIRED` |');
  });
});

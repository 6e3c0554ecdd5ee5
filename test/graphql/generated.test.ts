import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../../scripts/generate.ts';

const files = await generatedFiles();

describe('generated artifacts', () => {
  for (const [path, content] of Object.entries(files)) {
    it(`${path} is up to date with the code (run npm run generate)`, () => {
      expect(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')).toBe(content);
    });
  }

  it('describes the per-tool REST interface as version 1.0.0', () => {
    const doc = JSON.parse(files['schema/openapi.json']!);
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.paths['/records/create'].post.responses['200']).toBeDefined();
    expect(doc.paths['/records/create'].post.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
  });
});

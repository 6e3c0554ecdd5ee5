/**
 * Writes the generated artifacts that are checked in (a test fails when they are stale): the printed GraphQL schema,
 * the OpenAPI document of the per-tool REST interface, the typed client's tool list and the WebAssembly modules
 * compiled from gateway/wasm/*.wat. `--check` exits 1 when a file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApi } from '../gateway/openapi.ts';
import { clientToolsModule } from '../gateway/tools/client-list.ts';
import { printedSchema } from '../src/graphql/schema.ts';
import { WASM_SOURCES, wasmModule } from './wasm.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function generatedFiles(): Promise<Record<string, string>> {
  const files: Record<string, string> = {
    'schema/schema.graphql': printedSchema(),
    'schema/openapi.json': `${JSON.stringify(buildOpenApi(), null, 2)}\n`,
    'client/tools.generated.ts': clientToolsModule(),
  };
  for (const [path, source] of Object.entries(WASM_SOURCES)) files[path] = await wasmModule(root, source);
  return files;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [path, content] of Object.entries(await generatedFiles())) {
    const full = `${root}${path}`;
    let current = '';
    try {
      current = readFileSync(full, 'utf8');
    } catch {
      // missing counts as stale
    }
    if (current === content) continue;
    if (check) {
      process.stderr.write(`${path} is stale; run npm run generate\n`);
      stale++;
    } else {
      writeFileSync(full, content);
      process.stdout.write(`wrote ${path}\n`);
    }
  }
  process.exit(stale ? 1 : 0);
}

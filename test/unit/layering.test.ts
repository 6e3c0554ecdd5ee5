import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)]
    .map((m) => m[1] ?? m[2]!)
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(root, join(root, file, '..', s)));
}

/** gateway -> src/graphql -> src/domain (which owns the Store port in src/domain/store) <- src/store adapters. */
describe('dependency direction', () => {
  it('reads relative imports, dynamic ones included (so the rules below can fail)', () => {
    expect(imports('gateway/app.ts')).toContain('gateway/errors.ts');
    expect(imports('src/store/index.ts')).toContain('src/store/sqlite/index.ts');
  });

  it('keeps transports off the store', () => {
    for (const file of files('gateway/transports')) {
      for (const target of imports(file)) expect(target, `${file} imports ${target}`).not.toMatch(/^src\/store\//);
    }
  });

  it('keeps the domain free of GraphQL, HTTP and the store adapters (the domain owns the port)', () => {
    for (const file of files('src/domain')) {
      for (const target of imports(file)) expect(target, `${file} imports ${target}`).not.toMatch(/^(src\/graphql|gateway|src\/store)\//);
    }
  });

  it('keeps the Store port in the domain', () => {
    expect(files('src/domain/store')).toContain('src/domain/store/port.ts');
    expect(files('src/store').filter((f) => /\/port[^/]*\.ts$/.test(f))).toEqual([]);
  });

  it('keeps the store free of GraphQL, HTTP and domain services', () => {
    for (const file of files('src/store')) {
      for (const target of imports(file)) expect(target, `${file} imports ${target}`).not.toMatch(/^(src\/graphql|gateway|src\/domain\/services)\//);
    }
  });

  it('keeps GraphQL off HTTP and off the store adapters', () => {
    for (const file of files('src/graphql')) {
      for (const target of imports(file)) expect(target, `${file} imports ${target}`).not.toMatch(/^(gateway\/|src\/store\/(sqlite|neo4j))/);
    }
  });
});

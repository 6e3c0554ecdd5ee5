import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TS_LOADER } from '../../gateway/loader/index.ts';
// @ts-expect-error: the hooks are plain JavaScript (they run before any TypeScript can), without declarations
import { transformTypeScript } from '../../gateway/loader/hooks.mjs';

const FIXTURE = fileURLToPath(new URL('./fixtures/closures.ts', import.meta.url));

describe('the loader the service runs under (npm start, crm, the Docker image, the benchmark)', () => {
  it('strips types without wrapping functions in name helpers', async () => {
    const code: string = await transformTypeScript('const f = (x: number): number => x + 1;\nexport class A { y: number = 1; m = () => f(this.y); }\n', '/x/a.ts');
    expect(code).not.toMatch(/__name|defineProperty/);
    expect(code).toContain('const f = (x) => x + 1;');
    expect(code).toContain('sourceMappingURL=data:application/json;base64,');
  });

  it('runs a TypeScript module whose closures keep fast properties, their names and source positions', async () => {
    // tsx's loader (esbuild's keepNames) defines `name` on every closure a call makes, which
    // turns each into a dictionary-mode object; under the service's loader none is.
    const { stdout } = await promisify(execFile)(process.execPath, ['--allow-natives-syntax', '--import', TS_LOADER, FIXTURE]);
    const out = JSON.parse(stdout);
    expect(out.fast).toEqual([true, true, true, true]);
    expect(out.names).toEqual(['tool', 'owner', 'onData', 'Counter']);
    // Class fields are defined, as tsconfig's ES2022 target says, not assigned through a setter.
    expect(out.classField).toEqual({ own: true, setterRan: false });
    // Stack frames point into the .ts source through the inline source map.
    const line = readFileSync(FIXTURE, 'utf8').split('\n').findIndex((l) => l.includes("new Error('here')")) + 1;
    expect(out.stack).toMatch(new RegExp(`closures\\.ts:${line}:\\d+\\)?$`));
  });
});

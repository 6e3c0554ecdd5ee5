/**
 * Node module hooks that load the service's TypeScript: a `.ts` or `.mts` file is transformed by
 * esbuild when it is first imported (types stripped, an inline source map added, nothing else
 * rewritten) and runs as an ES module. Registered by `register.mjs`; every other file loads as
 * Node would load it.
 *
 * Why not tsx's loader, which the scripts use: it runs esbuild with `keepNames`, which wraps each
 * named function and closure in `__name(fn, "name")`. That is an `Object.defineProperty` of `name`
 * on every closure made at run time (eight per REST call before any tool-specific code), and it
 * turns each such closure into a dictionary-mode object. Nothing here is minified, so V8 already
 * gives every function the name it had in the source.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const TYPESCRIPT = /\.m?ts$/;

/**
 * The package's tsconfig as text: esbuild reads the compiler options that change emitted code
 * (class fields, imports) and, like tsc, takes comments and trailing commas in it.
 */
const TSCONFIG = readFileSync(new URL('../../tsconfig.json', import.meta.url), 'utf8');

/** A TypeScript module's source as the ES module JavaScript Node runs. */
export async function transformTypeScript(source, path) {
  const { code } = await transform(source, {
    loader: 'ts',
    format: 'esm',
    target: `node${process.versions.node}`,
    sourcefile: path,
    sourcemap: 'inline',
    // Stack traces need only the mappings; the sources are on disk beside them.
    sourcesContent: false,
    keepNames: false,
    tsconfigRaw: TSCONFIG,
  });
  return code;
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !TYPESCRIPT.test(new URL(url).pathname)) return nextLoad(url, context);
  const path = fileURLToPath(url);
  return { format: 'module', source: await transformTypeScript(await readFile(path, 'utf8'), path), shortCircuit: true };
}

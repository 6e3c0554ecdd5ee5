import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'koa';

/**
 * The package's root directory (where its package.json is), found by walking up from this file,
 * so the pages' files are found whether the gateway runs from its sources or from compiled output.
 */
export const PACKAGE_ROOT: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'crm-tool-service') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the crm-tool-service package root above gateway/web');
    dir = up;
  }
})();

/**
 * The browser pages' Content-Security-Policy: everything comes from this server (no CDN), and
 * scripts only from files. Inline styles are allowed because the renderers set element styles.
 */
export const PAGE_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data: blob:",
  "font-src 'self' data:", "connect-src 'self'", "worker-src 'self' blob:", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'",
].join('; ');

/** Sets the headers every console and docs page carries. */
export function pageHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
}

/**
 * Answers with the file `name` under `root`, or returns false when there is none. Names that
 * would leave `root` (`..`, absolute paths) are never served.
 */
export function sendFile(ctx: Context, root: string, name: string, cache: 'immutable' | 'revalidate'): boolean {
  const path = normalize(join(root, name));
  if (!path.startsWith(root.endsWith(sep) ? root : root + sep)) return false;
  if (!existsSync(path) || !statSync(path).isFile()) return false;
  ctx.type = extname(path);
  ctx.set('Cache-Control', cache === 'immutable' ? 'public, max-age=31536000, immutable' : 'no-cache');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = createReadStream(path);
  return true;
}

import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GatewayDeps } from '../state.ts';
import { checkHostAndOrigin } from '../transports/host-origin.ts';
import { edge } from '../transports/rest.ts';
import { PACKAGE_ROOT, pageHeaders, sendFile } from './static.ts';

/** The console's build (`npm run build:console`), committed so the package serves it as it is. */
const DIST = join(PACKAGE_ROOT, 'console', 'dist');

/**
 * `/console`: the web console, a static single-page app that calls the API with the key the
 * user signs in with. Asset names carry a content hash, so they are cached for good; the page
 * is revalidated. Host and Origin are checked as for MCP (ALLOWED_HOSTS, ALLOWED_ORIGINS).
 */
export function mountConsole(router: Router, deps: GatewayDeps): void {
  const guard = checkHostAndOrigin(deps);
  let page: string | undefined;
  const index: Middleware = (ctx) => {
    page ??= readFileSync(`${DIST}/index.html`, 'utf8');
    pageHeaders(ctx);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'html';
    ctx.body = page;
  };
  router.get('/console', edge('ops'), guard, index);
  router.get('/console/', edge('ops'), guard, index);
  router.get('/console/assets/:file', edge('ops'), guard, (ctx) => {
    if (!sendFile(ctx, `${DIST}/assets`, ctx.params.file!, 'immutable')) {
      ctx.status = 404;
      ctx.body = { error: `no such file: ${ctx.path}` };
    }
  });
}

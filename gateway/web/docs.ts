import type Router from '@koa/router';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { edge } from '../transports/rest.ts';
import { PACKAGE_ROOT, pageHeaders, sendFile } from './static.ts';

/** Swagger UI's files, from the installed package: the reference never loads anything from a CDN. */
const SWAGGER_ROOT = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const SWAGGER_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);
const INIT_DIR = join(PACKAGE_ROOT, 'gateway', 'web');

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>CRM tool service — API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head><body>
<noscript>The API reference needs JavaScript; the raw document is at <a href="/openapi.json">/openapi.json</a>.</noscript>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body></html>`;

/** `/docs`: the API reference, rendered in the browser from /openapi.json by Swagger UI. */
export function mountDocs(router: Router): void {
  router.get('/docs', edge('ops'), (ctx) => {
    pageHeaders(ctx);
    ctx.type = 'html';
    ctx.body = PAGE;
  });
  router.get('/docs/init.js', edge('ops'), (ctx) => {
    sendFile(ctx, INIT_DIR, 'docs-init.js', 'revalidate');
  });
  router.get('/docs/assets/:file', edge('ops'), (ctx) => {
    if (!SWAGGER_FILES.has(ctx.params.file!) || !sendFile(ctx, SWAGGER_ROOT, ctx.params.file!, 'revalidate')) {
      ctx.status = 404;
      ctx.body = { error: `no such file: ${ctx.path}` };
    }
  });
}

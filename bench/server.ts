/**
 * The server side of `npm run bench`, always in its own process so the load generator and the
 * server each get a core. BENCH_TARGET picks what listens on 127.0.0.1 (free port):
 * - `crm`: the gateway on DATA_DIR (env as for `npm start`),
 * - `node-http`: a bare node:http server answering a fixed JSON body (the physical floor),
 * - `koa`: a bare Koa route answering the same body.
 * The baselines read the request body as the gateway must. When listening it prints one line
 * `BENCH_READY {"url": ...}`; SIGTERM closes it and exits normally, so `--cpu-prof` is written.
 * The gateway also records its event-loop delay and GC pauses, read at `pauses` (lib/pauses.ts);
 * the baselines do not, so the floor stays a bare server.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { FIXED_BODY } from './lib/fixed-body.ts';
import { servePauses } from './lib/pauses.ts';

const FIXED = JSON.stringify(FIXED_BODY);

async function drain(req: IncomingMessage): Promise<void> {
  for await (const _chunk of req) {
    // the body is read and dropped, as a parser would consume it
  }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  server.keepAliveTimeout = 65_000;
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function bareNodeHttp(): Server {
  return createServer((req, res) => {
    void drain(req).then(() => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(FIXED) });
      res.end(FIXED);
    });
  });
}

function bareKoa(): Server {
  const app = new Koa();
  const router = new Router();
  router.post('/v1/:category/:action', async (ctx) => {
    await drain(ctx.req);
    ctx.body = FIXED_BODY;
  });
  app.use(router.routes());
  return createServer(app.callback());
}

async function main(): Promise<void> {
  const target = process.env.BENCH_TARGET ?? 'crm';
  let url: string;
  let close: () => Promise<void>;
  let pauses: string | undefined;
  if (target === 'crm') {
    // Imported only here, so the baselines' memory and start-up are those of a bare server.
    const { loadConfig } = await import('../gateway/config.ts');
    const { startServer } = await import('../gateway/server.ts');
    const running = await startServer(loadConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0' }));
    const recorder = await servePauses();
    url = running.url;
    pauses = recorder.url;
    close = () => recorder.close().then(() => running.close());
  } else if (target === 'node-http' || target === 'koa') {
    const server = target === 'koa' ? bareKoa() : bareNodeHttp();
    url = await listen(server);
    close = () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  } else {
    throw new Error(`BENCH_TARGET must be crm, node-http or koa, got ${target}`);
  }
  process.stdout.write(`BENCH_READY ${JSON.stringify({ url, target, pid: process.pid, pauses })}\n`);
  process.once('SIGTERM', () => {
    void close().finally(() => process.exit(0));
  });
}

await main();

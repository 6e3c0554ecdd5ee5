import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';

/** The console and /docs as plain HTTP: what is served, with which headers, and what is not. */
describe('the console and docs pages over HTTP', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  /** A GET with a raw path and Host (fetch would normalise `..` and forbid setting Host). */
  const get = (path: string, headers: Record<string, string> = {}) => new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const url = new URL(h.url);
    const req = request({ host: url.hostname, port: url.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });

  it('serves the console page and its hashed assets with a self-only Content-Security-Policy', async () => {
    const page = await get('/console');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page.body)![1]!;
    const asset = await get(script);
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('never serves a file outside the console build or a Swagger UI file it does not use', async () => {
    expect((await get('/console/assets/..%2F..%2F..%2Fpackage.json')).status).toBe(404);
    expect((await get('/console/assets/nope.js')).status).toBe(404);
    expect((await get('/docs/assets/swagger-initializer.js')).status).toBe(404);
    expect((await get('/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
  });

  it('refuses the console to a Host or Origin that is not allowed', async () => {
    expect((await get('/console', { Host: 'evil.example' })).status).toBe(403);
    expect((await get('/console', { Origin: 'http://evil.example' })).status).toBe(403);
  });

  it('serves the docs page and GraphiQL without any outside address in them', async () => {
    const docs = await get('/docs');
    expect(docs.body).toContain('/docs/assets/swagger-ui-bundle.js');
    const graphiql = await get('/graphql', { Accept: 'text/html' });
    expect(graphiql.status).toBe(200);
    for (const body of [docs.body, graphiql.body]) expect(body).not.toMatch(/<script[^>]+src="https?:/);
    expect(graphiql.body).toContain('renderYogaGraphiQL');
  });
});

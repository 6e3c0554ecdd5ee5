/**
 * What the rate limiter costs per call: no limiter, the in-process log and the Redis script
 * (REDIS_URL, default 127.0.0.1:6379), each measured bare and inside a minimal HTTP request,
 * printed as microseconds and as a ratio to "none". Run: npx tsx bench/ratelimit.ts [calls]
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { MetricsRegistry } from '../gateway/metrics.ts';
import { createRateLimiter, type RateLimiter } from '../gateway/ratelimit/index.ts';

const CALLS = Number(process.argv[2] ?? 2000);
const ROUNDS = 5;
const KEYS = 500; // spread over keys as real traffic is, so no key reaches its limit
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const run = randomBytes(4).toString('hex');
const keyOf = (i: number): string => `bench-${run}-${i % KEYS}`;

type Hit = ((key: string) => Promise<unknown>) | undefined;

async function timeBare(hit: Hit): Promise<number> {
  const call = hit ?? (async () => undefined);
  for (let i = 0; i < 500; i += 1) await call(keyOf(i)); // warm-up
  const start = performance.now();
  for (let i = 0; i < CALLS; i += 1) await call(keyOf(i));
  return ((performance.now() - start) * 1000) / CALLS;
}

async function timeHttp(hit: Hit): Promise<number> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (hit) await hit(String(req.headers['x-key-id']));
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const call = async (i: number): Promise<void> => {
    const response = await fetch(url, { method: 'POST', headers: { 'x-key-id': keyOf(i) } });
    await response.arrayBuffer();
  };
  try {
    for (let i = 0; i < 100; i += 1) await call(i);
    const calls = Math.max(500, Math.floor(CALLS / 2));
    const start = performance.now();
    for (let i = 0; i < calls; i += 1) await call(i);
    return ((performance.now() - start) * 1000) / calls;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

function table(title: string, rows: [string, number][]): void {
  const none = rows[0]![1];
  console.log(`\n${title}`);
  console.log('backend     µs/call     × none');
  for (const [name, us] of rows) console.log(`${name.padEnd(10)}${us.toFixed(2).padStart(9)}${(us / none).toFixed(2).padStart(11)}`);
}

const options = { limit: 1000, windowMs: 60_000, metrics: new MetricsRegistry() };
const memory = createRateLimiter(options);
const redis: RateLimiter = createRateLimiter({ ...options, redisUrl: REDIS_URL });
await redis.hit(`${keyOf(0)}-warmup`);
if (!redis.status().healthy) {
  console.error(`Redis at ${REDIS_URL} is not reachable; the Redis rows would measure the fallback.`);
  process.exit(1);
}
const hits: [string, Hit][] = [
  ['none', undefined],
  ['memory', (key) => memory.hit(key)],
  ['redis', (key) => redis.hit(key)],
];

/** Rounds interleave the backends, so drift on a shared machine hits each alike; median wins. */
async function medians(measure: (hit: Hit) => Promise<number>): Promise<[string, number][]> {
  const samples = hits.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [i, [, hit]] of hits.entries()) samples[i]!.push(await measure(hit));
  }
  return hits.map(([name], i) => [name, samples[i]!.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!]);
}

console.log(`rate limiter cost: ${CALLS} sequential calls over ${KEYS} keys, limit 1000/60 s, median of ${ROUNDS} rounds, Redis at ${REDIS_URL}`);
table('limiter call alone', await medians(timeBare));
const http = await medians(timeHttp);
table('inside a minimal HTTP request (node:http, keep-alive, one at a time)', http);
const [none, , viaRedis] = http.map(([, us]) => us) as [number, number, number];
console.log(`\nredis / none per request: ${(viaRedis / none).toFixed(2)}×; Redis adds ${(viaRedis - none).toFixed(1)} µs per request`);

await Promise.all([memory.close(), redis.close()]);

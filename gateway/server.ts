import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openStore } from '../src/store/index.ts';
import type { Store } from '../src/domain/store/port.ts';
import { flushUsage } from '../src/domain/comms/usage.ts';
import { createApp } from './app.ts';
import { configureCommsFor } from './comms/configure.ts';
import { startCommsWorkers, type CommsWorkers } from './comms/workers.ts';
import { bootstrapIfEmpty, type Bootstrapped } from './bootstrap.ts';
import type { Config } from './config.ts';
import { createLogger, type Logger } from './logger.ts';
import { metrics } from './metrics.ts';
import { createRateLimiter, rateLimitMiddleware, type RateLimiter } from './ratelimit/index.ts';

export interface RunningServer {
  url: string;
  store: Store;
  server: Server;
  limiter: RateLimiter;
  bootstrapped: Bootstrapped | null;
  comms: CommsWorkers;
  close(): Promise<void>;
}

/**
 * Opens the store, builds the gateway and listens. `close` drains: the listener closes at once
 * (new connections are refused), requests still arriving on open connections get 503
 * `unavailable` with `Connection: close`, calls in flight finish (cut after SHUTDOWN_TIMEOUT_MS),
 * then the workers, the limiter and the store close.
 */
export async function startServer(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const store = await openStore(config);
  configureCommsFor(store, config);
  const limiter: RateLimiter = createRateLimiter({
    redisUrl: config.redisUrl, limit: config.rateLimit.limit, windowMs: config.rateLimit.windowMs,
    logger: { warn: (msg) => logger.warn(msg), info: (msg) => logger.info(msg) },
  });
  let draining = false;
  const app = createApp({ config, store, logger }, {
    draining: () => draining,
    meter: rateLimitMiddleware(limiter, (ctx) => ctx.state.principal?.key_id ?? undefined),
    readiness: [{
      name: 'rate_limiter',
      // Degraded (in-process fallback) still serves, so it is reported but does not fail readiness.
      check: async () => {
        const s = limiter.status();
        return { ok: true, ...s, detail: s.healthy ? `${s.backend} limiter` : `redis unreachable, in-process fallback since ${s.degraded_since}` };
      },
    }],
    metrics: () => metrics.render(),
  });
  const server = createServer({
    // A client trickling its headers or its body is cut off after these (408, connection closed),
    // so it cannot hold a socket and its buffers for long; Node checks them every second.
    headersTimeout: config.http.headersTimeoutMs,
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(config.http.headersTimeoutMs / 4))),
  }, app.callback());
  // Over the cap, Node closes a new connection at once without an answer; 0 means no cap.
  if (config.http.maxConnections > 0) server.maxConnections = config.http.maxConnections;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    await abandon(limiter, store);
    throw error;
  }
  // Only once the port is ours: a first start that cannot listen (the port taken) must not leave a
  // workspace behind whose one key was never shown, for the next start would find data and no key.
  let bootstrapped: Bootstrapped | null;
  try {
    bootstrapped = await bootstrapIfEmpty(store, config.keyPrefix, config.ownerEmail);
  } catch (error) {
    // Connections may have opened since listen (a health checker's keep-alive): cut them, or the
    // failed start would wait for their timeout.
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await abandon(limiter, store);
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const comms = startCommsWorkers(store, config, logger);
  let closing: Promise<void> | null = null;
  return {
    url, store, server, limiter, bootstrapped, comms,
    close: () => {
      closing ??= (async () => {
        draining = true;
        await new Promise<void>((resolve) => {
          const cut = setTimeout(() => {
            logger.warn('shutdown: calls still running after the shutdown timeout were cut', { timeout_ms: config.http.shutdownTimeoutMs });
            server.closeAllConnections();
          }, config.http.shutdownTimeoutMs);
          server.close(() => {
            clearTimeout(cut);
            resolve();
          });
          server.closeIdleConnections();
        });
        await comms.stop();
        await flushUsage(store).catch((error) => logger.warn('usage counts could not be written at shutdown', { error: String(error) }));
        await limiter.close();
        await store.close();
      })();
      return closing;
    },
  };
}

/** Closes what a start that failed had opened; the start's own error is the one to report. */
async function abandon(limiter: RateLimiter, store: Store): Promise<void> {
  await limiter.close().catch(() => undefined);
  await store.close().catch(() => undefined);
}

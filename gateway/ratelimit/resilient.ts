/**
 * Redis first, the in-process log while Redis is unavailable. A failed or timed-out Redis call
 * switches every following call to the fallback at once (one warn line per outage, the error
 * counter, the degraded gauge); a PING probe and ioredis' `ready` event switch back (one info
 * line). The client never queues commands while offline and never resends them after a
 * reconnect: a late or replayed hit would count a call twice.
 *
 * While degraded each replica meters on its own, so N replicas admit up to N × limit; serving
 * on is preferred to refusing every call because Redis is down. Each replica's fallback log holds
 * the calls it admitted through Redis as well, so an outage goes on from those, not from zero.
 */
import { Redis } from 'ioredis';
import { metrics as defaultMetrics, type Counter, type Gauge, type MetricsRegistry } from '../metrics.ts';
import { MemoryRateLimiter } from './memory.ts';
import { RedisRateLimiter } from './redis.ts';
import { assertCount, type LimiterStatus, type RateDecision, type RateLimiter, type RateLimitLogger, type RateTake, type TakeOptions } from './types.ts';

export interface ResilientRateLimiterOptions {
  redisUrl: string;
  limit: number;
  windowMs: number;
  logger: RateLimitLogger;
  /** Defaults to the process-wide registry served at /metrics. */
  metrics?: MetricsRegistry;
  /** A Redis call slower than this is an outage; default 250 ms. */
  commandTimeoutMs?: number;
  /** How long the first connection may take before calls use the fallback; default 1 s. */
  connectTimeoutMs?: number;
  /** How often a degraded limiter PINGs Redis; default 1 s. */
  probeIntervalMs?: number;
}

type State = 'starting' | 'healthy' | 'degraded';

export class ResilientRateLimiter implements RateLimiter {
  readonly backend = 'redis' as const;
  private readonly client: Redis;
  private readonly primary: RedisRateLimiter;
  private readonly fallback: MemoryRateLimiter;
  private readonly logger: RateLimitLogger;
  private readonly errors: Counter;
  private readonly degradedGauge: Gauge;
  private readonly probeIntervalMs: number;
  private readonly started: Promise<void>;
  private state: State = 'starting';
  private degradedSince: Date | undefined;
  /** Bumped on recovery, so a call that failed before it cannot start a new outage. */
  private epoch = 0;
  private probeTimer: NodeJS.Timeout | undefined;
  private probing = false;
  private closed = false;

  constructor(options: ResilientRateLimiterOptions) {
    const connectTimeoutMs = options.connectTimeoutMs ?? 1000;
    this.client = new Redis(options.redisUrl, {
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: connectTimeoutMs,
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 1,
      retryStrategy: (times) => Math.min(times * 100, 1000),
    });
    this.primary = new RedisRateLimiter(this.client, options);
    this.fallback = new MemoryRateLimiter(options);
    this.logger = options.logger;
    this.probeIntervalMs = options.probeIntervalMs ?? 1000;
    const registry = options.metrics ?? defaultMetrics;
    this.errors = registry.counter('crm_ratelimit_redis_errors_total', 'Rate-limit calls whose Redis command failed or timed out and were answered by the in-process fallback.');
    this.degradedGauge = registry.gauge('crm_ratelimit_degraded', '1 while the rate limiter meters on its in-process fallback because Redis is unavailable, else 0.');
    this.degradedGauge.set(0);

    // Connection errors repeat on every reconnect attempt; the outage is reported once, by degrade().
    this.client.on('error', () => {});
    this.client.on('ready', () => this.recover());
    // Calls made before the first connection settles wait for it instead of failing over.
    this.started = new Promise<void>((resolve) => {
      const settle = (err?: unknown): void => {
        clearTimeout(timer);
        if (err !== undefined && this.state === 'starting') this.degrade(err);
        resolve();
      };
      const timer = setTimeout(() => settle(new Error(`no connection within ${connectTimeoutMs} ms`)), connectTimeoutMs);
      timer.unref();
      this.client.once('ready', () => settle());
      this.client.once('error', (err: unknown) => settle(err));
    });
  }

  async hit(keyId: string, now?: number): Promise<RateDecision> {
    return (await this.take(keyId, 1, now === undefined ? {} : { now })).decision;
  }

  async take(keyId: string, count: number, options: TakeOptions = {}): Promise<RateTake> {
    assertCount(count); // a caller's mistake, not an outage
    if (this.state === 'starting') await this.started;
    if (this.state === 'healthy') {
      const epoch = this.epoch;
      try {
        const taken = await this.primary.take(keyId, count, options);
        // The fallback keeps this replica's admitted calls too: an outage (a command timeout under
        // load is one) then meters on from them, where an empty log let a whole new limit through.
        if (taken.admitted > 0) this.fallback.record(keyId, taken.admitted, options.now);
        return taken;
      } catch (err) {
        this.errors.inc();
        if (epoch === this.epoch) this.degrade(err);
      }
    }
    return this.fallback.take(keyId, count, options);
  }

  status(): LimiterStatus {
    const status: LimiterStatus = { backend: 'redis', healthy: this.state === 'healthy' };
    if (this.degradedSince) status.degraded_since = this.degradedSince.toISOString();
    return status;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.probeTimer);
    this.client.disconnect();
    await this.fallback.close();
  }

  private degrade(err: unknown): void {
    if (this.state === 'degraded' || this.closed) return;
    this.state = 'degraded';
    this.degradedSince = new Date();
    this.degradedGauge.set(1);
    const reason = err instanceof Error ? err.message : String(err);
    this.logger.warn(`rate limiter: Redis unavailable (${reason}); metering on the in-process limiter until it is back`);
    this.probeTimer = setInterval(() => void this.probe(), this.probeIntervalMs);
    this.probeTimer.unref();
  }

  private recover(): void {
    if (this.closed) return;
    if (this.state === 'starting') {
      this.state = 'healthy';
      return;
    }
    if (this.state !== 'degraded') return;
    const seconds = ((Date.now() - (this.degradedSince?.getTime() ?? Date.now())) / 1000).toFixed(1);
    clearInterval(this.probeTimer);
    this.probeTimer = undefined;
    this.state = 'healthy';
    this.degradedSince = undefined;
    this.epoch += 1;
    this.degradedGauge.set(0);
    this.logger.info(`rate limiter: Redis is back after ${seconds} s; metering is shared again`);
  }

  /** Covers outages without a reconnect (a stalled server): the connection stays up, PING tells. */
  private async probe(): Promise<void> {
    if (this.probing || this.client.status !== 'ready') return;
    this.probing = true;
    try {
      await this.client.ping();
      this.recover();
    } catch {
      // still down; the next tick tries again
    } finally {
      this.probing = false;
    }
  }
}

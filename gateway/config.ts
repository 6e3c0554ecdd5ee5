import { resolve } from 'node:path';
import { z } from 'zod';

/** Configuration from the environment (README.md, "Configuration"), validated once at start-up. */
const schema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATA_DIR: z.string().min(1).default('./data'),
  STORE: z.enum(['sqlite', 'neo4j']).optional(),
  NEO4J_URI: z.string().regex(/^(neo4j|bolt)(\+s|\+ssc)?:\/\/\S+$/, 'must look like bolt://host:7687 or neo4j://host:7687').optional(),
  NEO4J_USER: z.string().default('neo4j'),
  NEO4J_PASSWORD: z.string().optional(),
  NEO4J_DATABASE: z.string().default('neo4j'),
  REDIS_URL: z.string().regex(/^rediss?:\/\/\S+$/, 'must look like redis://host:6379').optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  BRIDGE_RESPONSE_SHAPE: z.enum(['envelope', 'plain']).default('envelope'),
  KEY_PREFIX: z.string().regex(/^[a-z][a-z0-9]{1,15}$/, 'must be 2-16 lower-case letters or digits, starting with a letter').default('crm'),
  ALLOWED_ORIGINS: z.string().default(''),
  ALLOWED_HOSTS: z.string().default(''),
  SMTP_URL: z.string().regex(/^smtps?:\/\/\S+$/, 'must look like smtp://user:password@host:587').optional(),
  SECRETS_KEY: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes), e.g. from `openssl rand -hex 32`').optional(),
  OWNER_EMAIL: z.string().regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address').optional(),
  SUPPORT_EMAIL: z.string().regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address').optional(),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z.enum(['true', 'false']).default('false'),
  COMMS_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  COMMS_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(30_000),
  COMMS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(10).max(120_000).default(10_000),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(100 * 1_048_576).default(1_048_576),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(65_000),
  MAX_CONNECTIONS: z.coerce.number().int().min(0).max(1_000_000).default(2048),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(25_000),
});

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  store: 'sqlite' | 'neo4j';
  neo4j: { uri: string; user: string; password: string | undefined; database: string } | null;
  redisUrl: string | undefined;
  rateLimit: { limit: number; windowMs: number };
  bridgeShape: 'envelope' | 'plain';
  keyPrefix: string;
  allowedOrigins: string[];
  /** Host header values MCP accepts beside the bound address and loopback names (lower case). */
  allowedHosts: string[];
  smtpUrl: string | undefined;
  secretsKey: string | undefined;
  supportEmail: string | undefined;
  /** The Owner created on a first start (OWNER_EMAIL or `crm serve --owner-email`). */
  ownerEmail: string | undefined;
  /** Outbound delivery (email outbox, webhooks): polling, retry backoff base, attempts before `failed`. */
  comms: { pollMs: number; retryBaseMs: number; maxAttempts: number; allowPrivateNetworks: boolean; webhookTimeoutMs: number };
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  bodyLimitBytes: number;
  /** Slow-client and shutdown bounds (see README, configuration): 0 connections means no cap. */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number; maxConnections: number; shutdownTimeoutMs: number };
  restPrefix: string;
  mcpPrefix: string;
}

export class ConfigError extends Error {}

const SECRET_VARS = new Set(['SECRETS_KEY', 'SMTP_URL', 'NEO4J_PASSWORD']);

/** Reads and checks the environment; a bad value fails with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(defined);
  if (!parsed.success) {
    // Values of secret variables are never echoed, not even malformed ones.
    const shown = (name: string) => (SECRET_VARS.has(name) ? '<hidden>' : JSON.stringify(defined[name] ?? ''));
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}=${shown(String(i.path[0]))}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const store = e.STORE ?? (e.NEO4J_URI ? 'neo4j' : 'sqlite');
  if (store === 'neo4j' && !e.NEO4J_URI) throw new ConfigError('invalid configuration:\n  STORE=neo4j needs NEO4J_URI (e.g. bolt://localhost:7687)');
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir: resolve(e.DATA_DIR),
    store,
    neo4j: e.NEO4J_URI ? { uri: e.NEO4J_URI, user: e.NEO4J_USER, password: e.NEO4J_PASSWORD, database: e.NEO4J_DATABASE } : null,
    redisUrl: e.REDIS_URL,
    rateLimit: { limit: e.RATE_LIMIT_PER_MINUTE, windowMs: e.RATE_LIMIT_WINDOW_MS },
    bridgeShape: e.BRIDGE_RESPONSE_SHAPE,
    keyPrefix: e.KEY_PREFIX,
    allowedOrigins: e.ALLOWED_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean),
    allowedHosts: e.ALLOWED_HOSTS.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean),
    smtpUrl: e.SMTP_URL,
    secretsKey: e.SECRETS_KEY,
    supportEmail: e.SUPPORT_EMAIL,
    ownerEmail: e.OWNER_EMAIL,
    comms: {
      pollMs: e.COMMS_POLL_MS, retryBaseMs: e.COMMS_RETRY_BASE_MS, maxAttempts: e.COMMS_MAX_ATTEMPTS,
      allowPrivateNetworks: e.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true', webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    },
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    http: {
      // Node requires headersTimeout <= requestTimeout; a smaller request timeout pulls it down.
      headersTimeoutMs: Math.min(e.HEADERS_TIMEOUT_MS, e.REQUEST_TIMEOUT_MS), requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS, maxConnections: e.MAX_CONNECTIONS, shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    },
    restPrefix: '/v1',
    mcpPrefix: '/mcp',
  };
}

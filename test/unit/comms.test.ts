import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../gateway/config.ts';
import { signature } from '../../gateway/comms/webhooks.ts';
import { nextAttemptAt } from '../../gateway/comms/retry.ts';
import { addressList } from '../../src/domain/comms/addresses.ts';
import { isPrivateAddress } from '../../src/domain/comms/network.ts';
import { decryptSecret, encryptSecret } from '../../src/domain/comms/secrets.ts';
import { toUtc } from '../../src/domain/comms/times.ts';
import { verifySignature } from '../e2e/loopback.ts';

const KEY = Buffer.alloc(32, 7);

describe('configuration of outbound traffic', () => {
  it('stops start-up on a malformed SECRETS_KEY without echoing it', () => {
    const attempt = () => loadConfig({ SECRETS_KEY: 'not-hex-and-too-short-secret' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/SECRETS_KEY=<hidden>: must be 64 hex characters/);
    expect(() => attempt()).not.toThrow(/not-hex-and-too-short-secret/);
  });

  it('accepts a 64-hex-character key and reads the delivery settings', () => {
    const config = loadConfig({ SECRETS_KEY: 'ab'.repeat(32), WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', COMMS_MAX_ATTEMPTS: '2', SUPPORT_EMAIL: 'help@example.com' });
    expect(config.comms).toMatchObject({ allowPrivateNetworks: true, maxAttempts: 2 });
    expect(config.supportEmail).toBe('help@example.com');
  });
});

describe('secrets at rest', () => {
  it('round-trips through AES-256-GCM and never stores the plaintext', () => {
    const sealed = encryptSecret(KEY, 'hunter2-hunter2', 'int_1');
    expect(sealed).not.toContain('hunter2');
    expect(decryptSecret(KEY, sealed, 'int_1')).toBe('hunter2-hunter2');
  });

  it('refuses a ciphertext moved to another integration or read with another key', () => {
    const sealed = encryptSecret(KEY, 'hunter2-hunter2', 'int_1');
    expect(() => decryptSecret(KEY, sealed, 'int_2')).toThrow(/could not be decrypted/);
    expect(() => decryptSecret(Buffer.alloc(32, 8), sealed, 'int_1')).toThrow(/could not be decrypted/);
  });
});

describe('meeting times', () => {
  it('reads a local time in its IANA zone, across daylight saving', () => {
    expect(toUtc('2027-01-15T09:00', 'starts_at', 'America/New_York')).toBe('2027-01-15T14:00:00.000Z');
    expect(toUtc('2027-07-15T09:00', 'starts_at', 'America/New_York')).toBe('2027-07-15T13:00:00.000Z');
    expect(toUtc('2027-07-15T09:00:00+02:00', 'starts_at', undefined)).toBe('2027-07-15T07:00:00.000Z');
    // A time the spring-forward change skips moves forward by the gap (02:30 EST is 03:30 EDT);
    // one the fall-back change repeats is its first occurrence (01:30 EDT, not EST).
    expect(toUtc('2026-03-08T02:30', 'starts_at', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
    expect(toUtc('2026-03-08T03:30', 'starts_at', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
    expect(toUtc('2026-03-08T01:59', 'starts_at', 'America/New_York')).toBe('2026-03-08T06:59:00.000Z');
    expect(toUtc('2026-11-01T01:30', 'starts_at', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    expect(toUtc('2026-11-01T02:00', 'starts_at', 'America/New_York')).toBe('2026-11-01T07:00:00.000Z');
    expect(toUtc('2026-03-29T02:30', 'starts_at', 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z');
    expect(toUtc('2026-10-25T02:30', 'starts_at', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z');
    // A zone whose offset is not whole hours, and one without DST.
    expect(toUtc('2026-06-01T09:00', 'starts_at', 'Asia/Kathmandu')).toBe('2026-06-01T03:15:00.000Z');
    expect(toUtc('2026-06-01T09:00', 'starts_at', 'Asia/Tokyo')).toBe('2026-06-01T00:00:00.000Z');
    expect(toUtc('2027-07-15T09:00:00+0200', 'starts_at', undefined)).toBe('2027-07-15T07:00:00.000Z');
  });

  it('refuses impossible dates and local times without a zone', () => {
    expect(() => toUtc('2027-02-30T09:00', 'starts_at', 'UTC')).toThrow(/ISO-8601/);
    // Neither with an offset nor as wall-clock time does a day or time that does not exist roll over.
    for (const bad of ['2026-02-30T10:00:00Z', '2026-11-31T00:00:00Z', '2026-12-01T10:61:00Z', '2026-12-01T10:00:00+25:00', '2026-12-01T10:61', '2026-12-01T24:00', '2026-12-01T10:00:60']) {
      expect(() => toUtc(bad, 'from', 'UTC'), bad).toThrow(/ISO-8601/);
    }
    expect(() => toUtc('2027-02-10T09:00', 'ends_at', undefined)).toThrow(/time_zone/);
  });
});

describe('addresses and networks', () => {
  it('names the bad address by its index', () => {
    expect(() => addressList(['a@example.com', 'b@'], 'cc')).toThrow(/cc\[1\]/);
    expect(addressList('Ana@Example.COM', 'to')).toEqual(['Ana@example.com']);
  });

  it('knows loopback, private and link-local addresses, v4, v6 and v4-mapped', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '::1', 'fe80::1', 'fd00::1', '::ffff:10.0.0.1']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '2606:4700::1111']) expect(isPrivateAddress(a), a).toBe(false);
  });
});

describe('webhook signatures and backoff', () => {
  it('signs "<t>.<body>" so a receiver with the secret can verify it, and only then', () => {
    const header = signature('s3cret-s3cret-s3cret', '{"a":1}', 1_700_000_000);
    expect(header).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
    expect(verifySignature(header, '{"a":1}', 's3cret-s3cret-s3cret')).toBe(true);
    expect(verifySignature(header, '{"a":2}', 's3cret-s3cret-s3cret')).toBe(false);
  });

  it('doubles the wait after each failed attempt', () => {
    const policy = { baseMs: 1000, maxAttempts: 5 };
    expect([1, 2, 3].map((n) => Date.parse(nextAttemptAt(policy, n, 0)))).toEqual([1000, 2000, 4000]);
  });
});

describe('an SMTP error text every member can read', () => {
  it('masks the relay URL, any URL credentials and the relay user and password', async () => {
    const { withoutCredentials } = await import('../../gateway/comms/mail.ts');
    const url = 'smtp://mailer:s3cr%40t@relay.example.com:587';
    expect(withoutCredentials(`failed at ${url}`, url)).toBe('failed at <SMTP URL>');
    expect(withoutCredentials('login smtp://mailer:s3cr@t@relay.example.com refused', url)).not.toMatch(/s3cr|mailer/);
    expect(withoutCredentials('535 auth failed for mailer with s3cr@t', url)).toBe('535 auth failed for <credentials> with <credentials>');
  });
});

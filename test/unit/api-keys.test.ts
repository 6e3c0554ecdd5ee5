import { describe, expect, it } from 'vitest';
import { checksum, generateKey, hashKey, inspectKey, KEY_PATTERN, sameHash } from '../../src/domain/api-keys.ts';

describe('API key format', () => {
  it('generates keys whose random part is base62 with a matching checksum', () => {
    for (let i = 0; i < 200; i++) {
      const { key, hash, last_four } = generateKey('crm');
      expect(key).toMatch(KEY_PATTERN);
      expect(key.slice('crm_live_'.length)).toMatch(/^[0-9A-Za-z]{46}$/);
      expect(inspectKey(key)).toEqual({ ok: true, prefix: 'crm', legacy: false });
      expect(hash).toBe(hashKey(key));
      expect(last_four).toBe(key.slice(-4));
    }
  });

  it('never generates the same key twice in a thousand tries', () => {
    expect(new Set(Array.from({ length: 1000 }, () => generateKey('crm').key)).size).toBe(1000);
  });

  it('refuses every one-character typo of a key by its checksum', () => {
    const { key } = generateKey('crm');
    const start = 'crm_live_'.length;
    for (let i = start; i < key.length; i++) {
      const typo = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
      expect(inspectKey(typo)).toEqual({ ok: false, reason: 'checksum' });
    }
  });

  it('refuses a truncated, extended or dashed key as malformed', () => {
    const { key } = generateKey('crm');
    for (const bad of [key.slice(0, -1), `${key}x`, `${key.slice(0, -2)}-x`, 'crm_live_', '', 'nonsense']) {
      expect(inspectKey(bad).ok).toBe(false);
    }
  });

  it('accepts a legacy base64url key by shape alone', () => {
    expect(inspectKey(`crm_live_${'a-_B'.repeat(10)}xyz`)).toEqual({ ok: true, prefix: 'crm', legacy: true });
  });

  it('encodes the checksum as six zero-padded base62 digits', () => {
    expect(checksum('')).toBe('000000');
    expect(checksum('abc')).toMatch(/^[0-9A-Za-z]{6}$/);
    expect(checksum('abc')).not.toBe(checksum('abd'));
  });

  it('compares hashes in constant time and only equal digests match', () => {
    expect(sameHash(hashKey('a'), hashKey('a'))).toBe(true);
    expect(sameHash(hashKey('a'), hashKey('b'))).toBe(false);
    expect(sameHash(hashKey('a'), 'abcd')).toBe(false);
  });
});

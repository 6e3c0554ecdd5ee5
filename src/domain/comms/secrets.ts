import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { CrmError } from '../errors.ts';

/**
 * Integration secrets at rest: AES-256-GCM with a fresh 96-bit nonce per value, stored as
 * `v1:<nonce>:<tag>:<ciphertext>` (base64url parts). The additional data binds a ciphertext to its
 * integration id, so one integration's secret cannot be pasted into another's config.
 */
const VERSION = 'v1';

export function encryptSecret(key: Buffer, plaintext: string, boundTo: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(boundTo, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, nonce, cipher.getAuthTag(), body].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join(':');
}

/** The plaintext; `internal_error` (never the value) when the key is wrong or the value was altered. */
export function decryptSecret(key: Buffer, sealed: string, boundTo: string): string {
  const [version, nonce, tag, body] = sealed.split(':');
  if (version !== VERSION || !nonce || !tag || body === undefined) throw new CrmError('internal_error', 'a stored secret has an unknown format');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
    decipher.setAAD(Buffer.from(boundTo, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch (cause) {
    throw new CrmError('internal_error', 'a stored secret could not be decrypted; was SECRETS_KEY changed?', undefined, { cause });
  }
}

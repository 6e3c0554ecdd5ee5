import type { IncomingMessage } from 'node:http';
import { CrmError } from '../src/domain/errors.ts';

/**
 * Reads a JSON request body with a size limit. An empty body is `{}` (a tool without
 * parameters); anything that is not JSON is a validation_error on `body`.
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) throw tooLarge(limit);
  const type = req.headers['content-type'];
  if (type && !/^application\/([a-z.+-]*\+)?json\b/i.test(type)) {
    throw new CrmError('validation_error', `Content-Type must be application/json, got ${JSON.stringify(type)}`, { param: 'content-type', rule: 'media_type' });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CrmError('validation_error', `the request body is not valid JSON: ${(err as Error).message}`, { param: 'body', rule: 'json' });
  }
}

function tooLarge(limit: number): CrmError {
  return new CrmError('payload_too_large', `the request body is larger than ${limit} bytes`, { limit });
}

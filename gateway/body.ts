import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import { CrmError, type ErrorDetails } from '../src/domain/errors.ts';
import { escapable, escapedJson } from './json-escape.ts';

/**
 * Reads a JSON request body with a size limit. An empty body is `{}` (a tool without
 * parameters); anything that is not JSON is a validation_error on `body`. A body declared as
 * another type (text/plain, a form) is HTTP's 415, as on /graphql: the body is not read as JSON
 * whatever it holds. No Content-Type at all is read as JSON (a bare fetch or http.request sends none; curl -d sends a form type, and needs -H 'Content-Type: application/json').
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = req.headers['content-type'];
  const refusal = type && !/^application\/([a-z.+-]*\+)?json\b/i.test(type)
    ? new UnsupportedMediaType(`Content-Type must be application/json, got ${JSON.stringify(type.slice(0, 100))}`, {
      param: 'content-type', rule: 'media_type', allowed: ['application/json'],
    })
    : null;
  const text = utf8Text(await readBodyBytes(req, limit, refusal)).trim();
  if (!text) return {};
  try {
    return parseJson(text);
  } catch (err) {
    throw new CrmError('validation_error', `the request body is not valid JSON: ${(err as Error).message}`, { param: 'body', rule: 'json' });
  }
}

/**
 * A JSON body's text. JSON travels as UTF-8 (RFC 8259), and bytes that are not (a Latin-1 "é")
 * would decode to U+FFFD and be stored damaged for good, so such a body is refused, naming body.
 */
export function utf8Text(bytes: Buffer): string {
  if (!isUtf8(bytes)) {
    throw new CrmError('validation_error', 'the request body is not UTF-8 text: send JSON encoded as UTF-8', { param: 'body', rule: 'utf8' });
  }
  return bytes.toString('utf8');
}

/**
 * A body this many times over the limit is refused without reading the rest (the 413 closes the
 * connection); a smaller excess is read and discarded first, so that the client, still uploading,
 * receives the 413 instead of a reset connection.
 */
const DRAIN_FACTOR = 32;

/**
 * A body in a form this server does not read: HTTP's 415, answered by the error middleware in each
 * edge's own error shape with the code validation_error (and `headers` set on the answer). Not a
 * CrmError on purpose: a validation_error from the body reader means a malformed body, which MCP
 * answers as a JSON-RPC parse error with 400.
 */
export class UnsupportedMediaType extends Error {
  readonly status = 415;

  constructor(message: string, readonly details: ErrorDetails, readonly headers: Readonly<Record<string, string>> = {}) {
    super(message);
    this.name = 'UnsupportedMediaType';
  }
}

/**
 * Bodies are read as sent: a Content-Encoding other than identity (gzip, br, ...) is refused
 * rather than decoded. Decoding would add a decompression step whose output each edge would have
 * to bound (a few kilobytes of gzip inflate to gigabytes), to save bandwidth on bodies of at most
 * BODY_LIMIT_BYTES, and no client of ours compresses requests. Ignoring the header, as before,
 * parsed gzip bytes as JSON and took a plain body labelled br as if the label were not there.
 */
function encodingRefusal(req: IncomingMessage): UnsupportedMediaType | null {
  const coding = req.headers['content-encoding'];
  if (coding === undefined) return null;
  // Node joins repeated Content-Encoding lines with commas, as a list of codings.
  const plain = coding.split(',').every((c) => /^\s*(identity)?\s*$/i.test(c));
  if (plain) return null;
  return new UnsupportedMediaType(
    `Content-Encoding ${JSON.stringify(coding.slice(0, 64))} is not supported: send the body uncompressed, without Content-Encoding`,
    { param: 'content-encoding', rule: 'media_type', allowed: ['identity'] },
    { 'Accept-Encoding': 'identity' },
  );
}

/**
 * The raw request body, or payload_too_large once it passes `limit` bytes. Never buffers past the
 * limit. A body in a Content-Encoding other than identity is UnsupportedMediaType, and so is one
 * the caller refuses for its type (`refused`), each after being drained like an excess, unbuffered,
 * so the client still sending it receives the answer.
 */
export function readBodyBytes(req: IncomingMessage, limit: number, refused: UnsupportedMediaType | null = null): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > limit * DRAIN_FACTOR) return reject(tooLarge(limit));
    const refusal = encodingRefusal(req) ?? refused;
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err: Error | null) => {
      req.off('data', onData).off('end', onEnd).off('error', onError);
      if (err) {
        req.pause();
        reject(err);
      } else {
        resolve(Buffer.concat(chunks));
      }
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        if (!refusal) chunks.push(chunk);
      } else if (size > limit * DRAIN_FACTOR) {
        done(tooLarge(limit));
      }
    };
    const onEnd = () => done(refusal ?? (size > limit || declared > limit ? tooLarge(limit) : null));
    // A client that goes away mid-body (or is cut off by REQUEST_TIMEOUT_MS) is not a server
    // fault: its call ends as a validation error on `body` instead of an internal_error.
    const onError = (err: NodeJS.ErrnoException) => done(err.code === 'ECONNRESET' || err.message === 'aborted' ? cutOff() : err);
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

function cutOff(): CrmError {
  return new CrmError('validation_error', 'the request body ended before its declared length (the client went away or was too slow)', { param: 'body', rule: 'incomplete' });
}

function tooLarge(limit: number): CrmError {
  return new CrmError('payload_too_large', `the request body is larger than ${limit} bytes`, { limit });
}

/**
 * `__proto__` as a JSON key is an own property after JSON.parse, but any later copy that assigns
 * it (`o[k] = v`, which is how zod and the MCP SDK rebuild objects) would set a prototype and the
 * key would vanish: a filter silently dropped. So it is renamed to a marked key no copier treats
 * specially, and the parameter guard refuses it by its real name, the same on every call style.
 */
const PROTO_MARK = '\u0000proto:';

/** JSON.parse that keeps `__proto__` keys visible as marked own keys (see `unmarkKey`). */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  // The walk costs a visit per value, so it runs only when the key may be present. It uses its
  // own stack, not recursion: a JSON reviver overflows the call stack on deep nesting.
  if (!text.includes('__proto__') && !text.includes('\\u')) return value;
  const stack: unknown[] = [value];
  while (stack.length) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Object.hasOwn(node, '__proto__')) {
      const inner = (node as Record<string, unknown>)['__proto__'];
      delete (node as Record<string, unknown>)['__proto__'];
      Object.defineProperty(node, `${PROTO_MARK}__proto__`, { value: inner, enumerable: true, writable: true, configurable: true });
    }
    for (const child of Object.values(node)) stack.push(child);
  }
  return value;
}

/** The key as the caller wrote it: undoes the marking of `parseJson`. */
export function unmarkKey(key: string): string {
  return key.startsWith(PROTO_MARK) ? key.slice(PROTO_MARK.length) : key;
}

/**
 * Sets a JSON answer as its UTF-8 bytes. Given a string, Koa measures its byte length and the
 * socket then encodes it again: two passes over every character, which for an answer of hundreds
 * of kilobytes (a deep graph.query) cost more than the write itself. Keeps a Content-Type already
 * set; otherwise application/json.
 */
export function sendJson(ctx: Context, json: string): void {
  if (!ctx.response.get('Content-Type')) ctx.type = 'application/json';
  ctx.body = utf8Bytes(json);
}

/**
 * Texts shorter than this are encoded by Buffer.from, which is as fast for them. Past it the scratch
 * wins for texts with characters beyond Latin-1 (a record answer with one en dash is one): 2.7
 * against 4.0 µs at 4,500 characters, 1.4 against 2.1 at 2,500, while texts of Latin-1 only cost
 * the same either way (within 5%).
 */
export const SCRATCH_FROM = 2 * 1024;
/** The scratch buffer never grows past this (texts of up to a third as many characters use it). */
const SCRATCH_MAX = 4 * 1024 * 1024;
let scratch = Buffer.allocUnsafeSlow(0);

/** The scratch buffer, grown first when it holds fewer than `bytes` (at most SCRATCH_MAX). */
function scratchOf(bytes: number): Buffer {
  if (scratch.length < bytes) scratch = Buffer.allocUnsafeSlow(Math.min(SCRATCH_MAX, Math.max(bytes, 2 * scratch.length)));
  return scratch;
}

/**
 * The UTF-8 bytes of a text. Buffer.from measures a large text's UTF-8 length in one pass and
 * encodes it in a second; this encodes once into a reused scratch buffer big enough for any text of
 * that length (at most 3 bytes per UTF-16 unit) and copies the bytes out: 0.34 against 0.41 ms for
 * a 170 KB graph.query answer whose names go beyond Latin-1. The scratch is never handed out: the
 * copy is the caller's.
 */
export function utf8Bytes(text: string): Buffer {
  const worst = 3 * text.length;
  if (text.length < SCRATCH_FROM || worst > SCRATCH_MAX) return Buffer.from(text, 'utf8');
  const buffer = scratchOf(worst);
  const size = buffer.write(text, 0, 'utf8');
  const bytes = Buffer.allocUnsafe(size);
  buffer.copy(bytes, 0, 0, size);
  return bytes;
}

/**
 * The UTF-8 bytes of `head + JSON.stringify(json) + mid + json + tail`, where `json` is a JSON
 * text. An MCP result carries the same JSON twice, once as a string (the text block) and once as a
 * value (structuredContent). The text is encoded once, and its escaped copy is made from those
 * bytes by a WebAssembly escaper (json-escape.ts), 16 bytes at a time: V8's JSON.stringify of the
 * text (Node 20) took ~22 instructions a byte, 113k of the 144k instructions an MCP
 * `records.get` cost beyond REST's. A text too long for the escaper's memory is serialised as the
 * description says.
 */
export function embeddedJsonBytes(head: string, json: string, mid: string, tail: string): Buffer {
  if (!escapable(json)) return Buffer.from(head + JSON.stringify(json) + mid + json + tail, 'utf8');
  const { memory, bytes, from, to } = escapedJson(json);
  const headBytes = Buffer.byteLength(head);
  const midBytes = Buffer.byteLength(mid);
  const out = Buffer.allocUnsafe(headBytes + 1 + (to - from) + 1 + midBytes + bytes + Buffer.byteLength(tail));
  let at = out.write(head, 0, 'utf8');
  out[at++] = QUOTE;
  at += memory.copy(out, at, from, to);
  out[at++] = QUOTE;
  at += out.write(mid, at, 'utf8');
  at += memory.copy(out, at, 0, bytes);
  out.write(tail, at, 'utf8');
  return out;
}

const QUOTE = 0x22;

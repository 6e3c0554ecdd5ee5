import { WASM } from './wasm/json-escape.wasm.ts';

/**
 * The escape of a JSON text as a JSON string (gateway/wasm/json-escape.wat), run on the text's
 * UTF-8 bytes in the module's own memory: the text is encoded once into it, escaped beside it,
 * and the caller copies both out of `memory` before the next call.
 */
const instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(WASM, 'base64')));
const wasmMemory = instance.exports.memory as WebAssembly.Memory;
const escapeBytes = instance.exports.escape as (n: number, out: number) => number;
const PAGE = 65_536;

/**
 * Texts whose UTF-8 form could pass this many bytes are left to the caller's other path: the
 * module's memory never shrinks, and it holds a text's bytes and up to six times as many escaped
 * (7 MiB at this bound).
 */
export const ESCAPE_MAX_BYTES = 1024 * 1024;

let view = Buffer.from(wasmMemory.buffer);

/** Grows the memory to at least `bytes` and keeps `view` on its current buffer. */
function room(bytes: number): Buffer {
  const short = bytes - wasmMemory.buffer.byteLength;
  if (short > 0) wasmMemory.grow(Math.ceil(short / PAGE));
  if (view.buffer !== wasmMemory.buffer) view = Buffer.from(wasmMemory.buffer);
  return view;
}

/** Where `escapedJson` left its answer: valid until the next call. */
export interface EscapedJson {
  /** The module's memory: the text's UTF-8 bytes at [0, bytes), its escape at [from, to). */
  memory: Buffer;
  bytes: number;
  from: number;
  to: number;
}

/** Whether `escapedJson` takes the text: its UTF-8 form (3 bytes per UTF-16 unit at most) surely fits ESCAPE_MAX_BYTES. */
export function escapable(json: string): boolean {
  return 3 * json.length <= ESCAPE_MAX_BYTES;
}

/**
 * The UTF-8 bytes of `json` and, beside them, the bytes of JSON.stringify(json) without its two
 * quotes, for a text that is `escapable`.
 */
export function escapedJson(json: string): EscapedJson {
  if (!escapable(json)) throw new RangeError(`escapedJson takes texts of up to ${ESCAPE_MAX_BYTES / 3} units`);
  const bytes = room(3 * json.length + 32).write(json, 0, 'utf8');
  // The escape reads up to 15 bytes past the text and writes up to 6 a byte and 15 past its end (json-escape.wat).
  const from = (bytes + 32 + 15) & ~15;
  const memory = room(from + 6 * bytes + 32);
  return { memory, bytes, from, to: escapeBytes(bytes, from) };
}

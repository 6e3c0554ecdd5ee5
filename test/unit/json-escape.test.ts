import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ESCAPE_MAX_BYTES, escapedJson } from '../../gateway/json-escape.ts';

/** What escapedJson stands for: the text's UTF-8 bytes, and JSON.stringify's string form of it without the quotes. */
function expected(json: string): { bytes: Buffer; escaped: Buffer } {
  const quoted = Buffer.from(JSON.stringify(json), 'utf8');
  return { bytes: Buffer.from(json, 'utf8'), escaped: quoted.subarray(1, quoted.length - 1) };
}

function actual(json: string): { bytes: Buffer; escaped: Buffer } {
  const { memory, bytes, from, to } = escapedJson(json);
  return { bytes: Buffer.from(memory.subarray(0, bytes)), escaped: Buffer.from(memory.subarray(from, to)) };
}

/** Characters that take each path of the escaper: plain, quote, backslash, the controls with short and long escapes, DEL, two- to four-byte UTF-8. */
const TRICKY = ['a', '{', ' ', '"', '\\', '\b', '\t', '\n', '\f', '\r', '\u0000', '\u0001', '\u000b', '\u001f', '\u007f', 'é', '–', '東', '🚀', '\u2028'];

describe('escapedJson (the WebAssembly escaper)', () => {
  it('escapes every byte a JSON string escapes, at every place in and around a 16-byte block', () => {
    for (let code = 0; code < 0x80; code++) {
      for (let length = 1; length <= 40; length++) {
        for (let at = 0; at < length; at++) {
          const text = 'x'.repeat(at) + String.fromCharCode(code) + 'y'.repeat(length - at - 1);
          const got = actual(text);
          const want = expected(text);
          if (!got.escaped.equals(want.escaped) || !got.bytes.equals(want.bytes)) {
            throw new Error(`0x${code.toString(16)} at ${at} of ${length}: ${got.escaped.toString('latin1')} against ${want.escaped.toString('latin1')}`);
          }
        }
      }
    }
  });

  it('gives JSON.stringify\'s bytes for texts of tricky characters of any length', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(...TRICKY), maxLength: 200 }), (text) => {
      const got = actual(text);
      const want = expected(text);
      expect(got.bytes.equals(want.bytes)).toBe(true);
      expect(got.escaped.equals(want.escaped)).toBe(true);
    }), { numRuns: 3_000 });
  });

  it('gives JSON.stringify\'s bytes for the JSON text of any value', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      const text = JSON.stringify(value);
      expect(actual(text).escaped.equals(expected(text).escaped)).toBe(true);
    }), { numRuns: 2_000 });
  });

  it('grows its memory for a long text and stays right for short ones after it', () => {
    const long = JSON.stringify({ blob: '"\\–\n'.repeat(Math.floor(ESCAPE_MAX_BYTES / 3 / 8)) });
    expect(3 * long.length).toBeLessThanOrEqual(ESCAPE_MAX_BYTES);
    for (const text of ['{"a":"b"}', long, '{"c":"\\"d\\""}', '']) {
      const got = actual(text);
      expect(got.escaped.equals(expected(text).escaped)).toBe(true);
      expect(got.bytes.equals(expected(text).bytes)).toBe(true);
    }
  });

  it('refuses a text past its bound, which callers serialise another way', () => {
    expect(() => escapedJson('x'.repeat(ESCAPE_MAX_BYTES / 3 + 1))).toThrow(RangeError);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { SCRATCH_FROM, utf8Bytes } from '../../gateway/body.ts';

/** A JSON-like text of about `length` UTF-16 units, repeating `unit`. */
const textOf = (length: number, unit: string): string => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

describe('utf8Bytes', () => {
  // Sizes below, at and past the scratch threshold and past the scratch's bound (4 MiB bytes).
  const sizes = [0, 1, SCRATCH_FROM - 1, SCRATCH_FROM, SCRATCH_FROM + 1, 8 * 1024, 70_000, 1_398_101, 1_398_102, 1_600_000];
  const units = {
    ascii: '{"name":"Acme"},',
    'latin-1': '{"name":"Café Müller"},',
    'beyond latin-1': '{"name":"Acme – Renewal"},',
    'astral (surrogate pairs)': '{"name":"Rocket 🚀"},',
  };

  for (const [kind, unit] of Object.entries(units)) {
    it(`gives Buffer.from's bytes for ${kind} text of every size`, () => {
      for (const size of sizes) {
        const text = textOf(size, unit);
        const bytes = utf8Bytes(text);
        expect(bytes.equals(Buffer.from(text, 'utf8')), `${kind}, ${size} units`).toBe(true);
      }
    });
  }

  it('makes its first scratch big enough for three bytes per unit', async () => {
    vi.resetModules();
    const fresh = (await import('../../gateway/body.ts')).utf8Bytes;
    const text = '–'.repeat(9_000);
    expect(fresh(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  it('encodes a lone surrogate as U+FFFD, as Buffer.from does', () => {
    const text = textOf(20_000, 'ab–') + '\ud800' + textOf(20_000, 'x');
    expect(utf8Bytes(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });

  it('hands out bytes of its own: a later call does not change an earlier answer', () => {
    const first = textOf(50_000, 'first – ');
    const a = utf8Bytes(first);
    const b = utf8Bytes(textOf(60_000, 'second — '));
    expect(a.toString('utf8')).toBe(first);
    expect(a.buffer === b.buffer && a.byteOffset === b.byteOffset).toBe(false);
    expect(a.length).toBe(Buffer.byteLength(first));
  });
});

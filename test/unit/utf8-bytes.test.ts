import { describe, expect, it, vi } from 'vitest';
import { embeddedJsonBytes, SCRATCH_FROM, utf8Bytes } from '../../gateway/body.ts';

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

describe('embeddedJsonBytes', () => {
  /** What it stands for: the JSON text as a string, then as itself, between the given parts. */
  const expected = (head: string, json: string, mid: string, tail: string): Buffer => Buffer.from(head + JSON.stringify(json) + mid + json + tail, 'utf8');
  const HEAD = '{"result":{"content":[{"type":"text","text":';
  const MID = '}],"structuredContent":';
  const TAIL = '},"jsonrpc":"2.0","id":7}';

  const values: Record<string, unknown> = {
    'an empty object': {},
    'quotes and backslashes': { name: 'say "hi" \\ there', path: 'C:\\temp\\"x"', '"key"': '\\' },
    'escaped control characters and lone surrogates': { note: 'line\nbreak\ttab\u0001 bell\u0007', broken: 'a\ud800b\udfffc' },
    'beyond latin-1 and astral text': { name: 'Acme – Renewal 🚀', city: 'Zürich', jp: '東京' },
    'a large answer': { items: Array.from({ length: 3_000 }, (_, i) => ({ id: `rec_${i}`, name: `Deal "${i}" – \\ ${'é'.repeat(i % 7)}` })) },
    'past the scratch bound': { blob: '"–'.repeat(800_000) },
  };

  for (const [kind, value] of Object.entries(values)) {
    it(`gives the same bytes as serialising the string for ${kind}`, () => {
      const json = JSON.stringify(value);
      const bytes = embeddedJsonBytes(HEAD, json, MID, TAIL);
      expect(bytes.equals(expected(HEAD, json, MID, TAIL))).toBe(true);
      // Both copies read back as the value.
      const parsed = JSON.parse(bytes.toString('utf8')) as { result: { content: Array<{ text: string }>; structuredContent: unknown } };
      expect(parsed.result.content[0]!.text).toBe(json);
      expect(parsed.result.structuredContent).toEqual(value);
    });
  }

  it('takes parts beyond latin-1 around the text', () => {
    const json = JSON.stringify({ a: '"b"' });
    const tail = `},"jsonrpc":"2.0","id":${JSON.stringify('id – 🚀 \ud800')}}`;
    expect(embeddedJsonBytes('{"é":', json, ',"–":', tail).equals(expected('{"é":', json, ',"–":', tail))).toBe(true);
  });

  it('escapes a raw control character as JSON.stringify does (a text JSON.stringify never writes)', () => {
    for (const text of ['{"a":"x\ty\n\u0000"}', '{"a":"tab\there"}', '{"a":"\u001f"}']) expect(embeddedJsonBytes(HEAD, text, MID, TAIL).equals(expected(HEAD, text, MID, TAIL))).toBe(true);
  });

  it('hands out bytes of its own', () => {
    const first = JSON.stringify({ name: 'first – '.repeat(2_000) });
    const a = embeddedJsonBytes(HEAD, first, MID, TAIL);
    const copy = Buffer.from(a);
    embeddedJsonBytes(HEAD, JSON.stringify({ name: 'second — '.repeat(3_000) }), MID, TAIL);
    expect(a.equals(copy)).toBe(true);
  });
});

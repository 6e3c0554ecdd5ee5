import { describe, expect, it } from 'vitest';
import { MARKDOWN_MAX_DEPTH, MarkdownError, renderMarkdown } from '../../src/domain/comms/markdown.ts';

const list = (levels: number) => Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}- level ${i + 1}`).join('\n');
const quote = (levels: number) => `${'>'.repeat(levels)} deep`;
const emphasis = (levels: number) => `${'*a '.repeat(levels)}x${' a*'.repeat(levels)}`;
const links = (levels: number) => `${'[a '.repeat(levels)}x${'](u)'.repeat(levels)}`;

async function refusal(source: string): Promise<MarkdownError> {
  const error = await renderMarkdown(source).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(MarkdownError);
  return error as MarkdownError;
}

describe('rendering markdown off the event loop', () => {
  it.each([['lists', list], ['block quotes', quote], ['emphasis', emphasis]])(`renders %s nested ${MARKDOWN_MAX_DEPTH} deep and refuses one level more with max_depth`, async (_what, shape) => {
    expect(await renderMarkdown(shape(MARKDOWN_MAX_DEPTH))).toContain('<');
    expect((await refusal(shape(MARKDOWN_MAX_DEPTH + 1))).rule).toBe('max_depth');
  });

  it('renders links nested as deep as marked allows them', async () => {
    expect(await renderMarkdown(links(MARKDOWN_MAX_DEPTH))).toContain('<a href="u">');
  });

  it('refuses a body past the time bound with render_time, then renders the one queued behind it in a fresh worker', async () => {
    const [slow, next] = await Promise.allSettled([renderMarkdown('*a'.repeat(50_000)), renderMarkdown('**bold**')]);
    expect(slow).toMatchObject({ status: 'rejected', reason: { rule: 'render_time' } });
    expect(next).toEqual({ status: 'fulfilled', value: '<p><strong>bold</strong></p>\n' });
  });

  it('keeps the event loop free while a body renders', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    expect((await refusal('*a'.repeat(50_000))).rule).toBe('render_time');
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(50);
  });
});

describe('rendering for several callers at once', () => {
  it("renders one caller's bodies one at a time, so its slow ones do not hold up another's", async () => {
    const slow = '*a'.repeat(50_000);
    const settled: string[] = [];
    const note = (label: string) => (value: unknown) => { settled.push(label); return value; };
    const hostile = [1, 2, 3].map((n) => renderMarkdown(slow, 'ws_hostile').then(note(`slow ${n}`), note(`slow ${n}`)));
    const other = renderMarkdown('**hello**', 'ws_other').then(note('other'));
    expect(await other).toContain('<strong>hello</strong>');
    await Promise.all(hostile);
    expect(settled.indexOf('other')).toBeLessThan(settled.indexOf('slow 2'));
  }, 20_000);
});

import { describe, expect, it } from 'vitest';
import { ProgressRenderer } from '../../gateway/csv/progress.ts';

function fake(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, write: (s: string) => chunks.push(s) } };
}

describe('the import progress renderer', () => {
  it('redraws one bar line on a terminal, once per whole percent, and ends the line when done', () => {
    const { chunks, stream } = fake(true);
    const bar = new ProgressRenderer(stream);
    bar.update({ fraction: 0.5, rows: 50, imported: 49, rejected: 1 });
    bar.update({ fraction: 0.501, rows: 51, imported: 50, rejected: 1 });
    bar.done({ fraction: 1, rows: 100, imported: 98, rejected: 2 });
    expect(chunks).toEqual([
      `\r[${'#'.repeat(15)}${'-'.repeat(15)}]  50%  50 rows, 49 imported, 1 rejected`,
      `\r[${'#'.repeat(30)}] 100%  100 rows, 98 imported, 2 rejected`,
      '\n',
    ]);
  });

  it('writes plain lines at each tenth when not on a terminal', () => {
    const { chunks, stream } = fake(false);
    const lines = new ProgressRenderer(stream);
    for (let i = 1; i <= 25; i++) lines.update({ fraction: i / 100, rows: i, imported: i, rejected: 0 });
    expect(chunks).toEqual(['progress 10%: 10 rows read, 10 imported, 0 rejected\n', 'progress 20%: 20 rows read, 20 imported, 0 rejected\n']);
    expect(chunks.join('')).not.toContain('\r');
  });
});

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

/** Tracked sources and docs; benchmark results are recorded output, not prose. */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && !f.startsWith('bench/results/') && /\.(ts|js|md|json|cypher|yml|yaml|sh)$|(^|\/)Dockerfile$/.test(f));
}

// Built from parts so this file does not name them itself.
const OUTSIDE_DOCS = new RegExp(['DESIGN', 'SPEC', 'STYLE'].map((n) => `\\b${n}\\.md\\b`).join('|'));

describe('the repository stands alone', () => {
  it('reads the tracked files (so the check below can fail)', () => {
    expect(trackedFiles()).toContain('README.md');
    expect(OUTSIDE_DOCS.test(`see ${'DESIGN'}.md §4`)).toBe(true);
  });

  it('sends no reader to design, spec or style documents that are not in the repository', () => {
    const offenders = trackedFiles().flatMap((file) =>
      readFileSync(`${root}${file}`, 'utf8').split('\n').flatMap((line, i) => (OUTSIDE_DOCS.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
    expect(offenders).toEqual([]);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../gateway/config.ts';
import { ownerEmailFor } from '../../gateway/commands/serve.ts';
import { createWorkspace } from '../../src/domain/services/settings.ts';
import { openStore } from '../../src/store/index.ts';

const dirs: string[] = [];
const config = (env: Record<string, string> = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'crm-owner-'));
  dirs.push(dir);
  return loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', ...env });
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A fake terminal: what the user types, and everything written to the screen. */
function terminal(typed: string, isTTY = true) {
  const input = Object.assign(new PassThrough(), { isTTY });
  const output = Object.assign(new PassThrough(), { isTTY });
  let screen = '';
  output.on('data', (c: Buffer) => { screen += c.toString(); });
  input.end(typed);
  return { term: { input, output }, screen: () => screen };
}

describe('the first start\'s Owner email', () => {
  it('takes --owner-email over OWNER_EMAIL without asking', async () => {
    const { term, screen } = terminal('');
    expect(await ownerEmailFor(config({ OWNER_EMAIL: 'env@x.test' }), 'flag@x.test', term)).toBe('flag@x.test');
    expect(await ownerEmailFor(config({ OWNER_EMAIL: 'env@x.test' }), undefined, term)).toBe('env@x.test');
    expect(screen()).toBe('');
  });

  it('asks on a terminal until the answer is an email', async () => {
    const { term, screen } = terminal('not mail\nme@company.test\n');
    expect(await ownerEmailFor(config(), undefined, term)).toBe('me@company.test');
    expect(screen()).toContain('that is not an email address');
  });

  it('does not ask off a terminal, nor when the store already has a workspace', async () => {
    expect(await ownerEmailFor(config(), undefined, terminal('me@company.test\n', false).term)).toBeUndefined();
    const used = config();
    const store = await openStore(used);
    await createWorkspace(store, { name: 'Existing' });
    await store.close();
    const { term, screen } = terminal('me@company.test\n');
    expect(await ownerEmailFor(used, undefined, term)).toBeUndefined();
    expect(screen()).toBe('');
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkReadable, checkWritable, fileSystemError } from '../../gateway/commands/paths.ts';

const dir = mkdtempSync(join(tmpdir(), 'crm-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the command line\'s file checks', () => {
  it('passes a readable file and a writable new or existing one', async () => {
    const file = join(dir, 'a.csv');
    writeFileSync(file, 'x');
    await expect(checkReadable(file, 'the file', 'file')).resolves.toBeUndefined();
    await expect(checkWritable(file, 'the file', 'out')).resolves.toBeUndefined();
    await expect(checkWritable(join(dir, 'new.jsonl'), 'the file', 'out')).resolves.toBeUndefined();
  });

  it('names the path and the reason of a file that is missing, a directory, or under a file', async () => {
    const file = join(dir, 'plain');
    writeFileSync(file, 'x');
    await expect(checkReadable(join(dir, 'gone'), 'the file', 'file')).rejects.toMatchObject({ code: 'validation_error', message: `cannot read the file "${join(dir, 'gone')}": it does not exist`, details: { param: 'file', rule: 'readable' } });
    await expect(checkWritable(dir, 'the file', 'out')).rejects.toThrow('it is a directory, not a file');
    await expect(checkWritable(join(file, 'x'), 'the file', 'out')).rejects.toThrow(`cannot write the file "${join(file, 'x')}": a part of the path is not a directory`);
  });

  it('turns a file-system error met later into one printable error, and leaves other errors alone', async () => {
    const missing = await readFile(join(dir, 'gone')).catch((err: unknown) => err);
    expect(fileSystemError(missing)).toMatchObject({ code: 'validation_error', message: `cannot open "${join(dir, 'gone')}": it does not exist`, details: { errno: 'ENOENT' } });
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
    expect(fileSystemError(full)).toMatchObject({ code: 'unavailable', message: 'cannot write: no space is left on the device' });
    expect(fileSystemError(new TypeError('x is undefined'))).toBeNull();
    expect(fileSystemError(Object.assign(new Error('bad'), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }))).toBeNull();
  });
});

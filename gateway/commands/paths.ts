import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CrmError } from '../../src/domain/errors.ts';

/**
 * Files the commands read and write are checked before any work starts, so that a mistyped path
 * is one line naming the path and why (`crm: validation_error: cannot read the CSV file …: it does
 * not exist`), exit 1, not a stack trace after a half-done job.
 */

/** Refuses `path` unless it is a file this process may read. `what` names it in the message. */
export async function checkReadable(path: string, what: string, param: string): Promise<void> {
  let reason: string | null = null;
  try {
    if ((await stat(path)).isDirectory()) reason = 'it is a directory, not a file';
    else await access(path, constants.R_OK);
  } catch (err) {
    reason = reasonOf(err);
  }
  if (reason) throw new CrmError('validation_error', `cannot read ${what} ${JSON.stringify(path)}: ${reason}`, { param, rule: 'readable' });
}

/** Refuses `path` unless this process may create it, or write over it when it exists. */
export async function checkWritable(path: string, what: string, param: string): Promise<void> {
  let reason: string | null = null;
  const dir = dirname(resolve(path));
  try {
    const existing = await stat(path).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : Promise.reject(err)));
    if (existing?.isDirectory()) reason = 'it is a directory, not a file';
    else if (existing) await access(path, constants.W_OK);
    else if (!(await stat(dir).catch(() => null))?.isDirectory()) reason = `its directory ${JSON.stringify(dir)} does not exist`;
    else await access(dir, constants.W_OK);
  } catch (err) {
    reason = reasonOf(err);
  }
  if (reason) throw new CrmError('validation_error', `cannot write ${what} ${JSON.stringify(path)}: ${reason}`, { param, rule: 'writable' });
}

/** Errors that say the path given cannot be used, as opposed to the machine failing (a full disk). */
const PATH_ERRORS = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS', 'ELOOP', 'ENAMETOOLONG', 'EEXIST']);

/**
 * A file-system error some command met after its checks (the file went away meanwhile, the disk
 * filled up) as a CrmError to print in one line; null for anything else.
 */
export function fileSystemError(err: unknown): CrmError | null {
  const e = err as NodeJS.ErrnoException | null;
  if (!(e instanceof Error) || typeof e.code !== 'string' || typeof e.syscall !== 'string') return null;
  const where = typeof e.path === 'string' ? ` ${JSON.stringify(e.path)}` : '';
  const message = `cannot ${e.syscall}${where}: ${reasonOf(e)}`;
  const details = { ...(typeof e.path === 'string' ? { path: e.path } : {}), errno: e.code };
  return new CrmError(PATH_ERRORS.has(e.code) ? 'validation_error' : 'unavailable', message, details);
}

function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT': return 'it does not exist';
    case 'ENOTDIR': return 'a part of the path is not a directory';
    case 'EISDIR': return 'it is a directory, not a file';
    case 'EACCES':
    case 'EPERM': return 'permission denied';
    case 'EROFS': return 'the file system is read-only';
    case 'ENOSPC': return 'no space is left on the device';
    case 'ENAMETOOLONG': return 'the path is too long';
    case 'ELOOP': return 'the path has a loop of symbolic links';
    default: return code ? `${code} (${(err as Error).message})` : String((err as Error).message ?? err);
  }
}

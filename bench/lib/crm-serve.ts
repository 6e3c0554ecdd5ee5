import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CRM = fileURLToPath(new URL('../../bin/crm.js', import.meta.url));

/** `crm serve` in a child process, as an operator runs it: killed and restarted by tests, loaded by the soak. */
export interface ServerChild {
  url: string;
  /** The key printed on the first start of an empty store; undefined on a restart. */
  key: string | undefined;
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `crm serve` on a free port and waits until it prints where it serves. */
export async function startChild(env: Record<string, string>): Promise<ServerChild> {
  const proc = spawn(process.execPath, [CRM, 'serve'], {
    env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '1000000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  // Only the tail is kept: a long run at LOG_LEVEL=info writes a line per call.
  proc.stderr!.on('data', (b: Buffer) => (err = (err + b.toString()).slice(-65_536)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      // The key line comes after the URL on a first start; wait for the whole banner.
      const m = /crm serving on (\S+)/.exec(out);
      if (m && (out.includes('GraphQL') && (!out.includes('First start') || /CRM_API_KEY=\S+\n/.test(out)))) resolve(m[1]!);
    });
    void exited.then((e) => reject(new Error(`crm serve exited early (${e.code ?? e.signal}): ${err}`)));
  });
  return { url, key: /CRM_API_KEY=(\S+)/.exec(out)?.[1], proc, stdout: () => out, stderr: () => err, exited };
}

import { createInterface } from 'node:readline';
import { openStore } from '../../src/store/index.ts';
import { PLACEHOLDER_OWNER_EMAIL } from '../bootstrap.ts';
import type { Config } from '../config.ts';
import { storeLabel } from './store-label.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Where the first-start question is asked: the process's terminal, or a test's streams. */
export interface Terminal {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * The Owner's email for a first start: `--owner-email`, else OWNER_EMAIL, else (on a terminal, when
 * the store is still empty) a question; undefined leaves the placeholder, which the start says.
 */
export async function ownerEmailFor(config: Config, flag: string | undefined, term: Terminal = { input: process.stdin, output: process.stdout }): Promise<string | undefined> {
  const given = flag ?? config.ownerEmail;
  if (given !== undefined) return given;
  if (!term.input.isTTY || !term.output.isTTY) return undefined;
  const store = await openStore(config);
  const empty = (await store.listWorkspaces().finally(() => store.close())).length === 0;
  if (!empty) return undefined;
  const prompt = 'First start: the email of the workspace Owner: ';
  term.output.write(prompt);
  const rl = createInterface({ input: term.input, terminal: false });
  try {
    for await (const line of rl) {
      const answer = line.trim();
      if (EMAIL.test(answer)) return answer;
      term.output.write(`  that is not an email address (name@example.com)\n${prompt}`);
    }
    // End of input (Ctrl-D) without an answer: keep the placeholder.
    term.output.write('\n');
    return undefined;
  } finally {
    rl.close();
  }
}

/** Starts the server, prints where it listens and how to get a key, and stops on SIGINT/SIGTERM. */
export async function serve(config: Config, ownerEmailFlag: string | undefined): Promise<void> {
  const ownerEmail = await ownerEmailFor(config, ownerEmailFlag);
  // The server and tool stack load only for this command: settings commands stay quick.
  const { startServer } = await import('../server.ts');
  const running = await startServer({ ...config, ownerEmail });
  const { url } = running;
  // The banner goes out in one write, so a supervisor reading the pipe sees it and the first key together.
  let banner = '';
  const say = (text: string) => {
    banner += text;
  };
  say(`crm serving on ${url} (store: ${storeLabel(config)})\n`);
  say(`  per-tool REST  POST ${url}${config.restPrefix}/<category>/<action>\n  REST bridge    POST ${url}${config.mcpPrefix}/api/developers/mcp/call/\n  MCP            POST ${url}${config.mcpPrefix}/\n  GraphQL        POST ${url}/graphql\n`);
  const boot = running.bootstrapped;
  if (boot) {
    say(`\nFirst start: created workspace ${boot.workspace_id} with its Owner ${boot.owner_email} and this API key (shown once):\n\n  export CRM_API_KEY=${boot.key}\n\n`);
    if (boot.owner_email === PLACEHOLDER_OWNER_EMAIL) say(`The Owner's email is a placeholder: next time start with --owner-email you@company.com (or OWNER_EMAIL).\n`);
  } else {
    const workspaces = await running.store.listWorkspaces();
    const ws = workspaces.length === 1 ? workspaces[0]!.id : '<workspace id>';
    say(`\nExisting data (${workspaces.length} workspace${workspaces.length === 1 ? '' : 's'}). Lost the key? Create another for the workspace's Owner with:\n\n  crm keys create --workspace ${ws} --name "new key"\n\n(from a checkout: npm run -s crm -- keys create --workspace ${ws} --name "new key"; crm users list --workspace ${ws} shows its users)\n`);
  }
  process.stdout.write(banner);
  // Drains (see startServer) and exits 0; a failure while closing the store exits 1.
  const stop = async (signal: string) => {
    process.stdout.write(`received ${signal}, shutting down\n`);
    try {
      await running.close();
    } catch (err) {
      process.stderr.write(`crm: shutdown failed: ${(err as Error).message}\n`);
      process.exit(1);
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CrmError, isCrmError } from '../src/domain/errors.ts';
import { addUser, createKey, createWorkspace, listKeys, listUsers, parseRole, parseScopes, revokeKey, setBilling } from '../src/domain/services/settings.ts';
import { openStore } from '../src/store/index.ts';
import type { Store } from '../src/domain/store/port.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createLogger, syncStderr } from './logger.ts';
import { serve } from './commands/serve.ts';
import { checkReadable, checkWritable, fileSystemError } from './commands/paths.ts';
import { storeHint } from './commands/store-label.ts';
import { configureCommsFor } from './comms/configure.ts';

const USAGE = `crm — the CRM tool service's command line (README.md, "Command line"). Every command takes --json.

  crm serve [--owner-email E]   (a first start on an empty store creates a workspace, its Owner and a key)
  crm workspace create --name N [--plan P] [--trial-days D]
  crm user add --workspace W --email E --role owner|admin|member [--name N]
  crm users list --workspace W
  crm keys create --workspace W [--user U] --name N [--scopes a,b]   (--user defaults to the workspace's Owner; no --scopes: every tool)
  crm keys list --workspace W
  crm keys revoke --key-id K
  crm billing set --workspace W (--plan P | --trial-ends ISO)   (--plan none clears the plan)
  crm seed demo [--workspace W] [--scale X] [--seed N]   (a demo dataset; prints a key to try it)
  crm call TOOL [JSON] [--key K]   (or CRM_API_KEY)
  crm export --workspace W [--out FILE]   (JSON lines, lossless; stdout without --out)
  crm import [--file FILE]                 (into a store without that workspace; stdin without --file)
  crm import-csv FILE --workspace W --object SLUG [--map "Column=field,Other="]
                   (rows to records; bad rows of people.csv go to people.rejects.csv, with reasons)
  crm migrate   (applies the store's schema: SQLite migrations, or schema/neo4j/*.cypher)

Configuration comes from the environment, as for the server (DATA_DIR, STORE, NEO4J_URI, ...).
Exit codes: 0 done; 1 refused or failed (one line "crm: <code>: <message>" on stderr, or a JSON
object there with --json), e.g. a file that cannot be read or written; 2 a usage or configuration error.`;

/** About a hundred years: a trial end past it is no date JavaScript or the stores can hold. */
const MAX_TRIAL_DAYS = 36_500;

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  plan: { type: 'string' },
  'trial-days': { type: 'string' },
  'trial-ends': { type: 'string' },
  workspace: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  user: { type: 'string' },
  scopes: { type: 'string' },
  'key-id': { type: 'string' },
  out: { type: 'string' },
  file: { type: 'string' },
  key: { type: 'string' },
  scale: { type: 'string' },
  seed: { type: 'string' },
  object: { type: 'string' },
  map: { type: 'string' },
  'owner-email': { type: 'string' },
} as const;

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

class UsageError extends Error {}

function need(values: Values, name: keyof Values): string {
  const v = values[name];
  if (typeof v !== 'string' || !v) throw new UsageError(`--${name} is required`);
  return v;
}

/** Runs one command and returns what to print (an object for --json, lines otherwise). */
async function run(argv: string[], config: Config): Promise<{ json: unknown; text: string } | null> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const v = values as Values;
  const [group, action, ...rest] = positionals;
  // Asked for: the usage is the answer (stdout, exit 0). Not asked for, it explains a mistake.
  if (v.help || group === 'help') return { json: { usage: USAGE }, text: USAGE };
  if (!group) throw new UsageError('');

  if (group === 'serve') {
    await serve(config, v['owner-email']);
    return null;
  }

  const store = await openStore(config);
  // `crm call` queues emails the way the server would; the running server's workers send them.
  configureCommsFor(store, config);
  try {
    return await runWithStore(store, config, group, action, rest, v);
  } finally {
    await store.close();
  }
}

async function runWithStore(store: Store, config: Config, group: string, action: string | undefined, rest: string[], v: Values) {
  // import-csv takes a file, not an action, after its name.
  const cmd = group === 'import-csv' ? group : `${group} ${action ?? ''}`.trim();
  switch (cmd) {
    case 'migrate':
      // openStore already ran init(), which applies pending migrations idempotently.
      return { json: { store: store.kind, migrated: true }, text: `${store.kind} store schema is up to date` };
    case 'export': {
      const { exportToFile } = await import('../src/store/transfer.ts');
      if (v.out) await checkWritable(v.out, 'the export file', 'out');
      const rows = await exportToFile(store, need(v, 'workspace'), v.out ?? null);
      // Without --out the rows went to stdout; the summary then goes to stderr to keep the stream clean.
      if (!v.out) {
        process.stderr.write(`exported ${rows} rows\n`);
        return null;
      }
      return { json: { workspace_id: v.workspace, rows, file: v.out }, text: `exported ${rows} rows to ${v.out}` };
    }
    case 'import': {
      const { importFromFile } = await import('../src/store/transfer.ts');
      if (v.file) await checkReadable(v.file, 'the export file', 'file');
      const { rows } = await importFromFile(store, v.file ?? null);
      return { json: { rows }, text: `imported ${rows} rows` };
    }
    case 'import-csv': {
      if (!action) throw new UsageError('crm import-csv needs the CSV file: crm import-csv FILE --workspace W --object SLUG');
      const { importCsv } = await import('./csv/import.ts');
      // Progress goes to stderr so stdout carries only the result (and stays valid JSON with --json).
      const result = await importCsv(store, { workspaceId: need(v, 'workspace'), objectSlug: need(v, 'object'), file: action, map: v.map, progress: process.stderr });
      const rejects = result.rejects_file ? `; ${result.rejected} rejected rows with reasons in ${result.rejects_file}` : '';
      return { json: result, text: `imported ${result.imported} of ${result.rows} rows into ${v.object}${rejects}` };
    }
    case 'seed demo': {
      const { seedDemo } = await import('./seed/index.ts');
      const scale = v.scale === undefined ? 1 : Number(v.scale);
      const seed = v.seed === undefined ? undefined : Number(v.seed);
      if (!Number.isFinite(scale) || scale <= 0 || scale > 10) throw new UsageError('--scale must be a number above 0, at most 10');
      if (seed !== undefined && !Number.isInteger(seed)) throw new UsageError('--seed must be an integer');
      const result = await seedDemo(store, { ...(v.workspace ? { workspaceId: v.workspace } : {}), scale, ...(seed === undefined ? {} : { seed }), keyPrefix: config.keyPrefix });
      const made = Object.entries(result.counts).map(([k, n]) => `${n} ${k}`).join(', ');
      return { json: result, text: `demo data in workspace ${result.workspace_id}: ${made}\nkey (shown once):\n${result.key}` };
    }
    case 'workspace create': {
      const days = v['trial-days'] === undefined ? undefined : v['trial-days'].trim() === '' ? Number.NaN : Number(v['trial-days']);
      if (days !== undefined && (!Number.isInteger(days) || days < 0 || days > MAX_TRIAL_DAYS)) {
        throw new UsageError(`--trial-days must be a whole number of days from 0 to ${MAX_TRIAL_DAYS}`);
      }
      const ws = await createWorkspace(store, { name: need(v, 'name'), plan: v.plan ?? null, trialDays: days });
      return { json: { workspace_id: ws.id, name: ws.name, plan: ws.plan, trial_ends_at: ws.trial_ends_at }, text: `workspace ${ws.id} created (trial ends ${ws.trial_ends_at ?? 'never'})` };
    }
    case 'user add': {
      const user = await addUser(store, { workspace_id: need(v, 'workspace'), email: need(v, 'email'), name: v.name ?? null, role: parseRole(need(v, 'role')) });
      return { json: { user_id: user.id, email: user.email, role: user.role }, text: `user ${user.id} (${user.email}, ${user.role}) added` };
    }
    case 'users list': {
      const users = await listUsers(store, need(v, 'workspace'));
      const items = users.map((u) => ({ user_id: u.id, email: u.email, name: u.name, role: u.role }));
      return { json: { items }, text: items.map((u) => `${u.user_id}  ${u.role.padEnd(6)}  ${u.email}${u.name ? `  ${u.name}` : ''}`).join('\n') || 'no users' };
    }
    case 'keys create': {
      const workspace = need(v, 'workspace');
      const scopes = parseScopes((v.scopes ?? '').split(','));
      // No scopes is every tool: an empty or unset shell variable must not widen a key to that.
      if (v.scopes !== undefined && scopes.length === 0) throw new UsageError('--scopes names no scope; leave it out for a key that may call every tool');
      const created = await createKey(store, {
        workspace_id: workspace, user_id: v.user ?? await ownerOf(store, workspace), name: need(v, 'name'), scopes, prefix: config.keyPrefix,
      });
      return {
        json: { key_id: created.key_id, key: created.key, scopes: created.api_key.scopes },
        text: `key ${created.key_id} created; it is shown once:\n${created.key}`,
      };
    }
    case 'keys list': {
      const keys = await listKeys(store, need(v, 'workspace'));
      const items = keys.map((k) => ({
        key_id: k.id, name: k.name, user_id: k.user_id, scopes: k.scopes, last_four: k.last_four,
        created_at: k.created_at, last_used_at: k.last_used_at, revoked_at: k.revoked_at,
      }));
      return {
        json: { items },
        text: items.map((k) => `${k.key_id}  …${k.last_four}  ${k.name}  scopes=${k.scopes.join(',') || 'all'}  ${k.revoked_at ? `revoked ${k.revoked_at}` : `last used ${k.last_used_at ?? 'never'}`}`).join('\n') || 'no keys',
      };
    }
    case 'keys revoke': {
      const key = await revokeKey(store, need(v, 'key-id'));
      return { json: { key_id: key.id, revoked_at: key.revoked_at }, text: `key ${key.id} revoked at ${key.revoked_at}` };
    }
    case 'billing set': {
      if (v.plan === undefined && v['trial-ends'] === undefined) throw new UsageError('give --plan P or --trial-ends ISO');
      const ws = await setBilling(store, {
        workspace_id: need(v, 'workspace'),
        ...(v.plan === undefined ? {} : { plan: v.plan }),
        ...(v['trial-ends'] === undefined ? {} : { trial_ends_at: v['trial-ends'] }),
      });
      return { json: { workspace_id: ws.id, plan: ws.plan, trial_ends_at: ws.trial_ends_at }, text: `workspace ${ws.id}: plan ${ws.plan ?? 'none'}, trial ends ${ws.trial_ends_at ?? 'never'}` };
    }
    default:
      if (group === 'call' && action) {
        const key = v.key ?? process.env.CRM_API_KEY;
        if (!key) throw new UsageError('crm call needs --key or CRM_API_KEY');
        if (rest.length > 1) throw new UsageError(`crm call takes one JSON object of parameters; also given: ${rest.slice(1).map((a) => JSON.stringify(a)).join(' ')} (quote the JSON as one argument)`);
        let params: unknown = {};
        if (rest[0] !== undefined) {
          try {
            params = JSON.parse(rest[0]);
          } catch {
            throw new CrmError('validation_error', 'the parameters must be a JSON object', { param: 'params', rule: 'json' });
          }
        }
        const [{ authenticate }, { invokeTool }] = await Promise.all([import('./auth/principal.ts'), import('./tools/invoke.ts')]);
        const principal = await authenticate(store, `Bearer ${key}`, config.keyPrefix);
        const result = await invokeTool(store, principal, 'cli', action, params);
        return { json: result, text: JSON.stringify(result, null, 2) };
      }
      throw new UsageError(`unknown command "${cmd}"`);
  }
}

/** The workspace's Owner (the first, if several), for `keys create` without --user. */
async function ownerOf(store: Store, workspaceId: string): Promise<string> {
  const owner = (await listUsers(store, workspaceId)).find((u) => u.role === 'owner');
  if (!owner) throw new UsageError(`workspace ${workspaceId} has no Owner; pass --user (crm users list --workspace ${workspaceId})`);
  return owner.id;
}

/** Failures that mean "not in this store": the hint names the store the command opened. */
function notInStore(err: CrmError): boolean {
  return err.code === 'unauthorized' || (err.code === 'not_found' && ['workspace', 'user', 'api_key'].includes(String(err.details?.resource)));
}

export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  let config: Config | undefined;
  try {
    config = loadConfig();
    const out = await run(argv, config);
    // Waits for the write: the caller exits right after, which would cut a large answer sent to a pipe.
    if (out) await new Promise<void>((resolve) => process.stdout.write(`${json ? JSON.stringify(out.json) : out.text}\n`, () => resolve()));
    return 0;
  } catch (err) {
    if (err instanceof UsageError || String((err as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      if ((err as Error).message) process.stderr.write(`crm: ${(err as Error).message}\n\n`);
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`crm: ${err.message}\n`);
      return 2;
    }
    // A file that went away after the checks, a disk that filled up: one line too, not a stack.
    const known = isCrmError(err) ? err : fileSystemError(err);
    if (known) {
      const hint = config && notInStore(known) ? storeHint(config) : undefined;
      if (json) process.stderr.write(`${JSON.stringify({ error: known.message, code: known.code, ...(known.details ? { details: known.details } : {}), ...(hint ? { hint } : {}) })}\n`);
      else process.stderr.write(`crm: ${known.code}: ${known.message}\n${hint ? `crm: ${hint}\n` : ''}`);
      return 1;
    }
    createLogger('error', syncStderr()).error('crm failed', { error: (err as Error).stack ?? String(err) });
    return 1;
  }
}

/**
 * Whether the command line is `serve` (options may come before it: `crm --owner-email a@b.co
 * serve`), whose server keeps the process alive after main returns: the caller must not exit then.
 */
export function startsServer(argv: string[]): boolean {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: false }).positionals[0] === 'serve';
  } catch {
    return false;
  }
}

const isEntry = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isEntry) {
  const code = await main(process.argv.slice(2));
  if (!startsServer(process.argv.slice(2)) || code !== 0) process.exit(code);
}

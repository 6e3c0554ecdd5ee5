import { Neo4jError } from 'neo4j-driver';
import { beforeAll, describe, expect, it } from 'vitest';
import { CrmError } from '../../src/domain/errors.ts';
import { uniqueClaims } from '../../src/domain/fields.ts';
import { addUser, createKey, createWorkspace, revokeKey } from '../../src/domain/services/settings.ts';
import type { ObjectType } from '../../src/domain/types.ts';
import type { Connection, Row, Tx } from '../../src/store/neo4j/connection.ts';
import { dumpMethods } from '../../src/store/neo4j/dump.ts';
import { fieldValues, searchText } from '../../src/store/neo4j/encoding.ts';
import { translateNeo4jError } from '../../src/store/neo4j/errors.ts';
import { loadMethods } from '../../src/store/neo4j/load.ts';
import { registeredStatements, type BuiltStatement } from '../../src/store/neo4j/statement.ts';
import '../../src/store/neo4j/index.ts';
import { DUMP_ORDER, type DumpRow } from '../../src/domain/store/port-dump.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';
import { canonicalJson } from '../../src/store/transfer.ts';
import { authenticate } from '../../gateway/auth/principal.ts';
import { invokeTool } from '../../gateway/tools/invoke.ts';

/**
 * `dumpWorkspace` and `loadDump` on Neo4j without a server. An in-memory graph answers each
 * registered statement by name; the node and relationship maps a load statement writes are read
 * from the statement's own Cypher text (`CREATE (v:Label {key: expr, …})`) and evaluated against
 * the parameters sent, and dump pages are projected with the keys of the statement's own
 * projection (`v {.key, …}`, a missing property read as null), so what is checked is what the
 * adapter's text says, not a copy of it. A SQLite workspace dumped, loaded here and dumped again
 * must give the same file byte for byte.
 */

// ---------------------------------------------------------------------------------------------
// An in-memory graph that runs the adapter's statements

type Props = Record<string, unknown>;
interface GNode {
  label: string;
  props: Props;
}
interface GEdge {
  type: string;
  from: GNode;
  to: GNode;
  props: Props;
}
type Env = Record<string, unknown>;

const byCypher = new Map(registeredStatements().map((s) => [s.cypher, s]));
const statementNamed = (name: string) => registeredStatements().find((s) => s.name === name)!;

/** The end of the bracket opened at `open` (`{`, `(` or `[`). */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if ('{(['.includes(text[i]!)) depth++;
    else if ('})]'.includes(text[i]!) && --depth === 0) return i;
  }
  throw new Error(`unbalanced brackets in ${text}`);
}

/** Splits at commas outside brackets. */
function topLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if ('{(['.includes(text[i]!)) depth++;
    else if ('})]'.includes(text[i]!)) depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return [...parts, text.slice(start)].map((part) => part.trim()).filter((part) => part !== '');
}

/** The property maps written by CREATE/MERGE in a statement: `(v:Label {…})` by label, `[:TYPE {…}]` by type. */
function writtenMaps(cypher: string): Map<string, Array<[string, string]>> {
  const out = new Map<string, Array<[string, string]>>();
  for (const match of cypher.matchAll(/\((\w*):(\w+) \{|\[\w*:(\w+) \{/g)) {
    const lineStart = cypher.lastIndexOf('\n', match.index) + 1;
    if (!/\b(CREATE|MERGE)\b/.test(cypher.slice(lineStart, match.index))) continue;
    const open = match.index + match[0].length - 1;
    const entries = topLevel(cypher.slice(open + 1, closing(cypher, open))).map((entry): [string, string] => {
      const colon = entry.indexOf(':');
      return [entry.slice(0, colon).trim(), entry.slice(colon + 1).trim()];
    });
    out.set(match[2] ?? match[3]!, entries);
  }
  return out;
}

/** The keys of the projection `variable {.a, .b, …}` in a statement (nested comprehensions left out). */
function projectionKeys(cypher: string, variable: string): string[] {
  const open = cypher.indexOf(`${variable} {.`) + variable.length + 1;
  const body = cypher.slice(open + 1, closing(cypher, open));
  return topLevel(body).filter((part) => part.startsWith('.')).map((part) => part.slice(1));
}

function evaluate(expr: string, env: Env, params: Props): unknown {
  let m: RegExpExecArray | null;
  if ((m = /^toInteger\((.*)\)$/.exec(expr))) return Math.trunc(Number(evaluate(m[1]!, env, params)));
  if (expr === 'true' || expr === 'false') return expr === 'true';
  if (/^-?\d+$/.test(expr)) return Number(expr);
  if ((m = /^'([^']*)'$/.exec(expr))) return m[1];
  if ((m = /^\$(\w+)$/.exec(expr))) return params[m[1]!];
  if ((m = /^(\w+)\.(\w+)$/.exec(expr))) {
    const value = env[m[1]!] as GNode | Props;
    return (('label' in value && 'props' in value ? value.props : value) as Props)[m[2]!] ?? null;
  }
  if ((m = /^(\w+)$/.exec(expr)) && m[1]! in env) return env[m[1]!];
  throw new Error(`the test graph cannot evaluate ${expr}`);
}

/** The properties a map writes: Neo4j stores no nulls. */
function evaluateMap(entries: Array<[string, string]>, env: Env, params: Props): Props {
  return Object.fromEntries(entries.map(([key, expr]) => [key, evaluate(expr, env, params)]).filter(([, value]) => value !== null && value !== undefined));
}

const constraintFailure = (label: string, key: string, value: unknown) =>
  new Neo4jError(`Node(1) already exists with label \`${label}\` and property \`${key}\` = '${String(value)}'`, 'Neo.ClientError.Schema.ConstraintValidationFailed' as never, '22N41', 'error');

/** Labels whose `id` is unique store-wide (schema/neo4j). */
const UNIQUE_IDS = new Set(['Workspace', 'User', 'ApiKey', 'ObjectType', 'Field', 'Record', 'List', 'ListEntry', 'View', 'Note', 'Task', 'Event']);

interface Sent {
  name: string;
  params: Props;
  write: boolean;
}

class Graph {
  nodes: GNode[] = [];
  edges: GEdge[] = [];
  readonly sent: Sent[] = [];
  /** Statements that fail when run, with the error they throw. */
  readonly failures = new Map<string, () => unknown>();
  /** Run every write transaction twice, the first time rolled back, as a managed transaction retried after a transient failure. */
  retryWrites = false;
  writes = 0;
  #writing = false;

  node(label: string, props: Props): GNode {
    if (UNIQUE_IDS.has(label) && this.nodes.some((n) => n.label === label && n.props.id === props.id)) throw constraintFailure(label, 'id', props.id);
    const made = { label, props: structuredClone(props) };
    this.nodes.push(made);
    return made;
  }

  edge(type: string, from: GNode, to: GNode, props: Props = {}): void {
    this.edges.push({ type, from, to, props });
  }

  find(label: string, props: Props): GNode | undefined {
    return this.nodes.find((n) => n.label === label && Object.entries(props).every(([k, v]) => n.props[k] === v));
  }

  all(label: string, workspaceId: string): GNode[] {
    return this.nodes.filter((n) => n.label === label && n.props.workspace_id === workspaceId);
  }

  out(node: GNode, type: string): GEdge[] {
    return this.edges.filter((e) => e.type === type && e.from === node);
  }

  /** A connection whose read and write transactions run here; failures go through the adapter's one translation. */
  conn(): Connection {
    const tx = { rows: (built: BuiltStatement) => this.run(built), first: async (built: BuiltStatement) => (await this.run(built))[0] } as unknown as Tx;
    const ctx = { uri: 'bolt://test:7687', database: 'neo4j' };
    return {
      read: (work: (t: Tx) => Promise<unknown>) => work(tx),
      write: async (work: (t: Tx) => Promise<unknown>, conflict?: (message: string) => CrmError) => {
        this.writes++;
        const saved = { nodes: this.nodes.map((n) => n), props: this.nodes.map((n) => structuredClone(n.props)), edges: [...this.edges] };
        const rollback = () => {
          this.nodes = saved.nodes;
          saved.nodes.forEach((n, i) => { n.props = saved.props[i]!; });
          this.edges = saved.edges;
        };
        this.#writing = true;
        try {
          if (this.retryWrites) {
            await work(tx);
            rollback();
            saved.props = this.nodes.map((n) => structuredClone(n.props));
          }
          return await work(tx);
        } catch (error) {
          rollback();
          throw translateNeo4jError(error, { ...ctx, ...(conflict ? { conflict } : {}) });
        } finally {
          this.#writing = false;
        }
      },
    } as unknown as Connection;
  }

  async run(built: BuiltStatement): Promise<Row[]> {
    const statement = byCypher.get(built.cypher);
    if (!statement) throw new Error(`not a registered statement: ${built.cypher.slice(0, 60)}`);
    this.sent.push({ name: statement.name, params: built.params, write: this.#writing });
    const failure = this.failures.get(statement.name);
    if (failure) throw failure();
    const answer = ANSWERS[statement.name];
    if (!answer) throw new Error(`the test graph does not run ${statement.name}`);
    return answer(this, built.params, writtenMaps(statement.cypher), statement.cypher);
  }
}

type Answer = (g: Graph, params: Props, maps: Map<string, Array<[string, string]>>, cypher: string) => Row[];

/**
 * Creates one node per element of the statement's `UNWIND $<list> AS <variable>` with its map for
 * the label; `then` adds what else the statement writes per element.
 */
const createEach = (label: string, then?: (g: Graph, node: GNode, row: Props, maps: Map<string, Array<[string, string]>>, params: Props) => void): Answer =>
  (g, params, maps, cypher) => {
    const [, list, variable] = /UNWIND \$(\w+) AS (\w+)/.exec(cypher)!;
    for (const row of params[list!] as Props[]) {
      const node = g.node(label, evaluateMap(maps.get(label)!, { [variable!]: row }, params));
      then?.(g, node, row, maps, params);
    }
    return [];
  };

const values = (g: Graph, node: GNode, row: Props, maps: Map<string, Array<[string, string]>>, params: Props) => {
  for (const value of row.values as Props[]) g.edge('HAS_VALUE', node, g.node('FieldValue', evaluateMap(maps.get('FieldValue')!, { value, r: node }, params)));
};

const about = (g: Graph, node: GNode, row: Props, maps: Map<string, Array<[string, string]>>, params: Props) => {
  (row.record_ids as string[]).forEach((id, position) => {
    const record = g.find('Record', { id, workspace_id: params.workspace_id });
    if (record) g.edge('ABOUT', node, record, evaluateMap(maps.get('ABOUT')!, { position }, params));
  });
};

const record = (g: Graph, id: unknown, workspaceId: unknown) => g.find('Record', { id, workspace_id: workspaceId });

/** A page of `label` nodes after the cursor, projected with the statement's own keys. */
const dumpPage = (label: string, variable: string, column: string, extra?: (g: Graph, node: GNode) => Props): Answer => (g, params, _maps, cypher) => {
  const keys = projectionKeys(cypher, variable);
  return g.all(label, String(params.workspace_id))
    .filter((n) => String(n.props.id) > String(params.after))
    .sort((a, b) => (String(a.props.id) < String(b.props.id) ? -1 : 1))
    .slice(0, Number(params.limit))
    .map((n) => ({ [column]: { ...Object.fromEntries(keys.map((k) => [k, structuredClone(n.props[k]) ?? null])), ...extra?.(g, n) } }));
};

const links = (g: Graph, node: GNode) => ({ links: g.out(node, 'ABOUT').map((e) => ({ position: e.props.position, id: e.to.props.id })) });

const ANSWERS: Record<string, Answer> = {
  findWorkspaceForLoad: (g, params) => {
    const w = g.find('Workspace', { id: params.id });
    return w ? [{ loading: w.props.loading !== undefined }] : [];
  },
  loadWorkspace: (g, params, maps) => {
    const seq = g.nodes.filter((n) => n.label === 'Workspace').length;
    g.node('Workspace', evaluateMap(maps.get('Workspace')!, { row: params.workspace, seq }, params));
    return [];
  },
  finishLoad: (g, params) => {
    delete g.find('Workspace', { id: params.id })!.props.loading;
    return [];
  },
  loadUsers: createEach('User'),
  loadApiKeys: createEach('ApiKey'),
  loadObjectTypes: createEach('ObjectType', (g, o, row, maps, params) => {
    for (const f of row.fields as Props[]) g.edge('HAS_FIELD', o, g.node('Field', evaluateMap(maps.get('Field')!, { f, o }, params)));
  }),
  loadRecords: createEach('Record', values),
  loadClaims: (g, params, maps) => {
    for (const claim of params.claims as Props[]) {
      const key = evaluateMap(maps.get('UniqueClaim')!, { claim }, params);
      if (!g.find('UniqueClaim', key)) g.node('UniqueClaim', { ...key, workspace_id: params.workspace_id, record_id: claim.record_id });
    }
    return [];
  },
  missingRecordsForLoad: (g, params) =>
    (params.ids as string[]).flatMap((id, i) => (record(g, id, params.workspace_id) ? [] : [{ i }])),
  checkRelationsForLoad: (g, params) => (params.rows as Props[]).map((row, i) => {
    const a = record(g, row.from_id, params.workspace_id);
    const b = record(g, row.to_id, params.workspace_id);
    const taken = a && b ? g.out(a, 'RELATES_TO').filter((e) => e.to === b && e.props.type === row.type && e.props.source === row.source).length : 0;
    return { i, from_object: a?.props.object_type_slug ?? null, to_object: b?.props.object_type_slug ?? null, taken };
  }),
  loadRelations: (g, params, maps) => {
    for (const row of params.rows as Props[]) {
      g.edge('RELATES_TO', record(g, row.from_id, params.workspace_id)!, record(g, row.to_id, params.workspace_id)!, evaluateMap(maps.get('RELATES_TO')!, { row }, params));
    }
    return [];
  },
  loadLists: createEach('List'),
  loadListEntries: (g, params, maps) => {
    for (const row of params.rows as Props[]) {
      const held = record(g, row.record_id, params.workspace_id)!;
      const entry = g.node('ListEntry', evaluateMap(maps.get('ListEntry')!, { row, held }, params));
      if (g.nodes.some((n) => n !== entry && n.label === 'ListEntry' && n.props.list_id === entry.props.list_id && n.props.record_id === entry.props.record_id)) {
        throw constraintFailure('ListEntry', 'record_id', entry.props.record_id);
      }
      g.edge('ENTRY_OF', entry, held);
      values(g, entry, row, maps, params);
    }
    return [];
  },
  setListEntrySeq: (g, params) => {
    for (const list of params.lists as Props[]) g.find('List', { id: list.id, workspace_id: params.workspace_id })!.props.entry_seq = list.entry_seq;
    return [];
  },
  loadViews: createEach('View'),
  loadReports: createEach('Report'),
  loadNotes: createEach('Note', about),
  loadTasks: createEach('Task', about),
  loadComms: (g, params, maps) => {
    for (const row of params.rows as Props[]) {
      const props = Object.fromEntries(Object.entries(row.props as Props).filter(([, v]) => v !== null && v !== undefined));
      about(g, g.node('Comm', props), row, maps, params);
    }
    return [];
  },
  loadUsage: createEach('Usage'),
  dumpComms: dumpPage('Comm', 't', 'comm', links),
  dumpUsage: (g, params) => g.all('Usage', String(params.workspace_id)).map((n) => ({ ...n.props })),
  writeEvents: createEach('Event', (g, e, row, _maps, params) => {
    for (const id of row.concerns as string[]) {
      const target = record(g, id, params.workspace_id);
      if (target) g.edge('CONCERNS', e, target);
    }
  }),
  purgeWorkspaceBatch: (g, params) => {
    const gone = g.nodes.filter((n) => n.props.workspace_id === params.workspace_id).slice(0, Number(params.batch));
    g.nodes = g.nodes.filter((n) => !gone.includes(n));
    g.edges = g.edges.filter((e) => !gone.includes(e.from) && !gone.includes(e.to));
    return [{ deleted: gone.length }];
  },
  getWorkspace: (g, params, _maps, cypher) => {
    const w = g.find('Workspace', { id: params.id });
    if (!w || w.props.loading !== undefined) return [];
    return [{ workspace: Object.fromEntries(projectionKeys(cypher, 'w').map((k) => [k, w.props[k] ?? null])) }];
  },
  dumpUsers: dumpPage('User', 'u', 'user'),
  dumpApiKeys: dumpPage('ApiKey', 'k', 'key'),
  dumpObjectTypes: (g, params, maps, cypher) => dumpPage('ObjectType', 'o', 'object_type')(g, params, maps, cypher).map((row) => {
    const o = g.find('ObjectType', { id: (row.object_type as Props).id })!;
    const keys = projectionKeys(cypher, 'f');
    return { ...row, fields: g.out(o, 'HAS_FIELD').map((e) => Object.fromEntries(keys.map((k) => [k, e.to.props[k] ?? null]))) };
  }),
  dumpRecords: dumpPage('Record', 'r', 'record'),
  dumpLists: dumpPage('List', 't', 'list'),
  dumpListEntries: dumpPage('ListEntry', 'r', 'entry'),
  dumpViews: dumpPage('View', 't', 'view'),
  dumpReports: dumpPage('Report', 't', 'report'),
  dumpNotes: dumpPage('Note', 't', 'note', links),
  dumpTasks: dumpPage('Task', 't', 'task', links),
  dumpEvents: dumpPage('Event', 'e', 'event'),
  checkLinkEnds: (g, params) => (params.rows as Props[]).map((row, i) => ({
    i, from_found: !!record(g, row.from_id, params.workspace_id), to_found: !!record(g, row.to_id, params.workspace_id),
  })),
  loadLinks: (g, params, maps) => {
    for (const row of params.rows as Props[]) {
      g.edge('RELATES_TO', record(g, row.from_id, params.workspace_id)!, record(g, row.to_id, params.workspace_id)!, evaluateMap(maps.get('RELATES_TO')!, { row }, params));
    }
    return [];
  },
  saveClassifications: (g, params) => {
    for (const item of params.items as Props[]) {
      const r = record(g, item.record_id, params.workspace_id)!;
      Object.assign(r.props, { category: item.category, strength: item.strength, score: Math.trunc(Number(item.score)), reasons: item.reasons, classified_at: item.classified_at });
    }
    return [];
  },
  dumpLinks: (g, params) => g.edges
    .filter((e) => e.type === 'RELATES_TO' && e.props.source === 'link' && e.from.props.workspace_id === params.workspace_id && String(e.props.id) > String(params.after))
    .sort((a, b) => (String(a.props.id) < String(b.props.id) ? -1 : 1))
    .slice(0, Number(params.limit))
    .map((e) => ({
      link: {
        id: e.props.id, workspace_id: e.from.props.workspace_id, from_id: e.from.props.id, to_id: e.to.props.id, type: e.props.type,
        properties: e.props.properties, created_by: e.props.created_by ?? null, created_at: e.props.created_at,
      },
    })),
  dumpClassifications: (g, params) => g.all('Record', String(params.workspace_id))
    .filter((n) => n.props.classified_at !== undefined && String(n.props.id) > String(params.after))
    .sort((a, b) => (String(a.props.id) < String(b.props.id) ? -1 : 1))
    .slice(0, Number(params.limit))
    .map((n) => ({
      classification: {
        record_id: n.props.id, workspace_id: n.props.workspace_id, category: n.props.category, strength: n.props.strength, score: n.props.score,
        reasons: n.props.reasons, classified_at: n.props.classified_at,
      },
    })),
  dumpRelations: (g, params) => {
    const key = (e: GEdge) => [e.from.props.id, e.to.props.id, e.props.type, e.props.source].map(String);
    const cursor = [params.from_id, params.to_id, params.type, params.source].map(String);
    const after = (k: string[]) => k.join('\u0000') > cursor.join('\u0000');
    return g.edges
      .filter((e) => e.type === 'RELATES_TO' && e.props.source === 'field' && e.from.props.workspace_id === params.workspace_id
        && e.to.props.workspace_id === params.workspace_id && after(key(e)))
      .sort((a, b) => (key(a).join('\u0000') < key(b).join('\u0000') ? -1 : 1))
      .slice(0, Number(params.limit))
      .map((e) => ({
        relation: {
          type: e.props.type, source: e.props.source, from_id: e.from.props.id, from_object: e.from.props.object_type_slug,
          to_id: e.to.props.id, to_object: e.to.props.object_type_slug, created_at: e.props.created_at,
        },
      }));
  },
};

// ---------------------------------------------------------------------------------------------
// A SQLite workspace with every kind of row

async function collect(rows: AsyncIterable<DumpRow>): Promise<DumpRow[]> {
  const out: DumpRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

const text = (rows: readonly DumpRow[]) => rows.map(canonicalJson).join('\n');
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

async function populate(store: Store): Promise<string> {
  const ws = await createWorkspace(store, { name: 'Parity', plan: null, trialDays: 14 });
  const owner = await addUser(store, { workspace_id: ws.id, email: 'owner@parity.test', name: 'Owner', role: 'owner' });
  await addUser(store, { workspace_id: ws.id, email: 'member@parity.test', role: 'member' });
  const { key } = await createKey(store, { workspace_id: ws.id, user_id: owner.id, name: 'main', scopes: [], prefix: 'crm' });
  const old = await createKey(store, { workspace_id: ws.id, user_id: owner.id, name: 'old', scopes: ['records', 'lists'], prefix: 'crm' });
  await revokeKey(store, old.key_id);
  const principal = await authenticate(store, `Bearer ${key}`, 'crm');
  const call = (tool: string, params: unknown) => invokeTool(store, principal, 'cli', tool, params) as Promise<any>;

  await call('objects.create', {
    slug: 'projects', name: 'Projects', icon: 'rocket',
    fields: [{ slug: 'name', name: 'Name', type: 'text', required: true }, { slug: 'tags', name: 'Tags', type: 'multi_select', options: ['a', 'b'] }, { slug: 'done', name: 'Done', type: 'checkbox' }],
  });
  await call('objects.update_field', { slug: 'projects', field_slug: 'tags', archived: true });
  // The slug "scratch" reused after a delete, each type with a record claiming the same unique tag.
  const scratch: string[] = [];
  for (const name of ['Scratch', 'Scratch 2']) {
    if (scratch.length > 0) {
      await call('records.delete', { record_id: scratch[0] });
      await call('objects.delete', { slug: 'scratch' }).then(tick);
    }
    await call('objects.create', { slug: 'scratch', name, fields: [{ slug: 'name', name: 'Name', type: 'text' }, { slug: 'tag', name: 'Tag', type: 'text', unique: true }] });
    await tick();
    scratch.push((await call('records.create', { object_type_slug: 'scratch', data: { name, tag: 'x' } })).record_id);
    await tick();
  }

  // Two records sharing a value of `code`, which the dump then calls unique (withUniqueCode): a
  // store written before objects.update_field claimed held values could hold that (it now refuses
  // the flag over duplicates, and the store any write whose claims miss it). The load keeps the
  // claim with the first.
  await call('objects.add_field', { slug: 'companies', field: { slug: 'code', name: 'Code', type: 'text' } });
  const acme = await call('records.create', { object_type_slug: 'companies', data: { name: 'Acme Café', domain: 'https://acme.com/', employee_count: 12, code: 'C' } });
  await call('records.create', { object_type_slug: 'companies', data: { name: 'Twin', code: 'C' } });
  const ada = await call('records.create', { object_type_slug: 'contacts', data: { name: 'Ada Lovelace', email: 'ada@acme.com', company: acme.record_id } });
  const bob = await call('records.create', { object_type_slug: 'contacts', data: { name: 'Bob', email: 'bob@acme.com', company: acme.record_id } });
  const deal = await call('records.create', {
    object_type_slug: 'deals', data: { name: 'Big', amount: 5000.5, stage: 'proposal', company: acme.record_id, contacts: [ada.record_id, bob.record_id], close_date: '2026-12-01' },
  });
  await call('records.create', { object_type_slug: 'projects', data: { name: 'Apollo', done: false } });
  const gone = await call('records.create', { object_type_slug: 'companies', data: { name: 'Gone', domain: 'gone.io' } });
  await call('records.delete', { record_id: gone.record_id });
  await call('records.delete', { record_id: bob.record_id });
  await call('records.delete', { record_id: ada.record_id });
  await call('records.restore', { record_id: ada.record_id });

  const list = await call('lists.create', {
    object_type_slug: 'contacts', name: 'Hot', description: 'warm leads',
    fields: [{ slug: 'stage', name: 'Stage', type: 'status', options: ['new', 'met'] }, { slug: 'rank', name: 'Rank', type: 'number' }],
  });
  await call('lists.bulk_add_entry', { list_id: list.list_id, entries: [{ record_id: ada.record_id, data: { stage: 'met', rank: 2 } }] });
  const deals = await call('lists.create', { object_type_slug: 'deals', name: 'Pipeline', fields: [{ slug: 'stage', name: 'Stage', type: 'status', options: ['lead', 'won'] }] });
  await call('lists.bulk_add_entry', { list_id: deals.list_id, entries: [{ record_id: deal.record_id, data: { stage: 'lead' } }] });
  await call('views.create', { name: 'Big deals', object_type_slug: 'deals', filters: { amount: { gte: 1000 } }, sorts: [{ field: 'amount', ascending: false }] });
  await call('views.create', { name: 'Hot view', object_type_slug: 'contacts', list_id: list.list_id, visible_fields: ['stage'] });
  await call('views.create', { name: 'Tmp', object_type_slug: 'deals' }).then((v) => call('views.delete', { view_id: v.view_id }));
  const note = await call('notes.create', { title: 'Call', body: '# notes', format: 'markdown', kind: 'call', record_ids: [deal.record_id, ada.record_id] });
  await call('notes.create', { title: 'Met', body: 'coffee', record_ids: [] });
  await call('notes.delete', { note_id: note.note_id });
  await call('tasks.create', { title: 'Follow up', due_at: '2026-12-02', record_ids: [deal.record_id, acme.record_id] });
  await call('tasks.create', { title: 'Done already', status: 'done', record_ids: [] });
  await call('reports.create', { name: 'By stage', config: { object_type: 'deals', metric: 'sum', metric_field: 'amount', group_by: 'stage', chart_type: 'bar' } });
  await call('reports.create', { name: 'Tmp', config: { object_type: 'deals', metric: 'count', chart_type: 'number' } }).then((r) => call('reports.delete', { report_id: r.report_id }));
  await call('email.send', { to: 'ada@example.com', subject: 'Proposal', body: '**hi**', body_format: 'markdown', record_ids: [ada.record_id, deal.record_id] });
  await call('messages.send', { channel: 'internal', body: 'signed', record_ids: [deal.record_id] });
  await call('meetings.create', { title: 'Demo', starts_at: '2027-01-01T10:00', ends_at: '2027-01-01T11:00', time_zone: 'Europe/Paris', attendees: [{ record_id: ada.record_id }, { email: 'x@example.com' }] });
  await call('support.create_ticket', { subject: 'Help', body: 'please' });
  await store.addUsage([{ workspace_id: ws.id, period: '2026-11', style: 'rest', count: 3 }, { workspace_id: ws.id, period: '2026-11', style: 'mcp', count: 1 }]);
  // A link beside a field edge with the same ends and type, another to a deleted record, and classifications.
  await call('graph.link', { from_record_id: ada.record_id, to_record_id: acme.record_id, type: 'company', properties: { note: 'twin', n: 2 } });
  const investor = await call('records.create', { object_type_slug: 'contacts', data: { name: 'Ivy' } });
  await call('graph.link', { from_record_id: investor.record_id, to_record_id: acme.record_id, type: 'invested_in' });
  await call('graph.link', { from_record_id: investor.record_id, to_record_id: gone.record_id, type: 'knows' }).catch(() => undefined);
  await call('contacts.classify', {});
  return ws.id;
}

/** The dump with the companies' `code` field unique, as an older store held it over two records sharing a value. */
function withUniqueCode(rows: DumpRow[]): DumpRow[] {
  return rows.map((r) => (r.kind === 'object_type' && r.row.slug === 'companies'
    ? { ...r, row: { ...r.row, fields: r.row.fields.map((f) => (f.slug === 'code' ? { ...f, unique: true } : f)) } }
    : r));
}

let source: DumpRow[];
let workspaceId: string;

beforeAll(async () => {
  const sqlite = createSqliteStore({ path: ':memory:' });
  await sqlite.init();
  try {
    workspaceId = await populate(sqlite);
    source = withUniqueCode(await collect(sqlite.dumpWorkspace(workspaceId)));
  } finally {
    await sqlite.close();
  }
});

function neo4j(g: Graph, opts: { page?: number; batch?: number } = {}) {
  const conn = g.conn();
  return { ...dumpMethods(conn, opts), ...loadMethods(conn, opts) };
}

async function failure(promise: Promise<unknown>): Promise<CrmError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(CrmError);
  return error as CrmError;
}

type RowOf<K extends DumpRow['kind']> = Extract<DumpRow, { kind: K }>['row'];

function rowsOf<K extends DumpRow['kind']>(rows: readonly DumpRow[], kind: K): Array<RowOf<K>> {
  const found: unknown[] = rows.filter((row) => row.kind === kind).map((row) => row.row);
  return found as Array<RowOf<K>>;
}

// ---------------------------------------------------------------------------------------------

describe('a SQLite dump through the Neo4j adapter', () => {
  it('holds every kind of row, deleted and revoked ones included', () => {
    expect(new Set(source.map((row) => row.kind))).toEqual(new Set([
      'workspace', 'user', 'api_key', 'object_type', 'record', 'relation', 'link', 'classification', 'list', 'entry', 'view', 'note', 'task', 'report', 'comm', 'event', 'usage',
    ]));
    expect(rowsOf(source, 'record').some((r) => r.deleted_at !== null)).toBe(true);
    expect(rowsOf(source, 'object_type').some((t) => t.deleted_at !== null && t.fields.length > 0)).toBe(true);
  });

  it.each([
    ['one page and one batch per kind', {}, false],
    ['pages of 2 and batches of 3', { page: 2, batch: 3 }, false],
    ['pages of 1 and batches of 1, every write transaction retried once', { page: 1, batch: 1 }, true],
  ])('loads and dumps back byte for byte: %s', async (_name, opts, retry) => {
    const g = new Graph();
    g.retryWrites = retry;
    const store = neo4j(g, opts);
    expect(await store.loadDump(source)).toEqual({ rows: source.length });
    expect(text(await collect(store.dumpWorkspace(workspaceId)))).toBe(text(source));
  });

  it('loads from an async stream as from an array', async () => {
    const g = new Graph();
    const store = neo4j(g, { batch: 4 });
    async function* stream() {
      yield* source;
    }
    await store.loadDump(stream());
    expect(text(await collect(store.dumpWorkspace(workspaceId)))).toBe(text(source));
  });
});

describe('what a load derives, as the write paths derive it', () => {
  let g: Graph;
  beforeAll(async () => {
    g = new Graph();
    // Every write transaction runs twice, as a retried one would: what is counted must not count twice.
    g.retryWrites = true;
    await neo4j(g, { batch: 5 }).loadDump(source);
  });

  const nodesOf = (label: string) => g.all(label, workspaceId);
  const typeNode = (id: string) => nodesOf('ObjectType').find((n) => n.props.id === id)!;

  it('makes the workspace visible at the end, numbered after the others', () => {
    const [w] = nodesOf('Workspace');
    expect(w!.props).not.toHaveProperty('loading');
    expect(w!.props.seq).toBe(0);
  });

  it('numbers users, keys, object types, lists and views in dump order, and entries within their list', () => {
    for (const label of ['User', 'ApiKey', 'ObjectType', 'List', 'View']) {
      const nodes = nodesOf(label).sort((a, b) => (String(a.props.id) < String(b.props.id) ? -1 : 1));
      expect(nodes.map((n) => n.props.seq), label).toEqual(nodes.map((_n, i) => i));
    }
    for (const list of nodesOf('List')) {
      const entries = nodesOf('ListEntry').filter((e) => e.props.list_id === list.props.id);
      expect(list.props.entry_seq).toBe(entries.length);
      expect(entries.map((e) => e.props.seq)).toEqual(entries.map((_e, i) => i));
    }
  });

  it('keeps live_slug on live object types only, and every field on its type', () => {
    for (const type of rowsOf(source, 'object_type')) {
      const node = typeNode(type.id);
      expect(node.props.live_slug).toBe(type.deleted_at === null ? type.slug : undefined);
      expect(g.out(node, 'HAS_FIELD').map((e) => e.to.props.object_type_id)).toEqual(type.fields.map(() => type.id));
    }
  });

  it('gives live records their FieldValue nodes and search text, deleted ones neither, each record the type it belonged to', () => {
    const types = rowsOf(source, 'object_type');
    for (const r of rowsOf(source, 'record')) {
      const node = nodesOf('Record').find((n) => n.props.id === r.id)!;
      const type = types.find((t) => t.id === node.props.object_type_id)!;
      expect(type.slug).toBe(r.object_type_slug);
      const live = r.deleted_at === null;
      expect(g.out(node, 'HAS_VALUE').map((e) => { const { workspace_id: ws, ...v } = e.to.props; expect(ws).toBe(workspaceId); return v; }))
        .toEqual(live ? fieldValues(r.data).map((v) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null))) : []);
      expect(node.props.search_text).toBe(live ? searchText(workspaceId, type.id, r.data) ?? undefined : undefined);
    }
    const scratch = rowsOf(source, 'record').filter((r) => r.object_type_slug === 'scratch');
    expect(new Set(scratch.map((r) => nodesOf('Record').find((n) => n.props.id === r.id)!.props.object_type_id)).size).toBe(2);
  });

  it('claims the unique values of live records of live object types, a value claimed twice staying with the first record', () => {
    const types = new Map<string, ObjectType>(rowsOf(source, 'object_type').map((t) => [t.id, t]));
    const expected = new Map<string, string>();
    for (const r of rowsOf(source, 'record')) {
      const type = types.get(String(nodesOf('Record').find((n) => n.props.id === r.id)!.props.object_type_id))!;
      if (r.deleted_at !== null || type.deleted_at !== null) continue;
      for (const c of uniqueClaims(type, r.data)) {
        const key = `${type.id} ${c.field} ${c.value}`;
        if (!expected.has(key)) expected.set(key, r.id);
      }
    }
    const claims = new Map(nodesOf('UniqueClaim').map((c) => [`${c.props.object_type_id} ${c.props.field} ${c.props.value}`, String(c.props.record_id)]));
    expect(claims).toEqual(expected);
    expect([...claims.keys()].filter((k) => k.endsWith(' code C'))).toHaveLength(1);
  });

  it('gives entries their record edge and values, notes and tasks their ABOUT edges in order, events their CONCERNS edges', () => {
    for (const e of rowsOf(source, 'entry')) {
      const node = nodesOf('ListEntry').find((n) => n.props.id === e.id)!;
      expect(g.out(node, 'ENTRY_OF').map((x) => x.to.props.id)).toEqual([e.record_id]);
      expect(g.out(node, 'HAS_VALUE')).toHaveLength(fieldValues(e.data).length);
    }
    for (const item of [...rowsOf(source, 'note'), ...rowsOf(source, 'task')]) {
      const node = g.nodes.find((n) => n.props.id === item.id)!;
      expect(g.out(node, 'ABOUT').map((x) => [x.props.position, x.to.props.id])).toEqual(item.record_ids.map((id, i) => [i, id]));
    }
    for (const ev of rowsOf(source, 'event')) {
      const node = nodesOf('Event').find((n) => n.props.id === ev.id)!;
      const records = new Set(rowsOf(source, 'record').map((r) => r.id));
      expect(g.out(node, 'CONCERNS').map((x) => x.to.props.id)).toEqual([...new Set(ev.record_ids)].filter((id) => records.has(id)));
    }
  });
});

describe('the load statements write the properties the create statements write', () => {
  /** Load statement → the normal statement creating the same label, and what later writes add. */
  const PAIRS: Array<[string, string, string, string[]]> = [
    ['loadWorkspace', 'createWorkspace', 'Workspace', ['loading']],
    ['loadUsers', 'createUser', 'User', []],
    ['loadApiKeys', 'createApiKey', 'ApiKey', ['last_used_at', 'revoked_at']],
    ['loadObjectTypes', 'createObjectType', 'ObjectType', ['deleted_at']],
    ['loadObjectTypes', 'createObjectType', 'Field', []],
    ['loadRecords', 'createRecords', 'Record', ['search_text', 'deleted_at']],
    ['loadRecords', 'writeIndex', 'FieldValue', []],
    ['loadClaims', 'writeClaims', 'UniqueClaim', []],
    ['loadRelations', 'addFieldRelations', 'RELATES_TO', []],
    ['loadLinks', 'createLink', 'RELATES_TO', []],
    ['loadLists', 'createList', 'List', ['deleted_at']],
    ['loadListEntries', 'addListEntries', 'ListEntry', []],
    ['loadViews', 'createView', 'View', ['deleted_at']],
    ['loadNotes', 'createNote', 'Note', ['deleted_at']],
    ['loadNotes', 'replaceNoteLinks', 'ABOUT', []],
    ['loadTasks', 'createTask', 'Task', ['deleted_at']],
    ['loadReports', 'createReport', 'Report', ['deleted_at']],
  ];

  it.each(PAIRS)('%s writes %s’s %s keys', (load, create, label, later) => {
    const keys = (name: string) => (writtenMaps(statementNamed(name).cypher).get(label) ?? []).map(([key]) => key);
    // MERGE names the key properties; ON CREATE SET adds the rest.
    const loaded = label === 'UniqueClaim' ? [...keys(load), 'workspace_id', 'record_id'] : keys(load);
    expect(keys(create).length).toBeGreaterThan(0);
    expect(new Set(loaded)).toEqual(new Set([...keys(create), ...later]));
  });

  it('sets each key a later write adds with the statement that adds it', () => {
    const cypher = registeredStatements().map((s) => s.cypher).join('\n');
    for (const key of ['last_used_at', 'revoked_at', 'deleted_at', 'search_text']) expect(cypher).toMatch(new RegExp(`\\w\\.${key} = `));
  });
});

describe('dumpWorkspace on Neo4j', () => {
  it('reads each kind in id pages, the cursor the last id read, until a short page', async () => {
    const g = new Graph();
    await neo4j(g).loadDump(source);
    g.sent.length = 0;
    const rows = await collect(neo4j(g, { page: 2 }).dumpWorkspace(workspaceId));
    const records = rowsOf(rows, 'record').map((r) => r.id);
    const cursors = g.sent.filter((s) => s.name === 'dumpRecords').map((s) => s.params.after);
    expect(cursors).toEqual(['', ...records.filter((_id, i) => i % 2 === 1)]);
    // Usage counters (a few per month) are read in one go.
    expect(g.sent.every((s) => !s.write && s.params.limit === (['getWorkspace', 'dumpUsage'].includes(s.name) ? undefined : 2))).toBe(true);
    expect(g.sent.map((s) => s.name).filter((n, i, all) => all.indexOf(n) === i)).toEqual([
      'getWorkspace', 'dumpUsers', 'dumpApiKeys', 'dumpObjectTypes', 'dumpRecords', 'dumpRelations', 'dumpLinks', 'dumpClassifications', 'dumpLists', 'dumpListEntries',
      'dumpViews', 'dumpNotes', 'dumpTasks', 'dumpReports', 'dumpComms', 'dumpEvents', 'dumpUsage',
    ]);
  });

  it('pages relations by (from_id, to_id, type, source), so edges sharing their ends are neither repeated nor skipped', async () => {
    const g = new Graph();
    await neo4j(g).loadDump(source);
    g.sent.length = 0;
    const rows = rowsOf(await collect(neo4j(g, { page: 1 }).dumpWorkspace(workspaceId)), 'relation');
    expect(rows).toEqual(rowsOf(source, 'relation'));
    const cursors = g.sent.filter((s) => s.name === 'dumpRelations').map(({ params: p }) => [p.from_id, p.to_id, p.type, p.source]);
    expect(cursors).toEqual([['', '', '', ''], ...rows.map((r) => [r.from_id, r.to_id, r.type, r.source])]);
    // The link twin of a field edge is a link row of its own, with its id and properties.
    const links = rowsOf(await collect(neo4j(g, { page: 1 }).dumpWorkspace(workspaceId)), 'link');
    expect(links).toEqual(rowsOf(source, 'link'));
    const twin = links.find((l) => l.type === 'company')!;
    expect(twin.properties).toEqual({ note: 'twin', n: 2 });
    expect(rows.filter((r) => r.type === 'company' && r.from_id === twin.from_id && r.to_id === twin.to_id).map((r) => r.source)).toEqual(['field']);
  });

  it('maps each page through the mappers of the normal reads, one read transaction per page', async () => {
    const g = new Graph();
    await neo4j(g).loadDump(source);
    const writes = g.writes;
    const rows = await collect(neo4j(g, { page: 3 }).dumpWorkspace(workspaceId));
    expect(g.writes).toBe(writes);
    const view = rowsOf(rows, 'view').find((v) => v.filters !== null)!;
    expect(view.filters).toEqual({ amount: { gte: 1000 } });
    expect(rowsOf(rows, 'api_key').find((k) => k.revoked_at !== null)!.scopes).toEqual(['records', 'lists']);
    expect(rowsOf(rows, 'object_type').every((t) => t.fields.every((f, i) => f.position === i && typeof f.config === 'object'))).toBe(true);
  });

  it('reports an unknown workspace, and one still being imported, as not_found', async () => {
    const g = new Graph();
    expect((await failure(collect(neo4j(g).dumpWorkspace('ws_missing')))).code).toBe('not_found');
    g.failures.set('loadRecords', () => new Error('stop'));
    g.failures.set('purgeWorkspaceBatch', () => new Error('also down'));
    await neo4j(g).loadDump(source).catch(() => undefined);
    expect(g.find('Workspace', { id: workspaceId })!.props.loading).toBe(true);
    expect((await failure(collect(neo4j(g).dumpWorkspace(workspaceId)))).code).toBe('not_found');
  });
});

describe('loadDump on Neo4j', () => {
  const sentRows = (g: Graph, name: string) => g.sent.filter((s) => s.name === name).map((s) => ((s.params.rows ?? s.params.events) as unknown[]).length);

  it('writes batches of at most the batch size, one kind each, one write transaction each', async () => {
    const g = new Graph();
    await neo4j(g, { batch: 4 }).loadDump(source);
    const count = (kind: DumpRow['kind']) => source.filter((row) => row.kind === kind).length;
    const batches = (n: number) => [...Array.from({ length: Math.floor(n / 4) }, () => 4), ...(n % 4 ? [n % 4] : [])];
    expect(sentRows(g, 'loadRecords')).toEqual(batches(count('record')));
    expect(sentRows(g, 'writeEvents')).toEqual(batches(count('event')));
    expect(sentRows(g, 'loadUsers')).toEqual([2]);
    const batchCount = ['user', 'api_key', 'object_type', 'record', 'relation', 'link', 'classification', 'list', 'entry', 'view', 'note', 'task', 'report', 'comm', 'event', 'usage']
      .reduce((sum, kind) => sum + batches(count(kind as DumpRow['kind'])).length, 0);
    // The workspace, each batch, and the final unveiling.
    expect(g.writes).toBe(1 + batchCount + 1);
    expect(g.sent.at(-1)!.name).toBe('finishLoad');
  });

  it('refuses a workspace that exists with conflict before writing anything', async () => {
    const g = new Graph();
    await neo4j(g).loadDump(source);
    g.sent.length = 0;
    const error = await failure(neo4j(g).loadDump(source));
    expect(error.toJSON()).toEqual({
      code: 'conflict', message: `The workspace "${workspaceId}" already exists in this store; import into a store without it`,
      details: { resource: 'workspace', id: workspaceId },
    });
    expect(g.sent.map((s) => s.name)).toEqual(['findWorkspaceForLoad']);
    expect(text(await collect(neo4j(g).dumpWorkspace(workspaceId)))).toBe(text(source));
  });

  it('says so when the workspace is left from an import that did not finish', async () => {
    const g = new Graph();
    g.failures.set('writeEvents', () => new Error('server gone'));
    g.failures.set('purgeWorkspaceBatch', () => new Error('still gone'));
    const first = await neo4j(g).loadDump(source).then(() => null, (e: unknown) => e);
    expect((first as CrmError).message).toMatch(/could not be erased .*it stays hidden; erase it with purgeNeo4jWorkspaces/);
    expect((first as CrmError).details).toMatchObject({ partial_workspace: workspaceId });
    g.failures.clear();
    expect((await failure(neo4j(g).loadDump(source))).message).toMatch(/an import of it is under way, or was interrupted/);
  });

  it('erases everything it wrote when a batch fails, and rethrows the failure', async () => {
    const g = new Graph();
    const foreign = g.node('Record', { id: 'rec_foreign', workspace_id: 'ws_other' });
    g.failures.set('loadNotes', () => new Neo4jError('connection lost', 'ServiceUnavailable' as never, '08000', 'error'));
    const error = await failure(neo4j(g, { batch: 2 }).loadDump(source));
    expect(error.code).toBe('unavailable');
    expect(g.sent.filter((s) => s.write).map((s) => s.name).at(-1)).toBe('purgeWorkspaceBatch');
    expect(g.sent.find((s) => s.name === 'purgeWorkspaceBatch')!.params.workspace_id).toBe(workspaceId);
    expect(g.nodes).toEqual([foreign]);
    expect(g.edges).toEqual([]);
  });

  it('erases what it wrote when the input fails mid-stream', async () => {
    const g = new Graph();
    async function* broken() {
      yield* source.slice(0, 20);
      throw new CrmError('validation_error', 'line 22 of the export is not JSON', { param: 'file', line: 22 });
    }
    expect((await failure(neo4j(g, { batch: 3 }).loadDump(broken()))).details).toEqual({ param: 'file', line: 22 });
    expect(g.nodes).toEqual([]);
  });

  it('names a row whose reference is not in the dump as SQLite does, and erases what it wrote', async () => {
    const acme = rowsOf(source, 'record').find((r) => r.data['name'] === 'Acme Café')!;
    // No record's data names Acme either (that is refused at the record's own row), so a relation row is the first to name it.
    const broken = source.filter((row) => !(row.kind === 'record' && row.row.id === acme.id)).map((row) => {
      if (row.kind !== 'record') return row;
      const data = Object.fromEntries(Object.entries(row.row.data).filter(([, value]) => value !== acme.id));
      return { ...row, row: { ...row.row, data } };
    });
    const sqlite = createSqliteStore({ path: ':memory:' });
    await sqlite.init();
    const expected = await failure(sqlite.loadDump(broken)).finally(() => sqlite.close());
    const g = new Graph();
    const error = await failure(neo4j(g, { batch: 2 }).loadDump(broken));
    expect(error.toJSON()).toEqual(expected.toJSON());
    expect(error.message).toMatch(/^dump row \d+ \(relation\): row\.to_id names the record "rec_\w+", which is not in the dump$/);
    expect(g.nodes).toEqual([]);
  });

  it('names the rows SQLite names for a missing list, user or object type, a repeated record id and data its fields could not hold', async () => {
    const cases: Array<(rows: any[]) => void> = [
      (rows) => { rows.find((r) => r.kind === 'entry').row.list_id = 'lst_00000000000000000000000000'; },
      (rows) => { rows.find((r) => r.kind === 'record' && r.row.data.name === 'Big').row.data.amount = '5000.5'; },
      (rows) => { rows.find((r) => r.kind === 'entry').row.data.nope = 1; },
      (rows) => { rows.find((r) => r.kind === 'record' && r.row.data.name === 'Big').row.data.contacts.push('rec_00000000000000000000000000'); },
      (rows) => { rows.find((r) => r.kind === 'api_key').row.user_id = 'usr_00000000000000000000000000'; },
      (rows) => { rows.find((r) => r.kind === 'list').row.object_type_slug = 'nothing'; },
      (rows) => { const t = rows.find((r) => r.kind === 'task' && r.row.record_ids.length > 0).row; t.record_ids = [t.record_ids[0], t.record_ids[0]]; },
    ];
    for (const change of cases) {
      const rows = structuredClone(source);
      change(rows);
      const sqlite = createSqliteStore({ path: ':memory:' });
      await sqlite.init();
      const expected = await failure(sqlite.loadDump(rows)).finally(() => sqlite.close());
      const g = new Graph();
      expect((await failure(neo4j(g, { batch: 3 }).loadDump(rows))).toJSON()).toEqual(expected.toJSON());
      expect(g.nodes).toEqual([]);
    }
  });

  it('loads a record whose data refers to a record later in the dump, in batches of one as in one batch', async () => {
    const rows = structuredClone(source) as any[];
    const records = rows.filter((r) => r.kind === 'record');
    const ada = records.find((r) => r.row.data.name === 'Ada Lovelace');
    const gone = records.find((r) => r.row.data.name === 'Gone');
    expect(records.indexOf(ada)).toBeLessThan(records.indexOf(gone));
    ada.row.data.company = gone.row.id;
    for (const batch of [1, 1000]) {
      const g = new Graph();
      expect(await neo4j(g, { batch }).loadDump(rows)).toEqual({ rows: rows.length });
    }
    ada.row.data.company = 'rec_00000000000000000000000000';
    const sqlite = createSqliteStore({ path: ':memory:' });
    await sqlite.init();
    const expected = await failure(sqlite.loadDump(rows)).finally(() => sqlite.close());
    for (const batch of [1, 1000]) {
      const g = new Graph();
      expect((await failure(neo4j(g, { batch }).loadDump(rows))).toJSON()).toEqual(expected.toJSON());
      expect(g.nodes).toEqual([]);
    }
  });

  it('names the record whose data refers to a record taken out of the dump, before the relation row that names it too, as SQLite does', async () => {
    const acme = rowsOf(source, 'record').find((r) => r.data['name'] === 'Acme Café')!;
    const cases: Array<{ rows: DumpRow[]; ends: string }> = [
      // The records are checked before the first row of another kind: the relation rows naming Acme come after.
      { rows: source.filter((row) => !(row.kind === 'record' && row.row.id === acme.id)), ends: 'whole' },
      // A dump that ends with its records is checked at its end.
      { rows: source.filter((row) => DUMP_ORDER.indexOf(row.kind) <= DUMP_ORDER.indexOf('record') && !(row.kind === 'record' && row.row.id === acme.id)), ends: 'records' },
    ];
    for (const { rows } of cases) {
      const sqlite = createSqliteStore({ path: ':memory:' });
      await sqlite.init();
      const expected = await failure(sqlite.loadDump(rows)).finally(() => sqlite.close());
      const first = rows.find((row) => row.kind === 'record' && Object.values(row.row.data).flat().includes(acme.id))!;
      expect(expected.message).toMatch(new RegExp(`^dump row \\d+ \\(record ${(first.row as { id: string }).id}\\): row\\.data\\.\\w+(\\[\\d+\\])? names the record "${acme.id}", which is not in the dump$`));
      for (const batch of [1, 3, 1000]) {
        const g = new Graph();
        expect((await failure(neo4j(g, { batch }).loadDump(rows))).toJSON()).toEqual(expected.toJSON());
        expect(g.nodes).toEqual([]);
      }
    }
  });

  it('keeps only what names a forward reference, and checks them in reads of at most 1,000 ids', async () => {
    const rows = structuredClone(source) as any[];
    const at = rows.findIndex((r) => r.kind === 'record');
    const template = rows.find((r) => r.kind === 'record' && r.row.data.name === 'Bob');
    const gone = rows.find((r) => r.kind === 'record' && r.row.data.name === 'Gone');
    // 2,500 contacts before every other record, each naming a company that comes after them.
    const extra = Array.from({ length: 2500 }, (_, i) => ({
      kind: 'record', row: { ...structuredClone(template.row), id: `rec_01AAAAAAAAAAAAAAAAAAAA${String(i).padStart(4, '0')}`, data: { name: `C${i}`, company: gone.row.id } },
    }));
    rows.splice(at, 0, ...extra);
    const g = new Graph();
    expect(await neo4j(g, { batch: 1000 }).loadDump(rows)).toEqual({ rows: rows.length });
    const settles = g.sent.filter((s) => s.name === 'missingRecordsForLoad' && !s.write);
    // The first two batches' 2,000 wait (the third batch holds the company, so its 500 do not).
    expect(settles.map((s) => (s.params.ids as string[]).length)).toEqual([1000, 1000]);
  });

  it('names the row whose id another workspace holds, and erases only its own workspace', async () => {
    const g = new Graph();
    const taken = rowsOf(source, 'record')[3]!.id;
    g.node('Record', { id: taken, workspace_id: 'ws_other' });
    const error = await failure(neo4j(g, { batch: 2 }).loadDump(source));
    const position = source.findIndex((row) => row.kind === 'record' && row.row.id === taken) + 1;
    expect(error.toJSON()).toEqual({
      code: 'conflict', message: `dump row ${position} (record ${taken}): row.id "${taken}" is already taken in this store`,
      details: { param: 'rows', row: position, kind: 'record', id: taken, field: 'row.id' },
    });
    expect(g.nodes.map((n) => n.props)).toEqual([{ id: taken, workspace_id: 'ws_other' }]);
  });

  it('does not erase a workspace another import of it got to first', async () => {
    const g = new Graph();
    g.failures.set('loadWorkspace', () => constraintFailure('Workspace', 'id', workspaceId));
    const error = await failure(neo4j(g).loadDump(source));
    expect(error.code).toBe('conflict');
    expect(g.sent.map((s) => s.name)).toEqual(['findWorkspaceForLoad', 'loadWorkspace']);
  });

  it('checks the rows before writing them: a bad row is named, an empty dump refused', async () => {
    const g = new Graph();
    const rows = structuredClone(source) as any[];
    rows[1].row.role = 'boss';
    expect((await failure(neo4j(g).loadDump(rows))).details).toMatchObject({ row: 2, kind: 'user', field: 'row.role' });
    expect(g.nodes).toEqual([]);
    expect((await failure(neo4j(g).loadDump([]))).toJSON()).toMatchObject({ code: 'validation_error', details: { param: 'rows' } });
    expect(g.sent.filter((s) => s.write).map((s) => s.name)).toEqual(['loadWorkspace', 'purgeWorkspaceBatch']);
  });

  it('refuses two live object types with one slug and a member twice, worded as the stores word those conflicts', async () => {
    const rows = structuredClone(source) as any[];
    const users = rows.filter((r) => r.kind === 'user');
    users[1].row.email = users[0].row.email.toUpperCase();
    const error = await failure(neo4j(new Graph()).loadDump(rows));
    expect(error.toJSON()).toMatchObject({ code: 'conflict', message: expect.stringContaining('A member with email'), details: { row: 3, kind: 'user' } });
    const types = structuredClone(source) as any[];
    types.filter((r) => r.kind === 'object_type' && r.row.slug === 'scratch').forEach((r) => { r.row.deleted_at = null; });
    expect((await failure(neo4j(new Graph()).loadDump(types))).message).toMatch(/An object type with slug "scratch" already exists$/);
  });
});

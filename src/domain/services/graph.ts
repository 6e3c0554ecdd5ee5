import type { Store } from '../store/port.ts';
import { canWriteAll, type Actor } from '../actor.ts';
import { CrmError, notFound, validationError } from '../errors.ts';
import { shortestPaths, type GraphPath } from '../graph/path.ts';
import { GRAPH_LIMITS, LINK_TYPE } from '../graph/limits.ts';
import { bounded, commaList } from '../graph/params.ts';
import { CATEGORIES, type GraphEdge, type GraphRecord, type Link } from '../graph/types.ts';
import { batchExpansions } from '../graph/batch.ts';
import { walk, type WalkNode } from '../graph/walk.ts';
import { walkView } from '../graph/walk-view.ts';
import { newId } from '../ids.ts';
import type { StoredRecord } from '../types.ts';
import { created, eventFor } from './events.ts';
import { requireIdOf } from './inputs.ts';
import type { ObjectService } from './objects.ts';
import type { RecordService } from './records.ts';

export interface LinkView {
  link_id: string;
  id: string;
  from_record_id: string;
  to_record_id: string;
  type: string;
  properties: Record<string, unknown>;
  created_at: string;
}

export interface GraphNodeView extends WalkNode {
  display_name: string;
}

export interface GraphView {
  nodes: GraphNodeView[];
  edges: GraphEdge[];
  truncated: boolean;
}

export interface PathView {
  nodes: GraphNodeView[];
  edges: GraphEdge[];
  length: number;
  score: number;
}

export interface QueryInput {
  record_id: string;
  depth?: number | null;
  types?: string | null;
  categories?: string | null;
  limit?: number | null;
}

export interface UnlinkInput {
  link_id?: string | null;
  from_record_id?: string | null;
  to_record_id?: string | null;
  type?: string | null;
}

/**
 * The relationship graph: typed links between records, and walks over links and field relations.
 * Members link and unlink only records assigned to them (both ends).
 */
export class GraphService {
  /** Expansions of concurrent neighbour walks (GraphQL `Record.neighbors`), merged per level. */
  private readonly batched: ReturnType<typeof batchExpansions>;

  constructor(private readonly store: Store, private readonly actor: Actor, private readonly objects: ObjectService, private readonly records: RecordService) {
    this.batched = batchExpansions(store, actor.workspace_id);
  }

  private get ws(): string {
    return this.actor.workspace_id;
  }

  async link(input: { from_record_id: string; to_record_id: string; type: string; properties?: unknown }): Promise<LinkView> {
    const type = linkType(input.type);
    const properties = linkProperties(input.properties);
    if (input.from_record_id === input.to_record_id) throw selfLink();
    const from = await this.live(input.from_record_id, 'from_record_id');
    const to = await this.live(input.to_record_id, 'to_record_id');
    this.assertCanWrite([from, to]);
    const id = newId('relation');
    const values = { from_record_id: from.id, to_record_id: to.id, type, properties };
    const { link } = await this.store.createLink(this.ws, { id, from_id: from.id, to_id: to.id, type, properties, created_by: this.actor.user_id },
      [eventFor(this.actor, 'create', 'link', id, [from.id, to.id], created(values))]);
    return linkView(link);
  }

  async unlink(input: UnlinkInput): Promise<{ link_id: string; removed: true }> {
    const link = await this.findLink(input);
    const ends = await Promise.all([link.from_id, link.to_id].map((id) => this.store.getRecord(this.ws, id, { includeDeleted: true })));
    this.assertCanWrite(ends.filter((r): r is StoredRecord => r !== null));
    await this.store.deleteLink(this.ws, link.id, [eventFor(this.actor, 'delete', 'link', link.id, [link.from_id, link.to_id], {
      type: { before: link.type }, from_record_id: { before: link.from_id }, to_record_id: { before: link.to_id },
    })]);
    return { link_id: link.id, removed: true };
  }

  async query(input: QueryInput): Promise<GraphView> {
    const depth = bounded('depth', input.depth, 1, GRAPH_LIMITS.depthMax, GRAPH_LIMITS.depthDefault);
    const limit = bounded('limit', input.limit, 1, GRAPH_LIMITS.limitMax, GRAPH_LIMITS.limitDefault);
    const types = await this.typesParam(input.types);
    const categories = commaList('categories', input.categories, CATEGORIES);
    const root = await this.root(input.record_id, 'record_id');
    const options = { depth, limit, ...(types ? { types } : {}), ...(categories ? { categories } : {}) };
    // Over the graph the store holds in memory when it holds one (no await from here to the end:
    // its slots stay valid), else level by level over the store's expansions. Same answer.
    const view = await this.store.graphView(this.ws);
    const held = view && walkView(view, root, options);
    if (view && held) {
      const names = view.names(held.slots);
      return { nodes: held.nodes.map((n, i) => nodeView(n, names[i]!)), edges: held.edges, truncated: held.truncated };
    }
    const found = await walk(this.store, this.ws, root, options);
    return { nodes: await this.named(found.nodes), edges: found.edges, truncated: found.truncated };
  }

  /**
   * The `types` filter, checked against the workspace's object types; those are loaded only when a
   * filter is given, so a page of `Record.neighbors` does not read them once per record.
   */
  private async typesParam(value: string | null | undefined): Promise<string[] | undefined> {
    if (value === undefined || value === null || value.trim() === '') return undefined;
    return commaList('types', value, (await this.objects.list()).map((t) => t.slug));
  }

  /**
   * The records around one record, without it (GraphQL `Record.neighbors`): the walk of graph.query
   * with its default limit. Concurrent calls share one store round trip per level.
   */
  async neighbors(root: { id: string; object_type_slug: string }, input: { depth?: number | null; types?: string | null }): Promise<GraphNodeView[]> {
    const depth = bounded('depth', input.depth, 1, GRAPH_LIMITS.depthMax, 1);
    const types = await this.typesParam(input.types);
    const start: GraphRecord = { id: root.id, object_type_slug: root.object_type_slug, category: null, strength: null };
    const options = { depth, limit: GRAPH_LIMITS.limitDefault + 1, edges: false, ...(types ? { types } : {}) };
    // As graph.query: over the graph held in memory when there is one (each walk synchronous, no
    // await until it is named), since the batched expansions hand a walk edge objects it then
    // hashes one by one (17 times slower for a page of contacts of one 52k-contact company).
    const view = await this.store.graphView(this.ws);
    const held = view && walkView(view, start, options);
    if (view && held) {
      const names = view.names(held.slots);
      return held.nodes.slice(1).map((n, i) => nodeView(n, names[i + 1]!));
    }
    const found = await walk(this.batched, this.ws, start, options);
    return this.named(found.nodes.slice(1));
  }

  async path(input: { from_record_id: string; to_record_id: string; max_depth?: number | null; limit?: number | null }): Promise<{ paths: PathView[]; truncated: boolean }> {
    const maxDepth = bounded('max_depth', input.max_depth, 1, GRAPH_LIMITS.pathDepthMax, GRAPH_LIMITS.pathDepthDefault);
    const limit = bounded('limit', input.limit, 1, GRAPH_LIMITS.pathLimitMax, GRAPH_LIMITS.pathLimitDefault);
    if (input.from_record_id === input.to_record_id) {
      throw validationError('to_record_id', 'to_record_id must differ from from_record_id', { rule: 'same_record' });
    }
    const from = await this.root(input.from_record_id, 'from_record_id');
    const to = await this.root(input.to_record_id, 'to_record_id');
    const { paths, truncated } = await shortestPaths(this.store, this.ws, from, to, maxDepth, limit);
    const names = await this.records.summaries(paths.flatMap((p) => p.nodes.map((n) => n.record_id)));
    // Nodes spelled out: a spread plus a new key gives each object a hidden class of its own (see actorOf).
    return { paths: paths.map((p: GraphPath) => ({ ...p, nodes: p.nodes.map((n) => ({
      record_id: n.record_id, object_type_slug: n.object_type_slug, depth: n.depth, via: n.via, category: n.category, strength: n.strength,
      display_name: names.get(n.record_id)?.display_name ?? '',
    })) })), truncated };
  }

  /** The nodes with their display names, in the same order. */
  async named(nodes: readonly WalkNode[]): Promise<GraphNodeView[]> {
    const names = await this.records.summaries(nodes.map((n) => n.record_id));
    return nodes.map((n) => nodeView(n, names.get(n.record_id)?.display_name ?? ''));
  }

  /** A live record of the workspace as a walk starts from it; 404 (with nothing of it) otherwise. */
  async root(id: string, param: string): Promise<GraphRecord> {
    requireIdOf('record', id, param);
    const [found] = await this.store.graphRecords(this.ws, [id]);
    if (!found) throw notFoundAt(id, param);
    return found;
  }

  private async live(id: string, param: string): Promise<StoredRecord> {
    requireIdOf('record', id, param);
    const record = await this.store.getRecord(this.ws, id);
    if (!record) throw notFoundAt(id, param);
    return record;
  }

  private async findLink(input: UnlinkInput): Promise<Link> {
    if (input.link_id) {
      if (input.from_record_id || input.to_record_id || input.type) {
        throw validationError('link_id', 'give either link_id or from_record_id, to_record_id and type, not both', { rule: 'one_of' });
      }
      const link = await this.store.getLink(this.ws, input.link_id);
      if (!link) throw new CrmError('not_found', `link_id ${JSON.stringify(input.link_id)}: no such link`, { param: 'link_id', resource: 'link', id: input.link_id });
      return link;
    }
    for (const param of ['from_record_id', 'to_record_id', 'type'] as const) {
      if (!input[param]) throw validationError(param, `give link_id, or from_record_id, to_record_id and type; ${param} is missing`, { rule: 'required' });
    }
    const [fromId, toId, type] = [input.from_record_id!, input.to_record_id!, linkType(input.type!)];
    // As graph.link refuses them: a malformed id or a record linked to itself is the caller's to fix, not a missing link.
    requireIdOf('record', fromId, 'from_record_id');
    requireIdOf('record', toId, 'to_record_id');
    if (fromId === toId) throw selfLink();
    const link = await this.store.findLink(this.ws, fromId, toId, type);
    if (link) return link;
    if (await this.store.hasFieldEdge(this.ws, fromId, toId, type)) {
      throw validationError('type', `the ${type} relation from ${fromId} to ${toId} comes from the record_reference field "${type}"; `
        + `remove it by updating that field with records.update`, { rule: 'field_relation', field: type });
    }
    throw new CrmError('not_found', `no ${type} link from ${fromId} to ${toId}`, { param: 'type', resource: 'link' });
  }

  /** Members write only records assigned to them: both ends of a link. */
  private assertCanWrite(records: StoredRecord[]): void {
    if (canWriteAll(this.actor)) return;
    const foreign = records.find((r) => r.assignee_id !== this.actor.user_id);
    if (foreign) {
      throw new CrmError('permission_denied', `a member may only link records assigned to them; record ${foreign.id} is not`, {
        role: this.actor.role, record_id: foreign.id,
      });
    }
  }
}

/**
 * A node with its display name, as one object literal of one shape (a spread builds each key by
 * key): the answers of a deep query hold hundreds.
 */
function nodeView(n: WalkNode, displayName: string): GraphNodeView {
  return {
    record_id: n.record_id, object_type_slug: n.object_type_slug, depth: n.depth, via: n.via, category: n.category, strength: n.strength,
    display_name: displayName,
  };
}

export function linkView(link: Link): LinkView {
  return {
    link_id: link.id, id: link.id, from_record_id: link.from_id, to_record_id: link.to_id, type: link.type, properties: link.properties,
    created_at: link.created_at,
  };
}

function notFoundAt(id: string, param: string): CrmError {
  const error = notFound('record', id);
  return new CrmError('not_found', `${param}: ${error.message}`, { ...error.details, param });
}

function linkType(type: string): string {
  if (!LINK_TYPE.test(type)) {
    throw validationError('type', `type must be snake_case: a lower-case letter, then up to 39 lower-case letters, digits or "_" (e.g. "invested_in"), got ${JSON.stringify(type.slice(0, 100))}`, { rule: 'format' });
  }
  return type;
}

function linkProperties(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw validationError('properties', 'properties must be a JSON object', { rule: 'type' });
  if (Buffer.byteLength(JSON.stringify(value)) > GRAPH_LIMITS.propertiesMaxBytes) {
    throw validationError('properties', `properties must be at most ${GRAPH_LIMITS.propertiesMaxBytes} bytes of JSON`, { rule: 'max_size' });
  }
  return value as Record<string, unknown>;
}

function selfLink() {
  return validationError('to_record_id', 'a record cannot be linked to itself: to_record_id must differ from from_record_id', { rule: 'self_link' });
}

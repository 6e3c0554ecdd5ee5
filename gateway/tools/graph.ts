import { LIMITS } from '../../src/domain/limits.ts';
import { z } from 'zod';
import { GRAPH_LIMITS } from '../../src/domain/graph/limits.ts';
import { PATH_VISIT_MAX } from '../../src/domain/graph/path.ts';
import { CATEGORIES, STRENGTHS } from '../../src/domain/graph/types.ts';
import { CREATES, DELETES, defineTool, given, pick, READ_ONLY, UPDATES } from './define.ts';
import { recordId } from './shapes.ts';

const L = GRAPH_LIMITS;
const linkType = z.string().max(40).regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be snake_case: a lower-case letter, then up to 39 lower-case letters, digits or "_"')
  .describe('The relation type, snake_case, e.g. "knows", "introduced_by", "invested_in", "partner_of", "supplies", "reports_to".');

const nodeOutput = z.object({
  record_id: z.string(), object_type_slug: z.string(), display_name: z.string(), depth: z.number(), via: z.string().nullable(),
  category: z.enum(CATEGORIES).nullable(), strength: z.enum(STRENGTHS).nullable(),
});
const edgeOutput = z.object({ source: z.string(), target: z.string(), type: z.string(), origin: z.enum(['field', 'link']) });
const NODE = 'record_id object_type_slug display_name depth via category strength';
const EDGE = 'source target type origin';

const linkOutput = z.object({
  link_id: z.string(), id: z.string(), from_record_id: z.string(), to_record_id: z.string(), type: z.string(),
  properties: z.record(z.string(), z.unknown()), created_at: z.string(),
});
const LINK = 'link_id id from_record_id to_record_id type properties created_at';

const reasonOutput = z.object({ signal: z.string(), value: z.number(), contribution: z.number(), detail: z.string().nullable() });
const counts = <K extends string>(keys: readonly K[]) => z.object(Object.fromEntries(keys.map((k) => [k, z.number()])) as Record<K, z.ZodNumber>);

export const graphTools = [
  defineTool({
    name: 'graph.query',
    scope: 'graph',
    title: 'Explore the graph around a record',
    description: 'Returns the records and relations within `depth` hops of a record, breadth-first, nearest first: the root (depth 0), then each depth ordered by the record it was reached through, then id. Field references and links both count, in either direction; soft-deleted records are skipped. `types`/`categories` choose which records are returned, not which are walked through, so {"record_id": "<company>", "types": "contacts", "depth": 2} finds the people of the company\'s deals. `truncated` is true when `limit` cut the answer.',
    input: z.strictObject({
      record_id: recordId.describe('The record to start from.'),
      depth: z.number().int().min(1).max(L.depthMax).optional().describe(`Hops to walk, 1 to ${L.depthMax}. Default ${L.depthDefault}.`),
      types: z.string().max(2000).optional().describe('Comma-separated object type slugs to return, e.g. "contacts,companies". Default all.'),
      categories: z.string().max(2000).optional().describe(`Comma-separated contact categories to return (${CATEGORIES.join(', ')}), as saved by contacts.classify.`),
      limit: z.number().int().min(1).max(L.limitMax).optional().describe(`Most nodes to return, root included, 1 to ${L.limitMax}. Default ${L.limitDefault}.`),
    }),
    output: z.object({ nodes: z.array(nodeOutput), edges: z.array(edgeOutput), truncated: z.boolean() }),
    annotations: READ_ONLY,
    operation: {
      document: `query($record_id: String!, $depth: Int, $types: String, $categories: String, $limit: Int) {
        graph(record_id: $record_id, depth: $depth, types: $types, categories: $categories, limit: $limit) { nodes { ${NODE} } edges { ${EDGE} } truncated } }`,
      variables: (i) => given(i),
      result: pick('graph'),
      // Nodes and edges are the walk's own strings, integers and nulls: see OperationOptions.
      plainLeaves: true,
    },
  }),
  defineTool({
    name: 'graph.path',
    scope: 'graph',
    title: 'Find how two records are connected',
    description: `Finds the shortest relationship paths between two records (any relation, either direction), for warm introductions: paths of the shortest length only, ranked by \`score\`, the strength of the classified people on the way (strong 3, warm 2, weak 1). {"paths": [], "truncated": false} when none exists within max_depth. \`truncated\` is true when the search stopped after reaching ${PATH_VISIT_MAX.toLocaleString('en-US')} records from both ends without meeting: a path within max_depth may still exist.`,
    input: z.strictObject({
      from_record_id: recordId.describe('Where the path starts, e.g. you or a colleague.'),
      to_record_id: recordId.describe('Who or what to reach.'),
      max_depth: z.number().int().min(1).max(L.pathDepthMax).optional().describe(`Longest path in hops, 1 to ${L.pathDepthMax}. Default ${L.pathDepthDefault}.`),
      limit: z.number().int().min(1).max(L.pathLimitMax).optional().describe(`Most paths, 1 to ${L.pathLimitMax}. Default ${L.pathLimitDefault}.`),
    }),
    output: z.object({
      paths: z.array(z.object({ nodes: z.array(nodeOutput), edges: z.array(edgeOutput), length: z.number(), score: z.number() })),
      truncated: z.boolean(),
    }),
    annotations: READ_ONLY,
    operation: {
      document: `query($from_record_id: String!, $to_record_id: String!, $max_depth: Int, $limit: Int) {
        path(from_record_id: $from_record_id, to_record_id: $to_record_id, max_depth: $max_depth, limit: $limit) { paths { nodes { ${NODE} } edges { ${EDGE} } length score } truncated } }`,
      variables: (i) => given(i),
      result: pick('path'),
      plainLeaves: true,
    },
  }),
  defineTool({
    name: 'graph.link',
    scope: 'graph',
    title: 'Link two records',
    description: 'Adds a typed, directed relation between two live records, e.g. {"from_record_id": "<investor contact>", "to_record_id": "<company>", "type": "invested_in", "properties": {"round": "seed"}}. Linking the same from, to and type again returns the existing link. Both records\' timelines show it.',
    input: z.strictObject({
      from_record_id: recordId.describe('The record the relation goes from.'),
      to_record_id: recordId.describe('The record the relation goes to; not from_record_id itself.'),
      type: linkType,
      properties: z.record(z.string().max(LIMITS.keyMaxLength), z.unknown()).optional().describe(`Free JSON object about the relation, at most ${L.propertiesMaxBytes} bytes.`),
    }),
    output: linkOutput,
    annotations: { ...CREATES, idempotentHint: true },
    operation: {
      document: `mutation($from_record_id: String!, $to_record_id: String!, $type: String!, $properties: JSON) {
        linkRecords(from_record_id: $from_record_id, to_record_id: $to_record_id, type: $type, properties: $properties) { ${LINK} } }`,
      variables: (i) => given(i),
      result: pick('linkRecords'),
    },
  }),
  defineTool({
    name: 'graph.unlink',
    scope: 'graph',
    title: 'Remove a link',
    description: 'Removes a link made with graph.link, by {"link_id"} or by {"from_record_id", "to_record_id", "type"}. A relation that comes from a record_reference field is changed with records.update instead.',
    input: z.strictObject({
      link_id: z.string().min(1).max(LIMITS.idMaxLength).optional().describe('Id of the link, e.g. "rel_01JD3Q2X7ZK9M4T6V8W0Y2A4C6".'),
      from_record_id: recordId.optional().describe('With to_record_id and type, instead of link_id.'),
      to_record_id: recordId.optional().describe('With from_record_id and type, instead of link_id.'),
      type: linkType.optional(),
    }),
    output: z.object({ link_id: z.string(), removed: z.boolean() }),
    annotations: DELETES,
    operation: {
      document: `mutation($link_id: String, $from_record_id: String, $to_record_id: String, $type: String) {
        unlinkRecords(link_id: $link_id, from_record_id: $from_record_id, to_record_id: $to_record_id, type: $type) { link_id removed } }`,
      variables: (i) => given(i),
      result: pick('unlinkRecords'),
    },
  }),
  defineTool({
    name: 'contacts.classify',
    scope: 'graph',
    title: 'Classify contacts',
    description: `Scores contacts from their graph neighbourhood into a category (${CATEGORIES.join(', ')}) and a strength (${STRENGTHS.join(', ')}) with a 0-100 score and the reasons: deals of the contact or its company and their stages, links (invested_in, partner_of, supplies, others), notes, tasks, emails, meetings (its attendees count) and messages, weighted by recency and frequency. Saved unless persist is false, so graph.query can filter by category. Up to ${L.classifyMax} record_ids, or every contact when omitted (then items holds the first ${L.classifyMax} by id, counts cover all).`,
    input: z.strictObject({
      record_ids: z.array(z.string().min(1).max(LIMITS.idMaxLength)).min(1).max(L.classifyMax).optional().describe(`Contact ids, at most ${L.classifyMax}. Default: every contact.`),
      persist: z.boolean().optional().describe('Save the results. Default true. A Member saves only contacts assigned to them (and gives their record_ids); persist: false classifies any.'),
    }),
    output: z.object({
      items: z.array(z.object({
        record_id: z.string(), display_name: z.string(), category: z.enum(CATEGORIES), strength: z.enum(STRENGTHS), score: z.number(),
        reasons: z.array(reasonOutput),
      })),
      counts: z.object({ by_category: counts(CATEGORIES), by_strength: counts(STRENGTHS) }),
      classified_at: z.string(),
    }),
    annotations: UPDATES,
    operation: {
      document: `mutation($record_ids: [String!], $persist: Boolean) {
        classifyContacts(record_ids: $record_ids, persist: $persist) {
          items { record_id display_name category strength score reasons { signal value contribution detail } }
          counts { by_category { ${CATEGORIES.join(' ')} } by_strength { ${STRENGTHS.join(' ')} } } classified_at } }`,
      variables: (i) => given(i),
      result: pick('classifyContacts'),
    },
  }),
];

import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import Sigma from 'sigma';
import { tool } from './api.ts';
import { attempt, h, mount, notice } from './dom.ts';

/**
 * Graph explorer: search a record, draw graph.query around it with sigma (WebGL, made for graphs
 * of thousands of nodes), click a node to expand it, and show a graph.path between two records.
 */

interface GNode { record_id: string; object_type_slug: string; display_name: string; category: string | null }
interface GEdge { source: string; target: string; type: string }
interface Found { record_id: string; object_type_slug: string; display_name: string }

/** Contacts take their category's colour; other records their object type's. */
const TYPE_COLOURS: Record<string, string> = { companies: '#2563eb', deals: '#d97706', contacts: '#6b7280' };
const CATEGORY_COLOURS: Record<string, string> = {
  customer: '#16a34a', prospect: '#0891b2', partner: '#7c3aed', investor: '#db2777', vendor: '#854d0e', other: '#64748b',
};
const PATH_COLOUR = '#dc2626';

function colourOf(n: GNode): string {
  if (n.object_type_slug === 'contacts' && n.category) return CATEGORY_COLOURS[n.category] ?? '#6b7280';
  return TYPE_COLOURS[n.object_type_slug] ?? '#0f766e';
}

let renderer: Sigma | null = null;

export function renderGraph(root: HTMLElement): void {
  renderer?.kill();
  renderer = null;
  const graph = new Graph({ multi: false, type: 'undirected' });
  const status = h('p', { id: 'graph-status' });
  const results = h('ul', { class: 'results' });
  const selected = h('div', { id: 'selected' });
  const query = h('input', { name: 'graph-search', type: 'search', placeholder: 'search a record, e.g. acme' });
  const from = h('input', { name: 'path-from', placeholder: 'path from record id' });
  const to = h('input', { name: 'path-to', placeholder: 'path to record id' });
  const canvas = h('div', { id: 'graph-canvas' });
  const legend = h('div', { class: 'legend' },
    ...Object.entries({ ...TYPE_COLOURS, ...CATEGORY_COLOURS }).map(([label, colour]) => h('span', {}, h('i', { style: `background:${colour}` }), label)));

  const add = (nodes: GNode[], edges: GEdge[]) => {
    for (const n of nodes) {
      const attrs = { label: n.display_name, color: colourOf(n), size: n.object_type_slug === 'companies' ? 9 : 6, kind: n.object_type_slug, category: n.category };
      if (graph.hasNode(n.record_id)) graph.mergeNodeAttributes(n.record_id, attrs);
      else graph.addNode(n.record_id, { ...attrs, x: Math.random() * 100, y: Math.random() * 100 });
    }
    for (const e of edges) {
      if (e.source !== e.target && graph.hasNode(e.source) && graph.hasNode(e.target) && !graph.hasEdge(e.source, e.target)) {
        graph.addEdge(e.source, e.target, { label: e.type, color: '#cbd5e1', size: 1 });
      }
    }
    forceAtlas2.assign(graph, { iterations: 80, settings: forceAtlas2.inferSettings(graph) });
    if (!renderer) {
      renderer = new Sigma(graph, canvas, { renderEdgeLabels: false, labelRenderedSizeThreshold: 0, allowInvalidContainer: true });
      renderer.on('clickNode', ({ node }) => void expand(node));
    }
    renderer.refresh();
    canvas.dataset.nodes = String(graph.order);
    // Where the opened record sits on screen, so a test (or a tour) can click it.
    const root = from.value && graph.hasNode(from.value) ? renderer.getNodeDisplayData(from.value) : undefined;
    if (root) {
      const at = renderer.framedGraphToViewport(root);
      canvas.dataset.rootAt = `${Math.round(at.x)},${Math.round(at.y)}`;
    }
    status.textContent = `${graph.order} nodes, ${graph.size} edges. Click a node to expand it.`;
  };

  const expand = (id: string) => attempt(status, async () => {
    const answer = await tool<{ nodes: GNode[]; edges: GEdge[] }>('graph.query', { record_id: id, depth: 1, limit: 200 });
    add(answer.nodes, answer.edges);
    const label = graph.getNodeAttribute(id, 'label') as string;
    mount(selected, h('p', {}, 'Selected ', h('strong', {}, label), ` (${id}) `,
      h('button', { onclick: () => { from.value = id; } }, 'Path from here'), ' ',
      h('button', { onclick: () => { to.value = id; } }, 'Path to here')));
  });

  const open = (id: string) => attempt(status, async () => {
    graph.clear();
    from.value = id;
    const answer = await tool<{ nodes: GNode[]; edges: GEdge[]; truncated: boolean }>('graph.query', { record_id: id, depth: 2, limit: 500 });
    add(answer.nodes, answer.edges);
  });

  const search = (e: Event) => {
    e.preventDefault();
    void attempt(results, async () => {
      const found = await tool<{ items: Found[] }>('records.search', { query: query.value, page_size: 10 });
      mount(results, ...(found.items.length ? found.items.map((r) => h('li', {}, h('button', { onclick: () => void open(r.record_id) }, `${r.display_name} (${r.object_type_slug})`))) : [notice('info', 'Nothing found.')]));
    });
  };

  const path = (e: Event) => {
    e.preventDefault();
    void attempt(status, async () => {
      const answer = await tool<{ paths: { nodes: GNode[]; edges: GEdge[]; length: number }[] }>('graph.path', { from_record_id: from.value.trim(), to_record_id: to.value.trim() });
      const best = answer.paths[0];
      if (!best) {
        status.textContent = 'No path between these records.';
        return;
      }
      add(best.nodes, best.edges);
      graph.forEachEdge((edge) => graph.setEdgeAttribute(edge, 'color', '#cbd5e1'));
      for (const edge of best.edges) if (graph.hasEdge(edge.source, edge.target)) graph.setEdgeAttribute(graph.edge(edge.source, edge.target)!, 'color', PATH_COLOUR);
      for (const edge of best.edges) if (graph.hasEdge(edge.source, edge.target)) graph.setEdgeAttribute(graph.edge(edge.source, edge.target)!, 'size', 3);
      renderer?.refresh();
      status.textContent = `Path of ${best.length} hops: ${best.nodes.map((n) => n.display_name).join(' → ')}`;
    });
  };

  mount(root, h('h2', {}, 'Graph explorer'),
    h('form', { onsubmit: search }, query, h('button', { type: 'submit' }, 'Search')), results,
    h('form', { onsubmit: path }, from, to, h('button', { type: 'submit' }, 'Show path')),
    legend, status, selected, canvas);
}

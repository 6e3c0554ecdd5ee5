import { Chart, registerables, type ChartConfiguration } from 'chart.js';
import { tool } from './api.ts';
import { attempt, h, mount, notice } from './dom.ts';

/** Reports: a saved report's reports.run drawn in its chart_type with Chart.js. */

Chart.register(...registerables);

interface Report { report_id: string; name: string; config: { chart_type: string } }
interface Point { bucket: string; value: number | null }
interface Run { chart_type: string; rows: { group?: unknown; bucket?: string; value: number | null; count: number }[]; series: any }

let chart: Chart | null = null;

export async function renderReports(root: HTMLElement): Promise<void> {
  const area = h('div', { id: 'report-area' });
  const list = h('ul', { class: 'results' });
  mount(root, h('h2', {}, 'Reports'), list, area);
  await attempt(list, async () => {
    const reports = await tool<{ items: Report[] }>('reports.list', { page_size: 100 });
    mount(list, ...(reports.items.length
      ? reports.items.map((r) => h('li', {}, h('button', { onclick: () => void run(area, r) }, `${r.name} (${r.config.chart_type})`)))
      : [notice('info', 'No saved reports yet: create one with reports.create.')]));
  });
}

async function run(area: HTMLElement, report: Report): Promise<void> {
  await attempt(area, async () => {
    const result = await tool<Run>('reports.run', { report_id: report.report_id });
    chart?.destroy();
    chart = null;
    const title = h('h3', {}, report.name);
    if (result.chart_type === 'number') return mount(area, title, h('p', { class: 'big-number', 'data-chart': 'number' }, String(result.series.value ?? '—')));
    if (result.chart_type === 'table') return mount(area, title, table(result));
    const canvas = h('canvas', { 'data-chart': result.chart_type });
    mount(area, title, h('div', { class: 'chart' }, canvas));
    chart = new Chart(canvas, configOf(result));
  });
}

function table(result: Run): HTMLElement {
  return h('table', { 'data-chart': 'table' }, h('thead', {}, h('tr', {}, h('th', {}, 'Group'), h('th', {}, 'Bucket'), h('th', {}, 'Value'), h('th', {}, 'Count'))),
    h('tbody', {}, ...result.rows.map((r) => h('tr', {}, h('td', {}, String(r.group ?? '')), h('td', {}, r.bucket ?? ''), h('td', {}, String(r.value ?? '')), h('td', {}, r.count)))));
}

/** The Chart.js configuration for each chart_type, from the run's `series`. */
function configOf(result: Run): ChartConfiguration {
  const animation = false as const;
  switch (result.chart_type) {
    case 'funnel': {
      // A funnel is drawn as horizontal bars in stage order, each labelled with its conversion.
      const stages = result.series as { stage: string; value: number | null; conversion_to_next: number | null }[];
      return {
        type: 'bar',
        data: { labels: stages.map((s) => s.conversion_to_next === null ? s.stage : `${s.stage} (${Math.round(s.conversion_to_next * 100)}% →)`), datasets: [{ label: 'value', data: stages.map((s) => s.value ?? 0), backgroundColor: '#2563eb' }] },
        options: { indexAxis: 'y', animation, plugins: { legend: { display: false } } },
      };
    }
    case 'line':
    case 'area':
    case 'stacked_bar': {
      const grouped = Array.isArray(result.series) && result.series[0] && 'points' in result.series[0];
      const series: { group: unknown; points: Point[] }[] = grouped ? result.series : [{ group: 'value', points: result.series }];
      const labels = series[0]?.points.map((p) => p.bucket) ?? [];
      const type = result.chart_type === 'stacked_bar' ? 'bar' : 'line';
      return {
        type,
        data: { labels, datasets: series.map((s) => ({ label: String(s.group ?? '(none)'), data: s.points.map((p) => p.value ?? 0), fill: result.chart_type === 'area' })) },
        options: { animation, scales: type === 'bar' ? { x: { stacked: true }, y: { stacked: true } } : {} },
      };
    }
    case 'pie':
    case 'donut': {
      const slices = result.series as { label: unknown; value: number | null }[];
      return { type: result.chart_type === 'pie' ? 'pie' : 'doughnut', data: { labels: slices.map((s) => String(s.label ?? '(none)')), datasets: [{ data: slices.map((s) => s.value ?? 0) }] }, options: { animation } };
    }
    default:
      return {
        type: 'bar',
        data: { labels: result.rows.map((r) => String(r.group ?? r.bucket ?? '(none)')), datasets: [{ label: 'value', data: result.rows.map((r) => r.value ?? 0) }] },
        options: { animation },
      };
  }
}

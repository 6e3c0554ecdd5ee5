import { gql, tool } from './api.ts';
import { attempt, h, mount, when } from './dom.ts';

/** Timeline: the change feed with who made each change, with which key, call style and tool. */

interface Event { event_id: string; at: string; action: string; resource_type: string; resource_id: string; actor_id: string | null; key_id: string | null; via: string | null; tool: string | null }

const PAGE_SIZE = 50;

export async function renderTimeline(root: HTMLElement): Promise<void> {
  const body = h('tbody');
  const status = h('div');
  const more = h('button', { id: 'timeline-more', hidden: true }, 'Older changes');
  mount(root, h('h2', {}, 'Timeline'), status,
    h('table', { id: 'timeline' }, h('thead', {}, h('tr', {}, ...['When', 'Who', 'Key', 'Call style', 'Tool', 'Change'].map((t) => h('th', {}, t)))), body), more);
  const names = await namesOf();
  let page = 0;
  const next = () => attempt(status, async () => {
    page += 1;
    const feed = await tool<{ items: Event[]; total: number }>('timeline.list', { page, page_size: PAGE_SIZE });
    body.append(...feed.items.map((e) => h('tr', {},
      h('td', {}, when(e.at)), h('td', {}, names.get(e.actor_id ?? '') ?? e.actor_id ?? 'system'), h('td', {}, names.get(e.key_id ?? '') ?? e.key_id ?? ''),
      h('td', {}, e.via ?? ''), h('td', {}, e.tool ?? ''), h('td', {}, `${e.action} ${e.resource_type} ${e.resource_id}`))));
    more.hidden = page * PAGE_SIZE >= feed.total;
  });
  more.addEventListener('click', () => void next());
  await next();
}

/** Member emails and key names, when the signed-in key may read the settings (an Owner's). */
async function namesOf(): Promise<Map<string, string>> {
  try {
    const { settings } = await gql<{ settings: { members: { id: string; email: string }[]; api_keys: { key_id: string; name: string }[] } }>(
      'query { settings { members { id email } api_keys { key_id name } } }');
    return new Map([...settings.members.map((m) => [m.id, m.email] as const), ...settings.api_keys.map((k) => [k.key_id, k.name] as const)]);
  } catch {
    return new Map();
  }
}

import { ROLES, SCOPES } from '../../src/domain/types.ts';
import { ApiError, gql } from './api.ts';
import { attempt, h, mount, notice, when } from './dom.ts';

/** Settings → Plan, Members and Developer API keys, through the Owner-only GraphQL fields. */

interface Key { key_id: string; name: string; scopes: string[]; last_four: string; user_email: string | null; created_at: string; last_used_at: string | null; revoked_at: string | null }
interface Member { id: string; email: string; name: string | null; role: string }
interface Settings { workspace: { name: string; plan: string | null; trial_ends_at: string | null }; members: Member[]; api_keys: Key[] }

const SETTINGS = `query { settings {
  workspace { name plan trial_ends_at }
  members { id email name role }
  api_keys { key_id name scopes last_four user_email created_at last_used_at revoked_at } } }`;

export async function renderSettings(root: HTMLElement): Promise<void> {
  let data: Settings;
  try {
    data = (await gql<{ settings: Settings }>(SETTINGS)).settings;
  } catch (err) {
    const refused = err instanceof ApiError && err.code === 'permission_denied';
    mount(root, h('h2', {}, 'Settings'), notice('error', refused ? `Settings are refused for this key: ${err.message}` : (err as Error).message));
    return;
  }
  const reload = () => renderSettings(root);
  mount(root, h('h2', {}, 'Settings'), planSection(data, reload), membersSection(data, reload), keysSection(data, reload));
}

function planSection(data: Settings, reload: () => void): HTMLElement {
  const ws = data.workspace;
  const status = h('div');
  const plan = h('input', { name: 'plan', placeholder: 'plan, e.g. team', value: ws.plan ?? '' });
  const trial = h('input', { name: 'trial_ends_at', type: 'date', value: ws.trial_ends_at?.slice(0, 10) ?? '' });
  const save = (e: Event) => {
    e.preventDefault();
    // Only what was changed is sent: the date input holds the day of the trial end alone, and sent
    // back as it was it moved a trial ending at 18:30 to midnight.
    const changes: { p?: string; t?: string } = {};
    if (plan.value.trim() !== (ws.plan ?? '')) changes.p = plan.value.trim();
    if (trial.value !== (ws.trial_ends_at?.slice(0, 10) ?? '')) changes.t = trial.value ? `${trial.value}T00:00:00.000Z` : '';
    if (changes.p === undefined && changes.t === undefined) {
      mount(status, notice('info', 'Nothing to save: the plan and the trial end are as shown.'));
      return;
    }
    void attempt(status, async () => {
      await gql('mutation($p: String, $t: String) { setPlan(plan: $p, trial_ends_at: $t) { plan } }', changes);
      reload();
    });
  };
  return h('section', { id: 'plan' }, h('h3', {}, 'Plan'),
    h('p', {}, `Workspace “${ws.name}”: plan `, h('strong', { 'data-field': 'plan' }, ws.plan ?? 'trial'),
      ws.trial_ends_at ? `, trial ends ${when(ws.trial_ends_at)}` : ', no trial limit'),
    h('form', { onsubmit: save }, plan, trial, h('button', { type: 'submit' }, 'Save plan')), status);
}

function membersSection(data: Settings, reload: () => void): HTMLElement {
  const status = h('div');
  const roleSelect = (value: string, name: string) => h('select', { name }, ...ROLES.map((r) => h('option', { value: r, ...(r === value ? { selected: true } : {}) }, r)));
  const rows = data.members.map((m) => {
    const select = roleSelect(m.role, 'role');
    const change = () => attempt(status, async () => {
      await gql('mutation($u: String!, $r: String!) { setMemberRole(user_id: $u, role: $r) { role } }', { u: m.id, r: select.value });
      reload();
    });
    return h('tr', { 'data-member': m.email }, h('td', {}, m.email), h('td', {}, m.name ?? ''), h('td', {}, select),
      h('td', {}, h('button', { onclick: () => void change() }, 'Change role')));
  });
  const email = h('input', { name: 'email', type: 'email', placeholder: 'email', required: true });
  const name = h('input', { name: 'name', placeholder: 'name (optional)' });
  const role = roleSelect('member', 'new-role');
  const add = (e: Event) => {
    e.preventDefault();
    void attempt(status, async () => {
      await gql('mutation($e: String!, $n: String, $r: String!) { addMember(email: $e, name: $n, role: $r) { id } }', { e: email.value, n: name.value || null, r: role.value });
      reload();
    });
  };
  return h('section', { id: 'members' }, h('h3', {}, 'Members'),
    h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Email'), h('th', {}, 'Name'), h('th', {}, 'Role'), h('th'))), h('tbody', {}, ...rows)),
    h('form', { onsubmit: add }, email, name, role, h('button', { type: 'submit' }, 'Add member')), status);
}

function keysSection(data: Settings, reload: () => void): HTMLElement {
  const status = h('div', { id: 'key-status' });
  const rows = data.api_keys.map((k) => h('tr', { 'data-key': k.name },
    h('td', {}, k.name), h('td', {}, k.scopes.length ? k.scopes.join(', ') : 'all tools'), h('td', {}, `…${k.last_four}`),
    h('td', {}, k.user_email ?? ''), h('td', {}, when(k.created_at)), h('td', {}, when(k.last_used_at) || 'never'),
    h('td', {}, k.revoked_at ? `revoked ${when(k.revoked_at)}` : h('button', { class: 'danger', onclick: () => void revoke(k) }, 'Revoke'))));
  const revoke = (k: Key) => attempt(status, async () => {
    if (!confirm(`Revoke the key “${k.name}” (…${k.last_four})? Every call made with it will be refused from now on.`)) return;
    await gql('mutation($k: String!) { revokeApiKey(key_id: $k) { revoked_at } }', { k: k.key_id });
    reload();
  });
  const name = h('input', { name: 'key-name', placeholder: 'key name, e.g. zapier', required: true });
  const boxes = SCOPES.map((s) => h('input', { type: 'checkbox', name: 'scope', value: s }));
  const create = (e: Event) => {
    e.preventDefault();
    void attempt(status, async () => {
      const scopes = boxes.filter((b) => b.checked).map((b) => b.value);
      const made = await gql<{ createApiKey: { key: string } }>('mutation($n: String!, $s: [String!]!) { createApiKey(name: $n, scopes: $s) { key } }', { n: name.value, s: scopes });
      await renderSettings(document.getElementById('view')!);
      showOnce(document.getElementById('key-status')!, made.createApiKey.key);
    });
  };
  return h('section', { id: 'keys' }, h('h3', {}, 'Developer API keys'),
    h('table', {}, h('thead', {}, h('tr', {}, ...['Name', 'Scopes', 'Last four', 'Member', 'Created', 'Last used', ''].map((t) => h('th', {}, t)))), h('tbody', {}, ...rows)),
    h('form', { onsubmit: create, class: 'create-key' }, name,
      h('fieldset', {}, h('legend', {}, 'Scopes (none ticked: every tool)'), ...boxes.map((b) => h('label', {}, b, b.value))),
      h('button', { type: 'submit' }, 'Create key')), status);
}

/** The new key's value, shown this once, with a copy button. */
function showOnce(slot: HTMLElement, key: string): void {
  const value = h('code', { id: 'new-key' }, key);
  const copied = h('span');
  const copy = async () => {
    await navigator.clipboard.writeText(key).then(() => { copied.textContent = ' copied'; }, () => {
      getSelection()?.selectAllChildren(value);
      copied.textContent = ' selected: press Ctrl+C';
    });
  };
  mount(slot, h('div', { class: 'notice warning', role: 'status' },
    h('p', {}, 'Copy this key now: it is shown only once and cannot be recovered. Anyone holding it can call the tools its scopes allow.'),
    value, ' ', h('button', { onclick: () => void copy() }, 'Copy'), copied));
}

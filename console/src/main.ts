import './style.css';
import { ApiError, currentKey, gql, signIn, signOut, whenKeyRefused } from './api.ts';
import { h, mount, notice } from './dom.ts';
import { renderGraph } from './graph.ts';
import { renderReports } from './reports.ts';
import { renderSettings } from './settings.ts';
import { renderTimeline } from './timeline.ts';

/**
 * The console shell: a sign-in form, then four views chosen by the URL fragment (#settings,
 * #graph, #reports, #timeline). The key is never put in the URL.
 */

const VIEWS: Record<string, { title: string; render: (root: HTMLElement) => void | Promise<void> }> = {
  settings: { title: 'Settings', render: renderSettings },
  graph: { title: 'Graph explorer', render: renderGraph },
  reports: { title: 'Reports', render: renderReports },
  timeline: { title: 'Timeline', render: renderTimeline },
};

const app = document.getElementById('app')!;

function showSignIn(message?: string): void {
  const key = h('input', { name: 'api-key', type: 'password', autocomplete: 'off', placeholder: 'crm_live_…', required: true });
  const submit = async (e: Event) => {
    e.preventDefault();
    signIn(key.value);
    try {
      await gql('query { __typename }');
      route();
    } catch (err) {
      signOut();
      showSignIn(err instanceof ApiError && err.code === 'unauthorized' ? 'That key is not valid (or was revoked).' : (err as Error).message);
    }
  };
  mount(app, h('main', { class: 'sign-in' }, h('h1', {}, 'CRM console'),
    h('p', {}, 'Sign in with an API key of the workspace Owner. The key stays in this tab only.'),
    message ? notice('error', message) : null,
    h('form', { onsubmit: (e) => void submit(e) }, key, h('button', { type: 'submit' }, 'Sign in'))));
}

function route(): void {
  if (!currentKey()) return showSignIn();
  const name = location.hash.slice(1) in VIEWS ? location.hash.slice(1) : 'settings';
  const view = h('div', { id: 'view' });
  const nav = h('nav', {}, ...Object.entries(VIEWS).map(([id, v]) => h('a', { href: `#${id}`, ...(id === name ? { 'aria-current': 'page' } : {}) }, v.title)),
    h('button', { class: 'sign-out', onclick: () => { signOut(); location.hash = ''; showSignIn(); } }, 'Sign out'));
  mount(app, h('header', {}, h('h1', {}, 'CRM console'), nav), h('main', {}, view));
  void VIEWS[name]!.render(view);
}

// A key revoked while signed in: back to the sign-in form, saying why, rather than an error in each view.
whenKeyRefused(() => {
  history.replaceState(null, '', location.pathname);
  showSignIn('The server no longer takes this key (it was revoked, or its user removed): sign in with another.');
});
window.addEventListener('hashchange', route);
route();

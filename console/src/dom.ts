/** A few DOM helpers so the views read as markup without a framework. */

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | EventListener | undefined | null>;

/** `h('button', {onclick: f, class: 'x'}, 'Save')`: attributes starting with "on" are listeners. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (name === 'value' && 'value' in el) (el as HTMLInputElement).value = String(value);
    else if (name === 'checked' && 'checked' in el) (el as HTMLInputElement).checked = Boolean(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) el.append(child instanceof Node ? child : String(child));
  return el;
}

/** Replaces the element's content. */
export function mount(target: Element, ...children: Child[]): void {
  target.replaceChildren(...children.filter((c): c is Node | string | number => c !== null && c !== undefined && c !== false).map((c) => (c instanceof Node ? c : String(c))));
}

/** A message box: `error` for refusals, `info` otherwise. */
export function notice(kind: 'error' | 'info' | 'warning', text: string): HTMLElement {
  return h('p', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

/** "2026-11-22T03:05:50.123Z" → "2026-11-22 03:05 UTC"; empty for null. */
export function when(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '';
}

/** Runs an async action and shows its failure in `slot` instead of losing it. */
export async function attempt(slot: Element, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (err) {
    mount(slot, notice('error', (err as Error).message));
  }
}

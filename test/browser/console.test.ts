import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../gateway/seed/index.ts';
import { createKey, revokeKey, setBilling } from '../../src/domain/services/settings.ts';
import { callTool, startHarness, type Harness } from '../e2e/harness.ts';
import { isolatedContext, launch, paintedPixels, shot, signIn } from './browser.ts';

/**
 * The web console, /docs and GraphiQL in a real headless Chromium against a live server with the
 * demo data. One browser for the file; each test gets a fresh context (its own sessionStorage),
 * and every request that would leave the server is aborted and must not have been made.
 */
// A real browser drives several pages per test; on a busy 2-core machine that can take longer than
// the suite's default 20 s, so these tests get a minute each.
describe('the browser pages', { timeout: 60_000 }, () => {
  let h: Harness;
  let browser: Browser;
  let context: BrowserContext;
  let outside: string[];
  let page: Page;
  /** What the page logged as errors (a failed request among them, such as a missing favicon). */
  let logged: string[];

  beforeAll(async () => {
    h = await startHarness();
    await seedDemo(h.server.store, { workspaceId: h.ws.id, keyPrefix: h.config.keyPrefix, scale: 0.2 });
    for (const [name, config] of [
      ['Pipeline funnel', { object_type: 'deals', metric: 'count', group_by: 'stage', chart_type: 'funnel' }],
      ['Deals per month', { object_type: 'deals', metric: 'count', time_bucket: 'month', time_field: 'created_at', chart_type: 'line' }],
    ] as const) {
      const made = await callTool(h, 'rest', h.ws.owner.key, 'reports.create', { name, config });
      if (!made.ok) throw new Error(`reports.create: ${made.message}`);
    }
    browser = await launch();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  const open = async () => {
    ({ context, outside } = await isolatedContext(browser, h.url));
    page = await context.newPage();
    logged = [];
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text());
    });
    return page;
  };
  /** `refusals`: the test makes the server refuse calls, which the browser logs as failed requests. */
  const done = async (name: string, { refusals = false } = {}) => {
    await shot(page, name);
    await context.close();
    expect(outside).toEqual([]);
    if (!refusals) expect(logged).toEqual([]);
  };

  it('lets an Owner create a key whose shown value calls a tool, then revoke it so the next call is refused', async () => {
    await open();
    await signIn(page, h.url, h.ws.owner.key);
    await page.fill('input[name="key-name"]', 'from the console');
    await page.check('input[name="scope"][value="records"]');
    await page.click('form.create-key button[type="submit"]');
    const key = (await page.textContent('#new-key', { timeout: 10_000 }))!;
    expect(await page.textContent('#key-status')).toContain('shown only once');
    await shot(page, 'settings-key-created');

    expect(await callTool(h, 'rest', key, 'records.search', { query: 'a' })).toMatchObject({ ok: true });
    expect(await callTool(h, 'rest', key, 'notes.list', {})).toMatchObject({ ok: false, code: 'permission_denied' });

    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('tr[data-key="from the console"] button.danger');
    await page.waitForSelector('tr[data-key="from the console"] >> text=revoked');
    expect(await callTool(h, 'rest', key, 'records.search', { query: 'a' })).toMatchObject({ ok: false, status: 401, code: 'unauthorized' });
    await done('settings-key-revoked');
  });

  it('lets an Owner add a member, change their role and set the plan', async () => {
    // A trial end at a time of day, which the date input cannot show: saving the plan keeps it.
    await setBilling(h.server.store, { workspace_id: h.ws.id, trial_ends_at: '2027-12-20T18:30:00.000Z' });
    await open();
    await signIn(page, h.url, h.ws.owner.key);
    await page.fill('input[name="email"]', 'new.hire@e2e.test');
    await page.click('#members button[type="submit"]');
    const row = 'tr[data-member="new.hire@e2e.test"]';
    await page.waitForSelector(row);
    await page.selectOption(`${row} select`, 'admin');
    // The console re-renders the settings after a change; wait for that before typing the plan, or
    // a late re-render replaces the filled input with an empty one.
    const rendered = (await page.$(`${row} select`))!;
    await page.click(`${row} button`);
    const roleOf = async () => (await h.server.store.listUsers(h.ws.id)).find((u) => u.email === 'new.hire@e2e.test')?.role;
    await expect.poll(roleOf).toBe('admin');
    await rendered.waitForElementState('hidden');
    await page.fill('input[name="plan"]', 'team');
    await page.click('#plan button[type="submit"]');
    await page.waitForSelector('[data-field="plan"] >> text=team');
    expect(await callTool(h, 'rest', h.ws.owner.key, 'billing.get', {})).toMatchObject({ ok: true, result: { plan: 'team', trial_ends_at: '2027-12-20T18:30:00.000Z' } });
    // Saved again unchanged: nothing is sent.
    await page.click('#plan button[type="submit"]');
    await page.waitForSelector('#plan .notice.info >> text=Nothing to save');
    await done('settings-members-plan');
  });

  it('goes back to the sign-in form, saying why, when the signed-in key is revoked meanwhile', async () => {
    const { key, key_id } = await createKey(h.server.store, { workspace_id: h.ws.id, user_id: h.ws.owner.user_id, name: 'revoked meanwhile', scopes: [], prefix: h.config.keyPrefix });
    await open();
    await signIn(page, h.url, key);
    await revokeKey(h.server.store, key_id);
    await page.click('nav a[href="#timeline"]');
    await page.waitForSelector('input[name="api-key"]');
    expect(await page.textContent('.notice.error')).toContain('no longer takes this key');
    await done('signed-out-on-revoke', { refusals: true });
  });

  it('shows a Member the settings refused, with the reason', async () => {
    await open();
    await signIn(page, h.url, h.ws.member.key);
    const refusal = await page.textContent('.notice.error');
    expect(refusal).toContain('refused');
    expect(refusal).toContain('only the workspace owner');
    await done('settings-member-refused');
  });

  it('draws the graph around a demo record, expands a clicked node and shows a path to another record', async () => {
    const company = await callTool(h, 'rest', h.ws.owner.key, 'records.list', { object_type_slug: 'companies', page_size: 1 });
    if (!company.ok) throw new Error(company.message);
    const name: string = company.result.items[0].display_name;
    await open();
    await signIn(page, h.url, h.ws.owner.key);
    await page.click('nav >> text=Graph explorer');
    await page.fill('input[name="graph-search"]', name);
    await page.click('form >> text=Search');
    await page.click(`.results button >> text=${name}`);
    await page.waitForFunction(() => Number(document.getElementById('graph-canvas')?.dataset.nodes ?? 0) > 1, null, { timeout: 15_000 });
    const drawn = Number(await page.getAttribute('#graph-canvas', 'data-nodes'));
    expect(drawn).toBeGreaterThan(1);
    // Labels are drawn on a 2D canvas beside the WebGL one: painted pixels mean nodes on screen.
    await page.waitForTimeout(300);
    expect(await paintedPixels(page, 'canvas.sigma-labels')).toBeGreaterThan(100);
    expect(await page.textContent('#graph-status')).toMatch(/\d+ nodes, \d+ edges/);
    await shot(page, 'graph-explorer');

    const [x, y] = (await page.getAttribute('#graph-canvas', 'data-root-at'))!.split(',').map(Number);
    const box = (await page.locator('#graph-canvas').boundingBox())!;
    await page.mouse.click(box.x + x!, box.y + y!);
    await page.waitForSelector(`#selected >> text=${name}`);

    const around = await callTool(h, 'rest', h.ws.owner.key, 'graph.query', { record_id: company.result.items[0].record_id, depth: 2 });
    if (!around.ok) throw new Error(around.message);
    const far = around.result.nodes.find((n: { depth: number }) => n.depth === 2) ?? around.result.nodes.at(-1);
    await page.fill('input[name="path-to"]', far.record_id);
    await page.click('form >> text=Show path');
    await page.waitForSelector('#graph-status >> text=/Path of \\d+ hops/');
    expect(await page.textContent('#graph-status')).toContain(far.display_name);
    await done('graph-path');
  });

  it('renders a funnel report and a line report as charts', async () => {
    await open();
    await signIn(page, h.url, h.ws.owner.key);
    await page.click('nav >> text=Reports');
    for (const [name, chart] of [['Pipeline funnel', 'funnel'], ['Deals per month', 'line']] as const) {
      await page.click(`.results button >> text=${name}`);
      await page.waitForSelector(`canvas[data-chart="${chart}"]`);
      await page.waitForTimeout(200);
      expect(await paintedPixels(page, `canvas[data-chart="${chart}"]`)).toBeGreaterThan(500);
      await shot(page, `report-${chart}`);
    }
    await done('reports');
  });

  it('shows the change feed with who, key, call style and tool', async () => {
    await open();
    await signIn(page, h.url, h.ws.owner.key);
    await page.click('nav >> text=Timeline');
    const row = page.locator('#timeline tr', { hasText: 'reports.create' }).first();
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain('owner@e2e.test');
    expect(text).toContain('rest');
    // The seeded workspace has more changes than one page: older ones come on demand.
    expect(await page.locator('#timeline tbody tr').count()).toBe(50);
    await page.click('#timeline-more');
    await page.waitForFunction(() => document.querySelectorAll('#timeline tbody tr').length > 50);
    await done('timeline');
  });

  it('renders the API reference at /docs from the package', async () => {
    await open();
    await page.goto(`${h.url}/docs`);
    await page.waitForSelector('.swagger-ui .info .title');
    expect(await page.textContent('.swagger-ui .info')).toContain('REST bridge');
    await page.waitForSelector('.opblock');
    expect(await page.locator('.opblock').count()).toBe(62);
    await done('docs');
  });

  it('renders GraphiQL at /graphql without any network beyond this server', async () => {
    await open();
    await page.goto(`${h.url}/graphql`);
    await page.waitForSelector('.graphiql-container', { timeout: 20_000 });
    expect(await page.innerText('body')).not.toContain('Loading');
    // GraphiQL asks for the schema before a key is entered: the server's 401s are all it logs.
    expect(logged.filter((line) => !line.includes('status of 401'))).toEqual([]);
    await done('graphiql', { refusals: true });
  });
});

import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium, headless, driven by playwright-core. `.ci/run` installs it; locally:
 * `apt-get install -y chromium`. Playwright gives every launch a fresh, empty user-data-dir.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags that keep Chromium from reaching for the network on its own (updates, sync, QUIC). */
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Screenshots land here (gitignored); CI keeps them as the run's artifacts. */
export const ARTIFACTS = new URL('../../test-artifacts/browser/', import.meta.url).pathname;

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: run "apt-get install -y chromium" (bash .ci/run does)`);
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

/**
 * A fresh context (own sessionStorage) where every request to another origin than `base` is
 * aborted and remembered: the pages must load everything from the package.
 */
export async function isolatedContext(browser: Browser, base: string): Promise<{ context: BrowserContext; outside: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const origin = new URL(base).origin;
  const outside: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  return { context, outside };
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}

/** Signs in to the console with a key through its form. */
export async function signIn(page: Page, base: string, key: string): Promise<void> {
  await page.goto(`${base}/console`);
  await page.fill('input[name="api-key"]', key);
  await page.click('button[type="submit"]');
  await page.waitForSelector('nav');
}

/** How many pixels of a 2D canvas are painted (not fully transparent). */
export function paintedPixels(page: Page, selector: string): Promise<number> {
  return page.$eval(selector, (canvas) => {
    const c = canvas as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
    return n;
  });
}

// Headless Chromium for the webview tests (Debian's /usr/bin/chromium through playwright-core). When it is missing
// the tests skip with what to install, except in CI, where that fails (test/helpers/prereqs.ts).
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { renderTraceHtml } from '../../src/core/trace/html.js';
import type { TraceEvent } from '../../src/protocol/trace.js';
import type { ViewerWarning } from '../../src/protocol/webview.js';
import { loadViewerAssets, ROOT } from './buildViewer.js';
import { CHROMIUM, skipWithout } from '../helpers/prereqs.js';

export { CHROMIUM };
export const OUTPUT = join(ROOT, 'test/output');
/** The `skip` option of every test that needs Chromium. */
export const chromiumMissing = skipWithout('chromium');

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
}

/** Writes the static HTML page for a trace to test/output/<name>.html and returns its file URL. */
export async function writeTracePage(
  name: string,
  trace: { runId: string; events: readonly TraceEvent[]; warnings: readonly ViewerWarning[] },
  theme?: 'dark' | 'light' | 'high-contrast',
  options: { minified?: boolean } = {},
): Promise<string> {
  const assets = await loadViewerAssets(options);
  mkdirSync(OUTPUT, { recursive: true });
  const file = join(OUTPUT, `${name}.html`);
  writeFileSync(file, renderTraceHtml({ ...trace, assets, nonce: randomBytes(18).toString('base64'), theme }));
  return pathToFileURL(file).href;
}

/** Collects console errors, page errors and any request that leaves the page (there must be none). */
export function watchPage(page: Page): { errors: string[]; requests: string[] } {
  const seen = { errors: [] as string[], requests: [] as string[] };
  page.on('console', (m) => {
    if (m.type() === 'error') seen.errors.push(m.text());
  });
  page.on('pageerror', (e) => seen.errors.push(String(e)));
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith('file:') && !url.startsWith('data:')) seen.requests.push(url);
  });
  return seen;
}

export async function openViewer(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => window.__waypointViewer?.ready === true);
}

/** A new page of this size, watched for errors and stray requests, with the viewer at `url` open and ready. */
export async function openWatchedViewer(browser: Browser, url: string, viewport: { width: number; height: number }): Promise<{ page: Page; seen: ReturnType<typeof watchPage> }> {
  const page = await browser.newPage({ viewport });
  const seen = watchPage(page);
  await openViewer(page, url);
  return { page, seen };
}

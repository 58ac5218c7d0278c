// The Paths and Detections tabs (runs calling LM Trajectory Generators' API) in headless Chromium, on a real engine
// trace of the toaster_slot reference solution with estimated detections: one dashed generated path and one solid
// executed path per execute_trajectory step in both views, the step list with point counts; the detections table
// with truth, printed estimate and errors, and the top-down boxes. A MALMM trace shows neither tab.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { projectTrajgenPaths } from '../../src/architectures/trajgen/view/trajgenPaths.js';
import type { TraceEvent } from '../../src/protocol/trace.js';
import { loadFixture } from '../unit/core/trace/projections/helpers.js';
import { lmtgSolutionTrace } from '../unit/architectures/trajgen/view/trajgenTrace.js';
import { chromiumMissing, launch, openViewer, openWatchedViewer, OUTPUT, watchPage, writeTracePage } from './browser.js';

const skip = chromiumMissing;
let browser: Browser;
let page: Page;
let seen: ReturnType<typeof watchPage>;
let events: TraceEvent[];

before(async () => {
  if (skip) return;
  events = await lmtgSolutionTrace('toaster_slot', 0, 'estimated');
  browser = await launch();
  const url = await writeTracePage('lmtg-toaster', { runId: 'lmtg-toaster', events, warnings: [] });
  ({ page, seen } = await openWatchedViewer(browser, url, { width: 1200, height: 1000 }));
});

after(async () => {
  await browser?.close();
});

test('the Paths tab draws each step\'s generated and executed path in 3D and top-down, and lists the steps', { skip }, async () => {
  const view = projectTrajgenPaths(events);
  await page.click('vscode-tab-header[data-tab="paths"]');
  await page.waitForSelector('.lmtg-step');
  const n = view.steps.length;
  assert.equal(await page.locator('.lmtg-generated').count(), 2 * n);
  assert.equal(await page.locator('.lmtg-executed').count(), 2 * n);
  assert.equal(await page.locator('.lmtg-close').count(), 2);
  assert.deepEqual(await page.locator('.lmtg-box').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-label'))), ['bread', 'toaster slot', 'bread', 'toaster slot']);
  const items = await page.locator('.lmtg-step').allTextContents();
  assert.equal(items.length, n);
  assert.match(items[0]!, new RegExp(`step 1: ${view.steps[0]!.poses.length} poses, ${view.steps[0]!.executed.length} executed samples`));
  await page.screenshot({ path: join(OUTPUT, 'viewer-lmtg-paths.png'), fullPage: true });
  await page.locator('.lmtg-step[data-step="3"] a').click();
  assert.equal(await page.evaluate(() => window.__waypointViewer!.selectedTurn), view.steps[2]!.turn);
});

test('the Detections tab lists each printed box beside its truth with errors, and draws both top-down', { skip }, async () => {
  const view = projectTrajgenPaths(events);
  await page.click('vscode-tab-header[data-tab="detections"]');
  await page.waitForSelector('.lmtg-table-rows tbody tr');
  const rows = await page.locator('.lmtg-table-rows tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  assert.equal(rows.length, view.detections.length);
  const d = view.detections[1]!;
  assert.deepEqual(rows[1]!.slice(2, 4), ['toaster slot', 'toaster slot']);
  assert.equal(rows[1]![7], (d.centreErrM * 1000).toFixed(1));
  assert.match(await page.textContent('.lmtg-detections .lmtg-note') ?? '', /perception: estimated/);
  assert.equal(await page.locator('.lmtg-truth').count(), view.detections.length);
  assert.equal(await page.locator('.lmtg-estimate').count(), view.detections.length);
  await page.screenshot({ path: join(OUTPUT, 'viewer-lmtg-detections.png'), fullPage: true });
  assert.deepEqual(seen.errors.filter((e) => !/Could not create web worker|web workers are disabled/.test(e)), []);
});

test('a MALMM trace shows neither tab', { skip }, async () => {
  const url = await writeTracePage('malmm-no-lmtg', { runId: 'plain', ...loadFixture('malmm-pick-place.jsonl') });
  const p = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await openViewer(p, url);
  await p.evaluate(() => window.__waypointViewer!.flush());
  assert.equal(await p.isVisible('vscode-tab-header[data-tab="paths"]'), false);
  assert.equal(await p.isVisible('vscode-tab-header[data-tab="detections"]'), false);
  await p.close();
});

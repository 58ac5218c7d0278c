// "Motion scores per action" in headless Chromium: the chart's datasets equal the trace's ActionMetrics, hover
// and click map actions to turns, the Summary tab shows Q / min M_I / min clearance and the Executor turn its table.
// WAYPOINT_MOTION_TRACE=<trace.jsonl> also screenshots a real run (test/output/viewer-motion-real.png).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { readTrace } from '../../src/core/trace/reader.js';
import { withMotionMetrics } from '../fixtures/traces/withMotionMetrics.js';
import { loadFixture } from '../unit/core/trace/projections/helpers.js';
import { chromiumMissing, launch, openViewer, openWatchedViewer, OUTPUT, watchPage, writeTracePage } from './browser.js';

const skip = chromiumMissing;
const events = withMotionMetrics(loadFixture('malmm-pick-place.jsonl').events);
const metrics = events.flatMap((e) => (e.type === 'code_execution' ? e.apiCalls.flatMap((c) => (c.metrics ? [{ turn: e.turn, ...c.metrics }] : [])) : []));
let browser: Browser;
let page: Page;
let seen: ReturnType<typeof watchPage>;

before(async () => {
  if (skip) return;
  browser = await launch();
  const url = await writeTracePage('malmm-motion', { runId: 'motion-run', events, warnings: [] });
  ({ page, seen } = await openWatchedViewer(browser, url, { width: 1400, height: 1000 }));
});

after(async () => {
  await browser?.close();
});

test('the motion chart draws M_I, M_E, M_T per action and Q, equal to the trace metrics', { skip }, async () => {
  await page.click('vscode-tab-header[data-tab="plots"]');
  await page.waitForFunction(() => window.__waypointViewer!.motionChart() !== undefined);
  const chart = (await page.evaluate(() => window.__waypointViewer!.motionChart()))!;
  assert.equal(metrics.length, 7);
  assert.deepEqual(chart.labels, metrics.map((m, i) => `#${i} T${m.turn}`));
  const q = metrics.reduce((s, m) => s + m.mT, 0) / metrics.length;
  assert.deepEqual(chart.datasets.map((d) => d.label), ['M_I', 'M_E', 'M_T', `Q = ${q.toFixed(3)}`]);
  assert.deepEqual(chart.datasets[0].data, metrics.map((m) => m.mI));
  assert.deepEqual(chart.datasets[1].data, metrics.map((m) => m.mE));
  assert.deepEqual(chart.datasets[2].data, metrics.map((m) => m.mT));
  assert.deepEqual(chart.datasets[3].data, metrics.map(() => q));
  await page.locator('.motion-scores').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(OUTPUT, 'viewer-motion-scores.png'), fullPage: true });
});

test('hovering an action highlights its turn; clicking selects it', { skip }, async () => {
  const canvas = page.locator('canvas[data-plot="motion"]');
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  // Scan across the chart until the hovered turn is 18 (actions #3 and #4).
  let hovered: number | undefined;
  for (let fx = 0.1; fx <= 0.95 && hovered !== 18; fx += 0.02) {
    await page.mouse.move(box.x + box.width * fx, box.y + box.height * 0.6);
    hovered = await page.evaluate(() => window.__waypointViewer!.hoverTurn);
  }
  assert.equal(hovered, 18);
  assert.equal(await page.getAttribute('.turn-row.hovered', 'data-turn'), '18');
  await page.mouse.down();
  await page.mouse.up();
  // Chart.js handles canvas events on the next animation frame.
  await page.waitForFunction(() => window.__waypointViewer!.selectedTurn === 18, null, { timeout: 5000 }).catch(() => {});
  assert.equal(await page.evaluate(() => window.__waypointViewer!.selectedTurn), 18);
  await page.screenshot({ path: join(OUTPUT, 'viewer-motion-hover.png') });
  await page.mouse.move(0, 0);
});

test('Summary tab shows Q, min M_I and min clearance with links to the worst actions', { skip }, async () => {
  await page.click('vscode-tab-header[data-tab="summary"]');
  await page.waitForSelector('.motion-summary table');
  const rows = await page.$$eval('.motion-summary tr', (els) => els.map((e) => [(e as HTMLElement).dataset.metric, e.querySelector('td')!.textContent, e.querySelectorAll('td')[1]?.textContent]));
  const q = metrics.reduce((s, m) => s + m.mT, 0) / metrics.length;
  assert.deepEqual(rows.slice(0, 3), [
    ['Q (mean M_T, episode)', q.toFixed(3), '7 actions, 6 moved'],
    ['min M_I', '0.090', '#4 execute_trajectory, turn 18'],
    ['min clearance (mm)', '6.0', '#4 execute_trajectory, turn 18 (red block ↔ blue block)'],
  ]);
  assert.deepEqual(rows[3].slice(0, 2), ['collisions', '1']);
  await page.screenshot({ path: join(OUTPUT, 'viewer-motion-summary.png') });
  await page.click('.motion-summary tr[data-metric="min M_I"] a');
  assert.equal(await page.evaluate(() => window.__waypointViewer!.selectedTurn), 18);
});

test('the Executor turn lists its actions with their metrics', { skip }, async () => {
  await page.click('vscode-tab-header[data-tab="turn"]');
  await page.locator('.turn-row[data-turn="22"]').click();
  await page.waitForSelector('.detail[data-turn="22"] .motion-table');
  const cells = await page.$$eval('.motion-table tbody tr', (els) => els.map((e) => [...e.querySelectorAll('td')].map((td) => td.textContent)));
  assert.deepEqual(cells, [
    ['5', 'execute_trajectory', '[0.144, -0.138, 0.822], -1.571', metrics[5].startSecs.toFixed(2), '0.270', '0.120', '0.390', '36.0', 'right finger ↔ red block', '0', '2.5'],
    ['6', 'open_gripper', '', metrics[6].startSecs.toFixed(2), '-1.000', '-1.000', '-2.000', '183.0', 'right finger ↔ red block', '0', '–'],
  ]);
  assert.equal(await page.getAttribute('.motion-table tbody tr[data-action="6"]', 'class'), 'no-motion');
  await page.locator('.motion-table').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(OUTPUT, 'viewer-motion-turn.png') });
  assert.deepEqual(seen.requests, []);
  assert.deepEqual(seen.errors.filter((e) => !/Could not create web worker|web workers are disabled/.test(e)), []);
});

test('a trace without metrics shows a note instead of the chart', { skip }, async () => {
  const url = await writeTracePage('malmm-no-motion', { runId: 'plain', ...loadFixture('malmm-pick-place.jsonl') });
  const p = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await openViewer(p, url);
  await p.click('vscode-tab-header[data-tab="plots"]');
  await p.waitForSelector('.motion-empty:not(.hidden)');
  assert.equal(await p.evaluate(() => window.__waypointViewer!.motionChart()), undefined);
  await p.click('vscode-tab-header[data-tab="summary"]');
  assert.match((await p.textContent('.motion-summary'))!, /No action metrics in this trace/);
  await p.close();
});

const realTrace = process.env.WAYPOINT_MOTION_TRACE;
test('a real run: chart datasets equal its metrics (WAYPOINT_MOTION_TRACE)', { skip: skip || (realTrace ? false : 'set WAYPOINT_MOTION_TRACE to a trace.jsonl') }, async () => {
  const trace = readTrace(readFileSync(realTrace!, 'utf8'));
  const real = trace.events.flatMap((e) => (e.type === 'code_execution' ? e.apiCalls.flatMap((c) => (c.metrics ? [c.metrics] : [])) : []));
  const url = await writeTracePage('real-motion', { runId: 'real', ...trace });
  const p = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await openViewer(p, url);
  await p.click('vscode-tab-header[data-tab="plots"]');
  await p.waitForFunction(() => window.__waypointViewer!.motionChart() !== undefined);
  const chart = (await p.evaluate(() => window.__waypointViewer!.motionChart()))!;
  assert.deepEqual(chart.datasets[2].data, real.map((m) => m.mT));
  assert.deepEqual(chart.datasets[0].data, real.map((m) => m.mI));
  await p.locator('.motion-scores').scrollIntoViewIfNeeded();
  await p.screenshot({ path: join(OUTPUT, 'viewer-motion-real.png') });
  await p.click('vscode-tab-header[data-tab="summary"]');
  await p.waitForSelector('.motion-summary table');
  await p.evaluate(() => { window.__waypointViewer!.flush(); document.querySelector('.motion-summary')!.scrollIntoView(); });
  await p.screenshot({ path: join(OUTPUT, 'viewer-motion-real-summary.png') });
  await p.close();
});

// The Plan tab (Action Contextualization) in headless Chromium, on the trace of the scripted retune exchange: the
// plan table shows both executions with their parameters, checks and scores, the retune's parameter diff, the run
// with its Q, and the Fig. 7-8 chart; no Rounds tab (its rounds are these executions); a trace of another
// architecture hides the Plan tab.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { projectActctxPlan } from '../../src/architectures/actctx/view/actctxPlan.js';
import type { TraceEvent } from '../../src/protocol/trace.js';
import { retuneExchange } from '../unit/architectures/actctx/scripted.js';
import { loadFixture } from '../unit/core/trace/projections/helpers.js';
import { chromiumMissing, launch, openViewer, openWatchedViewer, OUTPUT, watchPage, writeTracePage } from './browser.js';

const skip = chromiumMissing;
let browser: Browser;
let page: Page;
let seen: ReturnType<typeof watchPage>;
let events: TraceEvent[];

before(async () => {
  if (skip) return;
  events = (await retuneExchange()).events;
  browser = await launch();
  const url = await writeTracePage('actctx-retune', { runId: 'actctx-retune', events, warnings: [] });
  ({ page, seen } = await openWatchedViewer(browser, url, { width: 1400, height: 1100 }));
});

after(async () => {
  await browser?.close();
});

test('the Plan tab shows both executions: parameters, checks with verdicts, M_I / M_E / M_T, and the retune diff', { skip }, async () => {
  await page.click('vscode-tab-header[data-tab="plan"]');
  await page.waitForSelector('.ac-attempt');
  const titles = await page.$$eval('.ac-attempt > summary', (els) => els.map((e) => e.textContent));
  assert.equal(titles.length, 2);
  assert.match(titles[0]!, /R1 · run 1 · retune · every check passed · Q = 0\.1\d{3}/);
  assert.match(titles[1]!, /P0 · run 1 · plan · failed at action 1/);
  const p0 = page.locator('.ac-attempt[data-attempt="1:P0"]');
  const failedRow = await p0.locator('tr.ac-failed td').allTextContents();
  assert.equal(failedRow[0], '1');
  assert.equal(failedRow[1], 'pick');
  assert.match(failedRow[2]!, /speed=0\.95/);
  assert.match(failedRow[3]!, /✘ holding\(\) True → False/);
  const view = projectActctxPlan(events);
  const step = view.attempts[0]!.steps[1]!;
  assert.deepEqual(failedRow.slice(4), [step.mI!.toFixed(4), step.mE!.toFixed(4), step.mT!.toFixed(4)]);
  const r1 = page.locator('.ac-attempt[data-attempt="1:R1"]');
  assert.deepEqual(await r1.locator('.ac-diff li').allTextContents(), ['1 pick: speed 0.95 → 0.4']);
  assert.deepEqual(await r1.locator('.ac-param.changed').allTextContents(), ['speed=0.4']);
  assert.equal(await r1.locator('tbody tr').count(), 6);
  assert.deepEqual(await page.locator('.ac-runs-table tbody td').allTextContents(), ['1', 'yes', view.runs()[0]!.q!.toFixed(4), '1', '0', '1', '✔ kept']);
  await page.screenshot({ path: join(OUTPUT, 'viewer-actctx-plan.png'), fullPage: true });
});

test('the chart draws Q per execution and the run\'s trials, and clicking an execution selects its turn', { skip }, async () => {
  await page.waitForFunction(() => window.__waypointViewer!.actctxChart() !== undefined);
  const chart = (await page.evaluate(() => window.__waypointViewer!.actctxChart()))!;
  const view = projectActctxPlan(events);
  assert.deepEqual(chart.labels, ['P0', 'R1']);
  assert.deepEqual(chart.datasets[0]!.data, view.attempts.map((a) => a.q));
  assert.deepEqual(chart.datasets[1]!.data, [null, 1]);
  await page.locator('.ac-attempt[data-attempt="1:P0"] summary a').click();
  assert.equal(await page.evaluate(() => window.__waypointViewer!.selectedTurn), view.attempts[0]!.turn);
  assert.deepEqual(seen.errors.filter((e) => !/Could not create web worker|web workers are disabled/.test(e)), []);
});

test('no Rounds tab: its rounds are plan executions (shown here), not a RoCo dialog that could look "in progress"', { skip }, async () => {
  assert.ok(events.some((e) => typeof e.round === 'number'), 'the trace does carry round counters');
  assert.equal(await page.isVisible('vscode-tab-header[data-tab="plan"]'), true);
  assert.equal(await page.isVisible('vscode-tab-header[data-tab="rounds"]'), false);
});

test('a trace of another architecture hides the Plan tab', { skip }, async () => {
  const url = await writeTracePage('malmm-no-plan', { runId: 'plain', ...loadFixture('malmm-pick-place.jsonl') });
  const p = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await openViewer(p, url);
  await p.evaluate(() => window.__waypointViewer!.flush());
  assert.equal(await p.isVisible('vscode-tab-header[data-tab="plan"]'), false);
  await p.close();
});

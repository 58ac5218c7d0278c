// LLaMAR's views in headless Chromium on a run made here (reference-flawed, 2 robots, kitchen): the Floor plan tab
// draws the plan, the objects (seen and not yet seen) and the robots with their paths for the chosen step; the
// Steps tab has a row per step with every robot's action and result; the Summary has the paper's metrics. A MALMM
// run has none of these tabs. Screenshots: test/output/viewer-household-*.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { projectHouseholdSteps } from '../../src/architectures/llamar/view/householdSteps.js';
import { loadFixture } from '../unit/core/trace/projections/helpers.js';
import { policyClient, runLlamar, type LlamarRun } from '../unit/architectures/llamar/helpers.js';
import { chromiumMissing, launch, openViewer, openWatchedViewer, OUTPUT, watchPage, writeTracePage } from './browser.js';

const skip = chromiumMissing;
let browser: Browser;
let page: Page;
let seen: ReturnType<typeof watchPage>;
let run: LlamarRun;

before(async () => {
  if (skip) return;
  run = await runLlamar({ task: 'put_bread_lettuce_tomato_fridge', agents: 2, seed: 0, model: policyClient('reference-flawed') });
  browser = await launch();
  const url = await writeTracePage('llamar-kitchen', { runId: 'llamar-run', events: run.events, warnings: [] });
  ({ page, seen } = await openWatchedViewer(browser, url, { width: 1400, height: 1000 }));
});

after(async () => {
  await browser?.close();
});

test('the Floor plan tab draws the house, the objects and both robots with their paths, step by step', { skip }, async () => {
  assert.equal(await page.isVisible('vscode-tab-header[data-tab="floorplan"]'), true);
  // The symbolic household has no poses to plot or replay and no dialog rounds: those tabs are not offered.
  for (const tab of ['plots', '3d', 'rounds']) assert.equal(await page.isVisible(`vscode-tab-header[data-tab="${tab}"]`), false, tab);
  await page.click('vscode-tab-header[data-tab="floorplan"]');
  await page.waitForSelector('.fp-map');
  const last = run.result.end.metrics.steps!;
  const d = (await page.evaluate(() => window.__waypointViewer!.floorPlan()))!;
  assert.equal(d.step, last);
  assert.equal(d.cells, 20 * 15, 'every cell of the kitchen plan');
  assert.ok(d.objects >= 10);
  assert.deepEqual(d.agents.map((a) => a.name), ['Alice', 'Bob']);
  assert.equal(await page.locator('.fp-robot').count(), 2);
  assert.ok((await page.locator('.fp-object').count()) >= 10);
  assert.match((await page.textContent('.fp-step-label'))!, new RegExp(`step ${last} of ${last} \\(cap 30\\)`));
  await page.screenshot({ path: join(OUTPUT, 'viewer-household-floorplan.png'), fullPage: true });
  // The first step in which a robot walks: its path of that step is drawn, and the side table lists what each did.
  const walk = projectHouseholdSteps(run.events).steps.find((s) => s.agents.some((a) => a.path.length > 1))!;
  await page.evaluate((n) => window.__waypointViewer!.showStep(n), walk.step);
  const sw = (await page.evaluate(() => window.__waypointViewer!.floorPlan()))!;
  assert.equal(sw.step, walk.step);
  assert.deepEqual(sw.agents.map((a) => a.pathCells), walk.agents.map((a) => a.path.length));
  assert.ok((await page.locator('.fp-path').count()) >= 1);
  assert.equal(await page.locator('.fp-actions tr').count(), 2);
  await page.screenshot({ path: join(OUTPUT, 'viewer-household-floorplan-walk.png'), fullPage: true });
  // Step 0 is the scene at reset; more objects are unseen then than at the end.
  await page.evaluate(() => window.__waypointViewer!.showStep(0));
  const s0 = (await page.evaluate(() => window.__waypointViewer!.floorPlan()))!;
  assert.ok(s0.unseenObjects >= d.unseenObjects, `${s0.unseenObjects} unseen at reset, ${d.unseenObjects} at the end`);
  assert.equal(await page.locator('.fp-path').count(), 0);
  await page.screenshot({ path: join(OUTPUT, 'viewer-household-floorplan-start.png'), fullPage: true });
});

test('the Steps tab lists every step with each robot\'s action and result, the subtasks and the checker', { skip }, async () => {
  await page.click('vscode-tab-header[data-tab="steps"]');
  await page.waitForSelector('.hs-table');
  const d = (await page.evaluate(() => window.__waypointViewer!.steps()))!;
  const results = run.events.filter((e) => e.type === 'action_result');
  assert.equal(d.rows.length, results.length);
  for (const [i, r] of results.entries()) {
    if (r.type !== 'action_result') continue;
    assert.deepEqual(d.rows[i]!.ok, r.results.map((x) => x.ok));
  }
  assert.ok((await page.locator('.hs-failed').count()) >= 1, 'the failed action is marked');
  assert.ok((await page.locator('.fp-correction').count()) >= 1, 'with the Corrector\'s proposal');
  assert.ok((await page.locator('.hs-added').count()) >= 1 && (await page.locator('.hs-closed').count()) >= 1);
  await page.screenshot({ path: join(OUTPUT, 'viewer-household-steps.png'), fullPage: true });
});

test('the Summary has the paper\'s metrics with the Clopper-Pearson interval; no console errors', { skip }, async () => {
  await page.click('vscode-tab-header[data-tab="summary"]');
  await page.waitForSelector('.household-summary');
  const text = (await page.textContent('.household-summary'))!;
  assert.match(text, /transport rate/);
  assert.match(text, /Clopper-Pearson/);
  assert.match(text, /balance/);
  assert.match(text, new RegExp(`steps${run.result.end.metrics.steps}of at most 30`));
  await page.locator('.household-summary').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(OUTPUT, 'viewer-household-summary.png'), fullPage: true });
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.requests, []);
});

test('a MALMM run shows no household tabs and no Rounds, but Plots and 3D', { skip }, async () => {
  const url = await writeTracePage('malmm-no-household', { runId: 'malmm', ...loadFixture('malmm-pick-place.jsonl') });
  const p = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await openViewer(p, url);
  assert.equal(await p.isVisible('vscode-tab-header[data-tab="floorplan"]'), false);
  assert.equal(await p.isVisible('vscode-tab-header[data-tab="steps"]'), false);
  assert.equal(await p.isVisible('vscode-tab-header[data-tab="rounds"]'), false);
  assert.equal(await p.isVisible('vscode-tab-header[data-tab="plots"]'), true);
  assert.equal(await p.isVisible('vscode-tab-header[data-tab="3d"]'), true);
  await p.close();
});

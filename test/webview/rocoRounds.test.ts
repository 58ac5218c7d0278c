// RoCo's views in headless Chromium on a run recorded here through the product path (sort_cubes, seed 0,
// reference-flawed so a plan is rejected by a check and re-planned): the Rounds tab has a lane per robot, every
// attempt with its PROCEED / EXECUTE turns and the five checks' verdicts, the failed check's feedback; the Reach tab
// is offered and LLaMAR's are not; clicking a lane turn selects that turn; the Plots tab draws every robot's end
// effector, path and gripper, named. Screenshots: test/output/viewer-roco-rounds.png, viewer-roco-plots.png.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { architectures } from '../../src/architectures/registry.js';
import { nodeClock, nodeIO } from '../../src/core/node/nodeHost.js';
import { launchRun } from '../../src/core/runs/launch.js';
import { createPyodideSandbox } from '../../src/core/sandbox/index.js';
import { createTabletopSimulator } from '../../src/core/sim/mujoco/index.js';
import { rocoRounds } from '../../src/architectures/roco/view/rocoRounds.js';
import { readTrace } from '../../src/core/trace/reader.js';
import type { TraceEvent } from '../../src/protocol/trace.js';
import { chromiumMissing, launch, openWatchedViewer, OUTPUT, watchPage, writeTracePage } from './browser.js';

const skip = chromiumMissing;
const workspace = mkdtempSync(join(tmpdir(), 'waypoint-roco-view-'));
let browser: Browser;
let page: Page;
let seen: ReturnType<typeof watchPage>;
let events: TraceEvent[];

before(async () => {
  if (skip) return;
  const deps = { io: nodeIO, clock: nodeClock, architectures, createSimulator: () => createTabletopSimulator(), createSandbox: () => createPyodideSandbox() };
  const r = await launchRun({ workspace, arch: 'roco', task: 'pack_grocery', seed: 0, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model: { kind: 'reference', profile: 'reference-flawed' } }, deps);
  assert.equal(r.success, true, `${r.reason} ${r.message ?? ''}`);
  events = readTrace(readFileSync(r.tracePath, 'utf8')).events;
  browser = await launch();
  const url = await writeTracePage('roco-rounds', { runId: 'roco-run', events, warnings: [] });
  ({ page, seen } = await openWatchedViewer(browser, url, { width: 1400, height: 1000 }));
});

after(async () => {
  await browser?.close();
  rmSync(workspace, { recursive: true, force: true });
});

test('RoCo run: the Rounds tab shows each round\'s lanes, attempts, verdicts and the failed check\'s feedback', { skip }, async () => {
  const view = rocoRounds(events);
  const attempts = view.rounds.flatMap((r) => r.attempts);
  const rejected = attempts.filter((a) => a.outcome === 'rejected');
  assert.ok(rejected.length >= 1, 'the flawed profile has a plan rejected by a check (the fixture this test relies on)');
  for (const tab of ['rounds', 'reach', 'plots', '3d']) assert.equal(await page.isVisible(`vscode-tab-header[data-tab="${tab}"]`), true, tab);
  // RoCo's events carry step counters too; they are not a household's steps (no floor plan, no LLaMAR metrics).
  for (const tab of ['floorplan', 'steps', 'plan', 'poses']) assert.equal(await page.isVisible(`vscode-tab-header[data-tab="${tab}"]`), false, tab);
  await page.click('vscode-tab-header[data-tab="summary"]');
  assert.equal(await page.locator('.household-summary').count(), 0);
  await page.click('vscode-tab-header[data-tab="rounds"]');
  await page.waitForSelector('.rounds .round');
  assert.equal(await page.locator('.rounds .round').count(), view.rounds.length);
  assert.equal(await page.locator('.rounds .attempt').count(), attempts.length);
  assert.equal(await page.locator('.rounds .attempt.rejected').count(), rejected.length);
  assert.equal(await page.locator('.rounds .attempt.executed').count(), attempts.filter((a) => a.outcome === 'executed').length);
  // Every attempt has one lane per robot, in the robots' order.
  const heads = await page.locator('.rounds .attempt').first().locator('.lane-head').allTextContents();
  assert.deepEqual(heads, view.agents);
  // The failed check's text is shown under the attempt it rejected, as the agents were told it.
  const feedback = (await page.locator('.rounds .attempt.rejected').first().locator('pre.result.feedback').textContent())!;
  assert.equal(feedback, rejected[0]!.result);
  assert.ok((await page.locator('.rounds .attempt.rejected').first().locator('.chip.bad').count()) >= 1);
  assert.ok((await page.locator('.rounds .lane-turn.execute').count()) >= 1);
  await page.screenshot({ path: join(OUTPUT, 'viewer-roco-rounds.png'), fullPage: false });
  // A lane turn opens that turn in the Turn tab.
  const turn = Number(await page.locator('.rounds .lane-turn').nth(1).getAttribute('data-turn'));
  await page.locator('.rounds .lane-turn').nth(1).click();
  assert.equal(await page.evaluate(() => window.__waypointViewer!.selectedTurn), turn);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.requests, []);
});

test("RoCo run: the Plots tab draws every robot's end effector, path and gripper, each named", { skip }, async () => {
  const samples = events.flatMap((e) => (e.type === 'trajectory' ? e.samples : []));
  const robots = events.find((e): e is Extract<TraceEvent, { type: 'observation' }> => e.type === 'observation' && (e.state.robots?.length ?? 0) > 1)!.state.robots!.map((r) => r.name);
  assert.ok(robots.length >= 2 && samples.every((x) => x.arms?.length === 5 * robots.length), 'the simulator records every arm in each sample');
  // Each arm's tool point as recorded: the first arm's repeats ee, the others differ from it.
  assert.ok(samples.every((x) => x.arms![0] === x.ee[0] && x.arms![4] === x.gripperWidth));
  assert.ok(samples.some((x) => Math.abs(x.arms![5]! - x.ee[0]) > 0.1), "the second robot's tool is elsewhere");
  await page.click('vscode-tab-header[data-tab="plots"]');
  await page.waitForFunction((n) => (window.__waypointViewer!.chart('position')?.length ?? 0) === 3 * n, robots.length);
  const pos = (await page.evaluate(() => window.__waypointViewer!.chart('position')))!;
  assert.deepEqual(pos.map((d) => d.label), robots.flatMap((r) => [`${r} x`, `${r} y`, `${r} z`]));
  const n = await page.evaluate(() => window.__waypointViewer!.seriesLength());
  assert.equal(n, samples.length);
  // What is drawn for the second robot is its recorded x (decimated, never the first robot's).
  const bobX = new Set(samples.map((x) => x.arms![5]));
  assert.ok(pos[3]!.data.length > 10 && pos[3]!.data.every((p) => bobX.has(p.y)), `${robots[1]} x drawn from its own samples`);
  const grip = (await page.evaluate(() => window.__waypointViewer!.chart('gripper')))!;
  assert.deepEqual(grip.map((d) => d.label), robots);
  const path = (await page.evaluate(() => window.__waypointViewer!.chart('path')))!;
  assert.deepEqual(path.slice(0, robots.length).map((d) => d.label), robots);
  const caption = await page.locator('figure:has(canvas[data-plot="position"]) figcaption').textContent();
  assert.match(caption!, new RegExp(`of each robot.*${robots[0]} solid, ${robots[1]} dashed`));
  await page.screenshot({ path: join(OUTPUT, 'viewer-roco-plots.png'), fullPage: true });
  assert.deepEqual(seen.errors, []);
});

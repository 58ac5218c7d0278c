// Chart axes in headless Chromium: a series flat up to float noise (a yaw of 0 and -6e-9, as the loop's reset move
// left in a TrajGen run) gets a readable axis, not ticks like "-2.000000000E-9"; the gripper panel is labelled
// open / closed; the Plots tab's value axes print no exponents either. Screenshot: test/output/viewer-chart-axes.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { EventOf, TraceEvent } from '../../src/protocol/trace.js';
import { loadFixture } from '../unit/core/trace/projections/helpers.js';
import { chromiumMissing, launch, openWatchedViewer, OUTPUT, watchPage, writeTracePage } from './browser.js';

const skip = chromiumMissing;
let browser: Browser;
let page: Page;
let seen: ReturnType<typeof watchPage>;

/** The MALMM fixture with one execute_trajectory call whose yaw is 0 up to noise and whose gripper closes midway. */
function traceWithFlatYaw(): TraceEvent[] {
  const { events } = loadFixture('malmm-pick-place.jsonl');
  const exec = events.find((e): e is EventOf<'code_execution'> => e.type === 'code_execution')!;
  const poses = Array.from({ length: 60 }, (_, i) => [0.3 + i * 0.001, 0.1, 0.9 - i * 0.002, i >= 20 && i < 30 ? -6e-9 : 0]);
  const call = (index: number, fn: string, args: unknown[]) => ({ seq: 0, tMs: exec.tMs, type: 'api_call', turn: exec.turn, role: exec.role, index, fn, args }) as unknown as TraceEvent;
  const extra = [call(0, 'execute_trajectory', [poses.slice(0, 30)]), call(1, 'close_gripper', []), call(2, 'execute_trajectory', [poses.slice(30)])];
  const at = events.indexOf(exec);
  return [...events.slice(0, at), ...extra, ...events.slice(at)].map((e, i) => ({ ...e, seq: i }) as TraceEvent);
}

before(async () => {
  if (skip) return;
  browser = await launch();
  const url = await writeTracePage('chart-axes', { runId: 'chart-axes', events: traceWithFlatYaw(), warnings: [] });
  ({ page, seen } = await openWatchedViewer(browser, url, { width: 1200, height: 1100 }));
});

after(async () => {
  await browser?.close();
});

test('a yaw flat up to noise gets the axis of a flat series; tick labels carry no exponent', { skip }, async () => {
  await page.click('vscode-tab-header[data-tab="poses"]');
  await page.waitForSelector('.tg-chart canvas[data-axis="yaw"]');
  await page.waitForTimeout(200);
  const yaw = (await page.evaluate(() => window.__waypointViewer!.axis('.tg-chart canvas[data-axis="yaw"]', 'y')))!;
  assert.deepEqual([yaw.min, yaw.max], [-1, 1], 'the noise around 0 is drawn as a flat 0');
  assert.ok(yaw.labels.length >= 3 && yaw.labels.every((l) => !/e/i.test(l) && l.length <= 5), yaw.labels.join(' '));
  const x = (await page.evaluate(() => window.__waypointViewer!.axis('.tg-chart canvas[data-axis="x"]', 'y')))!;
  assert.ok(x.max - x.min < 0.2, `a varying axis keeps its range: ${x.min}..${x.max}`);
  assert.equal(new Set(x.labels.map((l) => l.split('.')[1]?.length ?? 0)).size, 1, `one precision for every tick, the bounds' included: ${x.labels.join(' ')}`);
  const gripper = (await page.evaluate(() => window.__waypointViewer!.axis('.tg-chart canvas[data-axis="gripper"]', 'y')))!;
  assert.deepEqual(gripper.labels.filter(Boolean), ['closed', 'open']);
  await page.screenshot({ path: join(OUTPUT, 'viewer-chart-axes.png'), fullPage: true });
});

test('the Plots tab value axes print their ticks to the step, without exponents', { skip }, async () => {
  await page.click('vscode-tab-header[data-tab="plots"]');
  await page.waitForFunction(() => (window.__waypointViewer!.chart('position')?.length ?? 0) === 3);
  for (const c of ['position', 'gripper']) {
    const a = (await page.evaluate((sel) => window.__waypointViewer!.axis(sel, 'y'), `canvas[data-plot="${c}"]`))!;
    assert.ok(a.labels.length >= 2 && a.labels.every((l) => /^-?\d+(\.\d+)?$/.test(l)), `${c}: ${a.labels.join(' ')}`);
  }
  assert.deepEqual(seen.errors.filter((e) => !/Could not create web worker|web workers are disabled/.test(e)), []);
});

// The Perception tab in headless Chromium, on a recorded MALMM trace passed through the real perception model
// (test/unit/core/perception/estimatedTrace.ts): the run's error figures, a line per object, the top-down view of
// one observation (truth filled, estimate dashed, drop-outs crossed) and its numbers; a ground-truth run has no
// Perception tab. Screenshot: test/output/viewer-perception.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { projectPerception } from '../../src/core/trace/projections/perception.js';
import type { TraceEvent } from '../../src/protocol/trace.js';
import { estimatedFixture } from '../unit/core/perception/estimatedTrace.js';
import { loadFixture } from '../unit/core/trace/projections/helpers.js';
import { chromiumMissing, launch, openViewer, openWatchedViewer, OUTPUT, watchPage, writeTracePage } from './browser.js';

const skip = chromiumMissing;
let browser: Browser;
let page: Page;
let seen: ReturnType<typeof watchPage>;
let events: TraceEvent[];

before(async () => {
  if (skip) return;
  events = estimatedFixture();
  browser = await launch();
  const url = await writeTracePage('perception', { runId: 'perception-run', events, warnings: [] });
  ({ page, seen } = await openWatchedViewer(browser, url, { width: 1300, height: 1100 }));
});

after(async () => {
  await browser?.close();
});

test('the Perception tab shows the estimate against the truth, observation by observation', { skip }, async () => {
  const v = projectPerception(events);
  assert.equal(await page.isVisible('vscode-tab-header[data-tab="perception"]'), true);
  await page.click('vscode-tab-header[data-tab="perception"]');
  await page.waitForSelector('.pc-map');
  const last = (await page.evaluate(() => window.__waypointViewer!.perception()))!;
  assert.equal(last.observations, v.observations.length);
  assert.equal(last.index, v.observations.length - 1, 'opens on the newest observation');
  assert.equal(await page.locator('.pc-truth').count(), v.observations.at(-1)!.objects.length);
  assert.match((await page.textContent('.pc-pane'))!, /Perception: estimated\. \d+ observations · centre error mean \d+\.\d mm, worst \d+\.\d mm/);
  await page.screenshot({ path: join(OUTPUT, 'viewer-perception.png'), fullPage: true });
  // The first observation: the blue block was dropped (hidden), crossed out, and said so in its row.
  await page.locator('.pc-slider').fill('0');
  const first = (await page.evaluate(() => window.__waypointViewer!.perception()))!;
  assert.equal(first.index, 0);
  assert.equal(first.turn, v.observations[0]!.turn);
  assert.deepEqual(first.objects.find((o) => o.name === 'blue block'), { name: 'blue block', dropped: 'occluded' });
  assert.equal(await page.locator('.pc-dropped').count(), 1);
  assert.equal(await page.locator('.pc-estimate').count(), v.observations[0]!.objects.length - 1);
  assert.match((await page.textContent('.pc-dropped-row'))!, /blue block.*dropped: hidden behind a nearer object/);
  const red = v.observations[0]!.objects.find((o) => o.name === 'red block')!;
  assert.equal(first.objects.find((o) => o.name === 'red block')!.centreErrMm, Math.round(red.centreErrM! * 10000) / 10);
  await page.screenshot({ path: join(OUTPUT, 'viewer-perception-dropout.png'), fullPage: true });
  // "turn N" selects that turn in the timeline.
  await page.click('.pc-turn');
  assert.equal(await page.evaluate(() => window.__waypointViewer!.selectedTurn), v.observations[0]!.turn);
  assert.deepEqual(seen.errors, []);
});

test('a ground-truth run has no Perception tab', { skip }, async () => {
  const url = await writeTracePage('perception-none', { runId: 'plain-run', events: loadFixture('malmm-pick-place.jsonl').events, warnings: [] });
  const p = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await openViewer(p, url);
  assert.equal(await p.isVisible('vscode-tab-header[data-tab="perception"]'), false);
  await p.close();
});

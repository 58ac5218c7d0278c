// The run viewer opened as the extension opens it (the panel's page, the host code reading a compact trace file),
// for a run small enough to send whole and for one sent as an overview: same timeline and counts, and zooming
// into a plot of the overview draws the span's full samples, fetched from the host.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { nodeClock, nodeIO } from '../../src/core/node/nodeHost.js';
import { readTrace } from '../../src/core/trace/reader.js';
import { loadTraceForView } from '../../src/core/trace/viewData.js';
import { JsonlTraceWriter } from '../../src/core/trace/writer.js';
import { packEvents } from '../../src/protocol/webview.js';
import { projectRun } from '../../src/core/trace/projections/runProjection.js';
import { TRACE_SCHEMA_VERSION, type PendingEvent } from '../../src/protocol/trace.js';
import { buildMalmmTrace } from '../fixtures/traces/malmmTrace.js';
import { chromiumMissing, launch, watchPage } from './browser.js';
import { serveHostPage, type HostPage } from './hostPage.js';

const skip = chromiumMissing;
const dir = mkdtempSync(join(tmpdir(), 'waypoint-viewer-host-'));
const trace = join(dir, '.waypoint/runs/r-host/trace.jsonl');
let browser: Browser;

before(async () => {
  mkdirSync(join(dir, '.waypoint/runs/r-host'), { recursive: true });
  const w = new JsonlTraceWriter(nodeIO, trace, nodeClock);
  for (const e of buildMalmmTrace({ runId: 'r-host', extraCycles: 2, samplesPerMove: 400 })) {
    const { seq: _s, tMs: _t, ...rest } = e;
    await w.write((rest.type === 'episode_start' ? { ...rest, schemaVersion: TRACE_SCHEMA_VERSION } : rest) as PendingEvent);
  }
  if (!skip) browser = await launch();
});

after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the host sends what the view needs: the same projections as the full events, without qpos', async () => {
  const { readFileSync } = await import('node:fs');
  const text = readFileSync(trace, 'utf8');
  const full = readTrace(text).events;
  const load = loadTraceForView(text);
  assert.equal(load.overview, undefined);
  const a = projectRun(load.events), b = projectRun(packEvents(full));
  assert.deepEqual(a.timeline.rows(), b.timeline.rows());
  assert.deepEqual(a.summary.summary(), b.summary.summary());
  assert.deepEqual([...a.series.t], [...b.series.t]);
  assert.deepEqual([...a.series.z], [...b.series.z]);
  assert.ok(load.events.every((e) => e.type !== 'trajectory_packed' || e.qposWidth === 0));

  const over = loadTraceForView(text, { maxViewSamples: 1000, overviewBuckets: 64 });
  assert.ok(over.overview && over.overview.sent < over.overview.total && over.overview.total === load.totalSamples);
  const c = projectRun(over.events);
  assert.deepEqual(c.timeline.rows(), a.timeline.rows(), 'turn rows (and their sample counts) are those of the whole run');
  assert.deepEqual(c.summary.summary(), a.summary.summary());
  assert.deepEqual(c.series.spans.map((s) => [s.turn, s.tStartSecs, s.tEndSecs]), a.series.spans.map((s) => [s.turn, s.tStartSecs, s.tEndSecs]), 'same turn spans and time axis');
  const zMax = (s: ArrayLike<number>) => Math.max(...Array.from(s));
  assert.equal(zMax(c.series.z), zMax(a.series.z), 'the highest point is kept');
  const w = over.window(10, 12, 800);
  assert.ok(w.full);
  const inSpan = Array.from(a.series.t).filter((t) => t >= 10 && t <= 12).length;
  assert.equal(w.count, inSpan);
});

async function open(host: HostPage): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const seen = watchPage(page);
  await page.goto(host.url);
  await page.waitForFunction(() => window.__waypointViewer?.ready === true);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.requests.filter((u) => !u.startsWith(host.url.replace('/viewer.html', ''))), [], 'no request leaves the host');
  return page;
}

async function dragAcross(page: Page, plot: string, from: number, to: number): Promise<void> {
  const box = (await page.locator(`canvas[data-plot="${plot}"]`).boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * from, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * ((from + to) / 2), y, { steps: 3 });
  await page.mouse.move(box.x + box.width * to, y, { steps: 3 });
  await page.mouse.up();
}

test('an overview opens with every turn, says it is one, and a drag over a plot brings the full samples of that span', { skip }, async () => {
  const host = await serveHostPage(trace, 'r-host', { maxViewSamples: 1000, overviewBuckets: 64 });
  try {
    const page = await open(host);
    const total = host.lastLoad!.totalSamples;
    await page.click('vscode-tab-header[data-tab="plots"]');
    await page.waitForFunction(() => (window.__waypointViewer!.chart('position')?.[0]?.data.length ?? 0) > 0);
    const before = await page.evaluate(() => window.__waypointViewer!.plotsZoom());
    assert.match(before.status, new RegExp(`Overview: [\\d,]+ of the run's ${total.toLocaleString('en-US')} samples`));
    const overviewPoints = (await page.evaluate(() => window.__waypointViewer!.chart('position')!))[2].data.length;

    await dragAcross(page, 'position', 0.3, 0.4);
    await page.evaluate(() => window.__waypointViewer!.plotsWindowDrawn());
    const z = await page.evaluate(() => window.__waypointViewer!.plotsZoom());
    assert.ok(z.zoom && z.zoom.max > z.zoom.min, 'zoomed');
    assert.ok(z.window?.full, `the span's samples at full resolution: ${JSON.stringify(z)}`);
    assert.match(z.status, /all [\d,]+ samples of the span/);
    // What is drawn is exactly the run's samples in the span (checked against the full trace).
    const drawn = (await page.evaluate(() => window.__waypointViewer!.chart('position')!))[2].data;
    const series = projectRun(readTrace((await import('node:fs')).readFileSync(trace, 'utf8')).events).series;
    const expected: { x: number; y: number }[] = [];
    for (let i = 0; i < series.length; i++) if (series.t[i] >= z.zoom!.min && series.t[i] <= z.zoom!.max) expected.push({ x: series.t[i], y: series.z[i] });
    const inside = drawn.filter((p) => p.x >= z.zoom!.min && p.x <= z.zoom!.max);
    assert.deepEqual(inside, expected);
    assert.ok(inside.length > overviewPoints / 10, `${inside.length} points in the span`);

    await page.dblclick('canvas[data-plot="position"]');
    const reset = await page.evaluate(() => window.__waypointViewer!.plotsZoom());
    assert.equal(reset.zoom, undefined);
    await page.close();
  } finally {
    await host.close();
  }
});

test('a run sent whole zooms from the samples the view holds (no request to the host)', { skip }, async () => {
  const host = await serveHostPage(trace, 'r-host');
  try {
    const page = await open(host);
    await page.click('vscode-tab-header[data-tab="plots"]');
    await page.waitForFunction(() => (window.__waypointViewer!.chart('position')?.[0]?.data.length ?? 0) > 0);
    await dragAcross(page, 'gripper', 0.5, 0.6);
    const z = await page.evaluate(() => window.__waypointViewer!.plotsZoom());
    assert.ok(z.zoom);
    assert.equal(z.window, undefined);
    assert.match(z.status, /every sample of the span/);
    const log = await page.evaluate(() => (window as unknown as { __waypointHostLog: string[] }).__waypointHostLog);
    assert.deepEqual(log, ['ready']);
    await page.close();
  } finally {
    await host.close();
  }
});

test('as the panel loads it: Monaco and three.js come from beside the viewer\'s script only when a diff or the 3D tab is first shown', { skip }, async () => {
  const host = await serveHostPage(trace, 'r-host');
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    const seen = watchPage(page);
    await page.goto(host.url);
    await page.waitForFunction(() => window.__waypointViewer?.ready === true);
    assert.deepEqual(fetched.filter((p) => p.endsWith('.js')), ['/runViewer.js'], 'the first paint needs the main bundle only');
    await page.locator('.turn-row[data-turn="16"]').click();
    await page.waitForSelector('.diff-editor .monaco-diff-editor');
    assert.ok((await page.evaluate(() => window.__waypointViewer!.diffLineChanges())) >= 1, 'the lazily loaded Monaco computed the diff');
    assert.deepEqual(fetched.filter((p) => /^\/runViewer\.monaco\./.test(p)).sort(), ['/runViewer.monaco.css', '/runViewer.monaco.js']);
    const position = await page.$eval('.diff-editor .monaco-diff-editor', (e) => getComputedStyle(e).position);
    assert.equal(position, 'relative', "Monaco's stylesheet applies");
    await page.click('vscode-tab-header[data-tab="3d"]');
    await page.waitForFunction(() => ['ready', 'no-webgl', 'error'].includes(window.__waypointReplay3d!.status));
    assert.equal(await page.evaluate(() => window.__waypointReplay3d!.status), 'ready', await page.evaluate(() => window.__waypointReplay3d!.message));
    assert.ok(fetched.includes('/runViewer.replay3d.js'));
    assert.equal(fetched.filter((p) => p === '/runViewer.monaco.js').length, 1, 'each bundle is fetched once');
    assert.deepEqual(seen.errors.filter((e) => !/Could not create web worker/.test(e)), []);
    await page.close();
  } finally {
    await host.close();
  }
});

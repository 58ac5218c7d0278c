// The run viewer's 3D tab in headless Chromium (WebGL through SwiftShader), on a trace recorded here from the
// embedded MuJoCo simulator: real scene geometry, body poses, contacts and two collisions (a finger dragging the
// released red block 1, then a finger landing on the blue block 1). Screenshots in test/output/replay3d-*.png.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { createTabletopSimulator } from '../../src/core/sim/mujoco/index.js';
import { TRACE_SCHEMA_VERSION, type TraceEvent, type TrajectorySample } from '../../src/protocol/trace.js';
import { CHROMIUM, chromiumMissing, launch, openViewer, openWatchedViewer, OUTPUT, watchPage, writeTracePage } from './browser.js';

const skip = chromiumMissing;
let browser: Browser;
let page: Page;
let seen: ReturnType<typeof watchPage>;
let trace: TraceEvent[];
/** Samples in run order, with the turn of their trajectory. */
let samples: (TrajectorySample & { turn: number })[];

type Step = [fn: string, args: unknown[]];

/** Runs the calls on the real simulator and writes them as an episode: a Coder turn, then an Executor turn each. */
async function recordTrace(): Promise<TraceEvent[]> {
  // Straight motion, so the scripted calls collide where they aim (a planned motion refuses such targets).
  const sim = await createTabletopSimulator({ motion: 'straight' });
  try {
    const reset = await sim.reset('stack_blocks', 0);
    const at = (name: string) => reset.observation.state.objects.find((o) => o.name === name)!.pos;
    const [red, green, blue] = [at('red block 1'), at('red block 2'), at('blue block 1')];
    const steps: Step[] = [
      ['execute_trajectory', [[red[0], red[1], red[2] + 0.1], 0]],
      ['execute_trajectory', [[red[0], red[1], red[2]], 0]],
      ['close_gripper', ['red block 1']],
      ['execute_trajectory', [[red[0], red[1], red[2] + 0.15], 0]],
      ['execute_trajectory', [[green[0], green[1], green[2] + 0.1], 0]],
      ['execute_trajectory', [[green[0], green[1], green[2] + 0.055], 0]],
      ['open_gripper', []],
      ['execute_trajectory', [[blue[0], blue[1] + 0.045, blue[2] + 0.1], 0]],
      ['execute_trajectory', [[blue[0], blue[1] + 0.045, blue[2]], 0]],
    ];
    const events: Omit<TraceEvent, 'seq' | 'tMs'>[] = [];
    const emit = (e: object) => events.push(e as Omit<TraceEvent, 'seq' | 'tMs'>);
    emit({
      type: 'episode_start', schemaVersion: TRACE_SCHEMA_VERSION, runId: 'replay3d-run', arch: 'malmm', agentVariant: 'malmm', task: 'stack_blocks',
      taskDescription: reset.task.description, seed: 0, variant: 'default', ablations: {},
      model: { provider: 'reference', model: 'scripted-test', label: 'scripted test calls (not an LLM)' }, prompts: [],
      simulator: { name: sim.name, version: sim.version }, options: { maxTurns: 40, maxConsecutiveErrors: 5, persistNamespace: true, codeTimeoutSecs: 20 },
      startedAt: '2026-01-01T00:00:00.000Z',
    });
    emit({ type: 'scene', ...(await sim.geometry()) });
    emit({ type: 'observation', turn: 0, text: reset.observation.text, state: reset.observation.state });
    let turn = 0;
    for (const [fn, args] of steps) {
      const code = `${fn}(${args.map((a) => JSON.stringify(a)).join(', ')})`;
      turn++;
      emit({ type: 'role_call', turn, callId: `c${turn}`, role: 'coder', messages: [{ role: 'user', content: 'next step' }], model: 'scripted-test', params: {}, promptPath: 'prompts/malmm/coder.prompt', variables: {} });
      emit({ type: 'model_response', turn, callId: `c${turn}`, role: 'coder', ok: true, text: '```python\n' + code + '\n```', latencyMs: 1, cached: false, attempts: 1 });
      emit({ type: 'parsed_output', turn, callId: `c${turn}`, role: 'coder', ok: true, kind: 'code', value: code });
      turn++;
      const res = await sim.call(fn, args);
      emit({ type: 'code_execution', turn, role: 'Executor', language: 'python', code, ok: res.ok, exitCode: res.ok ? 0 : 1, stdout: '', durationMs: 1, apiCalls: [{ fn, args, ok: res.ok }], namespacePersisted: true });
      const traj = await sim.drainTrajectory();
      if (traj.samples.length) emit({ type: 'trajectory', turn, rateHz: traj.rateHz, samples: traj.samples });
      // The engine's wording (core/engine/episode.ts).
      for (const c of (res.ok && res.collisions) || []) emit({ type: 'check', turn, name: 'collision', ok: false, message: `collision: ${c.a} <-> ${c.b} at t=${c.tSecs.toFixed(2)} s` });
      const obs = await sim.observe();
      emit({ type: 'observation', turn, text: obs.text, state: obs.state });
    }
    return events.map((e, seq) => ({ ...e, seq, tMs: seq }) as TraceEvent);
  } finally {
    await sim.close();
  }
}

const frames = (p: Page) => p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))));

async function open3d(p: Page): Promise<string> {
  await p.click('vscode-tab-header[data-tab="3d"]');
  await p.waitForFunction(() => ['ready', 'no-webgl', 'error'].includes(window.__waypointReplay3d!.status));
  await frames(p);
  return p.evaluate(() => window.__waypointReplay3d!.status);
}

function firstSampleOf(turn: number): number {
  return samples.findIndex((s) => s.turn >= turn);
}

before(async () => {
  if (skip) return;
  trace = await recordTrace();
  samples = trace.flatMap((e) => (e.type === 'trajectory' ? e.samples.map((s) => ({ ...s, turn: e.turn })) : []));
  browser = await launch();
  const url = await writeTracePage('replay3d', { runId: 'replay3d-run', events: trace, warnings: [] });
  ({ page, seen } = await openWatchedViewer(browser, url, { width: 1400, height: 900 }));
});

after(async () => {
  await browser?.close();
});

test('three.js is not loaded until the 3D tab opens; then the recorded scene is drawn', { skip }, async () => {
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.status), 'idle');
  assert.equal(await page.$('.replay3d-canvas'), null, 'no canvas before the tab opens');
  const revision = () => page.evaluate(() => (window as unknown as { __THREE__?: string }).__THREE__);
  assert.equal(await revision(), undefined, "three.js's module code has not run (it sets window.__THREE__)");
  assert.equal(await page.$('.turn-row.replay-current'), null, 'no replay mark in the timeline before the tab is used');
  const status = await open3d(page);
  assert.ok(await revision(), 'three.js ran once the tab opened');
  assert.equal(status, 'ready', `WebGL should work through SwiftShader: ${await page.evaluate(() => window.__waypointReplay3d!.message)}`);
  const scene = trace.find((e) => e.type === 'scene')!;
  const stats = (await page.evaluate(() => window.__waypointReplay3d!.stats()))!;
  assert.equal(stats.geomMeshes, scene.geoms.length, 'one mesh per recorded geom');
  assert.equal(stats.bodies, scene.bodies.length);
  assert.equal(stats.waypointMarkers, 7, 'one marker per execute_trajectory target');
  assert.equal(stats.pathPoints, samples.length);
  assert.ok(stats.renders >= 1);
  const box = (await page.locator('.replay3d-canvas').boundingBox())!;
  assert.ok(box.width > 600 && box.height > 500, `canvas fills the pane (${box.width}×${box.height})`);
  // Pixels: the theme's background plus the scene's colours (the red, green and blue blocks among them).
  const px = await page.evaluate(() => window.__waypointReplay3d!.pixels());
  assert.equal(px.corner, '#1f1f1f', 'background is the dark theme editor background');
  for (const hue of ['red', 'green', 'blue'] as const) assert.ok(px.hues[hue] > 20, `${hue} block visible (${px.hues[hue]} px)`);
  // Software GL (SwiftShader here) draws without shadows, and moving frames at half resolution.
  const gl = await page.evaluate(() => ({ quality: window.__waypointReplay3d!.quality, renderer: window.__waypointReplay3d!.glRenderer }));
  assert.equal(gl.quality, /swiftshader|llvmpipe|software/i.test(gl.renderer ?? '') ? 'reduced' : 'full', JSON.stringify(gl));
  const t = await page.evaluate(() => window.__waypointReplay3d!.timings);
  console.log(`# 3D tab: three.js module ${t.moduleMs.toFixed(0)} ms, first frame ${t.firstFrameMs.toFixed(0)} ms after the tab opened (${gl.renderer}, quality ${gl.quality})`);
  await page.screenshot({ path: join(OUTPUT, 'replay3d-open.png') });
});

test('scrubbing poses the bodies as recorded at that sample', { skip }, async () => {
  await open3d(page);
  const scene = trace.find((e) => e.type === 'scene')!;
  const red = scene.bodies.indexOf('red block 1');
  const hand = scene.bodies.indexOf('hand');
  // Half-way through the lift (the red block 1 is in the gripper).
  const i = firstSampleOf(8) + 20;
  await page.locator('.replay3d-slider').fill(String(i));
  await frames(page);
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.index), i);
  for (const [name, b] of [['red block 1', red], ['hand', hand]] as const) {
    const drawn = (await page.evaluate((n) => window.__waypointReplay3d!.drawnPose(n), name))!;
    const recorded = samples[i].bodies!.slice(7 * b, 7 * b + 7);
    // three stores float64 positions; quaternions may be negated (same rotation).
    const sign = Math.sign(drawn[3] * recorded[3] + drawn[4] * recorded[4] + drawn[5] * recorded[5] + drawn[6] * recorded[6]) || 1;
    drawn.forEach((v, k) => assert.ok(Math.abs(v - (k >= 3 ? sign : 1) * recorded[k]) < 1e-6, `${name}[${k}] drawn ${v} vs recorded ${recorded[k]}`));
  }
  const start = samples[0].bodies!.slice(7 * red, 7 * red + 3);
  assert.ok(samples[i].bodies![7 * red + 2] - start[2] > 0.05, 'the red block 1 was lifted by then');
  assert.match((await page.textContent('.replay3d-readout'))!, new RegExp(`turn 8 · sample ${i + 1}/${samples.length}`));
  await page.screenshot({ path: join(OUTPUT, 'replay3d-scrub.png') });
});

test('selecting a turn moves the scrubber to its first sample; a turn without motion to the next one', { skip }, async () => {
  await open3d(page);
  await page.locator('.turn-row[data-turn="10"]').click();
  await frames(page);
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.index), firstSampleOf(10));
  assert.equal(Number(await page.inputValue('.replay3d-slider')), firstSampleOf(10));
  await page.locator('.turn-row[data-turn="11"]').click(); // a Coder turn: no samples of its own
  await frames(page);
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.index), firstSampleOf(12));
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.turn), 12);
  assert.equal(await page.getAttribute('.turn-row.replay-current', 'data-turn'), '12', 'the replay turn is marked in the timeline');
});

test('play advances into the next turn and marks it in the timeline; pause stops; speed 0.25x-4x', { skip }, async () => {
  await open3d(page);
  const setSpeed = (v: string) => page.evaluate((x) => {
    const s = document.querySelector('.replay3d-speed') as HTMLElement & { value: string };
    s.value = x;
    s.dispatchEvent(new Event('change'));
  }, v);
  await setSpeed('4');
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.speed), 4);
  // Slowest speed, three samples before turn 4 starts: playing must cross into turn 4 (and is far from the end).
  await setSpeed('0.25');
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.speed), 0.25);
  await page.locator('.turn-row[data-turn="2"]').click();
  await page.locator('.replay3d-slider').fill(String(firstSampleOf(4) - 3));
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.turn), 2);
  await page.click('.replay3d-play');
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.playing), true);
  await page.waitForFunction(() => window.__waypointReplay3d!.turn === 4);
  await page.click('.replay3d-play');
  const after = await page.evaluate(() => ({ playing: window.__waypointReplay3d!.playing, index: window.__waypointReplay3d!.index, turn: window.__waypointReplay3d!.turn }));
  assert.equal(after.playing, false);
  assert.equal(after.turn, samples[after.index].turn);
  assert.equal(await page.getAttribute('.turn-row.replay-current', 'data-turn'), String(after.turn));
  assert.equal(await page.evaluate(() => window.__waypointViewer!.selectedTurn), 2, 'playing does not change the selection');
  await frames(page);
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.index), after.index, 'paused: the playhead stays');
  // Keys inside the pane: '.' and ',' step one sample, Space plays and pauses.
  await page.focus('.replay3d');
  await page.keyboard.press('.');
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.index), after.index + 1);
  await page.keyboard.press(',');
  await page.keyboard.press(',');
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.index), after.index - 1);
  await page.keyboard.press(' ');
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.playing), true);
  await page.keyboard.press(' ');
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.playing), false);
  assert.equal(await page.evaluate(() => window.__waypointViewer!.selectedTurn), 2, 'the keys did not move the timeline selection');
});

test('collisions are marked where they happened and their bodies glow at that time', { skip }, async () => {
  await open3d(page);
  const checks = trace.flatMap((e) => (e.type === 'check' && e.name === 'collision' ? [e] : []));
  assert.ok(checks.length >= 1, 'the recorded calls collide');
  const cols = await page.evaluate(() => window.__waypointReplay3d!.collisions());
  // The last reported collision (the finger landing on the blue block 1 when the simulator behaves as today).
  const check = checks[checks.length - 1];
  const [, a, b, tText] = /^collision: (.+) <-> (.+) at t=([\d.]+) s$/.exec(check.message)!;
  const col = cols.find((c) => c.source === 'check' && c.a === a && c.b === b && c.turn === check.turn);
  assert.ok(col, JSON.stringify(cols));
  const reportedT = Number(tText);
  assert.equal(samples[col.sampleIndex].turn, col.turn);
  assert.ok(samples[col.sampleIndex].tSecs >= reportedT - 1e-9 && samples[col.sampleIndex - 1].tSecs < reportedT, 'first sample at or after the reported time');
  assert.equal((await page.evaluate(() => window.__waypointReplay3d!.stats()))!.collisionMarkers, cols.length);
  await page.locator('.replay3d-slider').fill(String(col.sampleIndex));
  await frames(page);
  const hot = await page.evaluate(() => window.__waypointReplay3d!.hotBodies());
  assert.ok(hot.includes(a) && hot.includes(b), `hot: ${hot}`);
  await page.locator('.replay3d-slider').fill('0');
  await frames(page);
  assert.deepEqual(await page.evaluate(() => window.__waypointReplay3d!.hotBodies()), []);
  await page.locator('.replay3d-slider').fill(String(col.sampleIndex));
  await frames(page);
  await page.screenshot({ path: join(OUTPUT, 'replay3d-collision.png') });
});

test('the plots show the replay time as a cursor; a plot click moves the replay to that turn', { skip }, async () => {
  await open3d(page);
  const i = firstSampleOf(14) + 10;
  await page.locator('.replay3d-slider').fill(String(i));
  await page.click('vscode-tab-header[data-tab="plots"]');
  await page.waitForFunction(() => (window.__waypointViewer!.chart('position')?.length ?? 0) === 3);
  await frames(page);
  // The cursor is a vertical line in the foreground colour at the replay time: find it in the canvas pixels.
  const found = await page.evaluate(() => {
    const canvas = document.querySelector('canvas[data-plot="position"]') as HTMLCanvasElement;
    const ctx = canvas.getContext('2d')!;
    const h = canvas.height;
    let best = { x: -1, count: 0 };
    for (let x = 0; x < canvas.width; x++) {
      const col = ctx.getImageData(x, 0, 1, h).data;
      let n = 0;
      for (let y = 0; y < h; y++) if (col[4 * y] > 190 && col[4 * y + 1] > 190 && col[4 * y + 2] > 190) n++;
      if (n > best.count) best = { x, count: n };
    }
    return { ...best, h };
  });
  assert.ok(found.count > found.h * 0.5, `a tall light vertical line (cursor) is drawn: ${JSON.stringify(found)}`);
  await page.screenshot({ path: join(OUTPUT, 'replay3d-plots-cursor.png') });
  await page.click('vscode-tab-header[data-tab="3d"]');
  await page.locator('.turn-row[data-turn="6"]').click();
  assert.equal(await page.evaluate(() => window.__waypointReplay3d!.index), firstSampleOf(6));
  assert.deepEqual(seen.requests, [], 'no network request');
  assert.deepEqual(seen.errors.filter((e) => !/Could not create web worker|web workers are disabled/.test(e)), []);
});

test('live run: appended events extend the path, markers and playhead without rebuilding the scene', { skip }, async () => {
  const cut = trace.findIndex((e) => e.type === 'trajectory' && e.turn === 4) + 1;
  const url = await writeTracePage('replay3d-live', { runId: 'replay3d-live', events: trace.slice(0, cut), warnings: [] });
  const p = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await openViewer(p, url);
  assert.equal(await open3d(p), 'ready');
  await p.locator('.replay3d-slider').fill(String(firstSampleOf(5) - 1)); // the last sample so far
  const before = (await p.evaluate(() => window.__waypointReplay3d!.stats()))!;
  assert.equal(before.pathPoints, firstSampleOf(5));
  for (let i = cut; i < trace.length; i += 7) await p.evaluate((batch) => window.postMessage({ type: 'append', runId: 'replay3d-live', events: batch }, '*'), trace.slice(i, i + 7));
  await p.waitForFunction((n) => window.__waypointViewer!.eventCount === n, trace.length);
  await frames(p);
  const now = (await p.evaluate(() => window.__waypointReplay3d!.stats()))!;
  assert.equal(now.geomMeshes, before.geomMeshes, 'the scene is not built twice');
  assert.equal(now.pathPoints, samples.length);
  assert.equal(now.waypointMarkers, 7);
  assert.equal(await p.evaluate(() => window.__waypointReplay3d!.index), samples.length - 1, 'a playhead on the last sample follows the run');
  await p.close();
});

test('light theme: the background follows the theme', { skip }, async () => {
  const url = await writeTracePage('replay3d-light', { runId: 'replay3d-run', events: trace, warnings: [] }, 'light');
  const p = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await openViewer(p, url);
  assert.equal(await open3d(p), 'ready');
  const px = await p.evaluate(() => window.__waypointReplay3d!.pixels());
  assert.equal(px.corner, '#ffffff');
  await p.locator('.replay3d-slider').fill(String(firstSampleOf(14)));
  await frames(p);
  await p.screenshot({ path: join(OUTPUT, 'replay3d-light.png') });
  await p.close();
});

test('without WebGL the tab says so instead of drawing', { skip }, async () => {
  const noGl = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-webgl', '--disable-3d-apis'] });
  try {
    const url = await writeTracePage('replay3d-nogl', { runId: 'replay3d-run', events: trace, warnings: [] });
    const p = await noGl.newPage({ viewport: { width: 1200, height: 800 } });
    await openViewer(p, url);
    assert.equal(await open3d(p), 'no-webgl');
    const msg = await p.textContent('.replay3d-message');
    assert.match(msg!, /3D replay unavailable: WebGL could not be started .*The Plots tab shows the same trajectory/);
    assert.equal(await p.isVisible('.replay3d-message'), true);
    assert.equal(await p.$('.replay3d-canvas'), null);
    // The controls still follow the timeline.
    await p.locator('.turn-row[data-turn="4"]').click();
    assert.equal(await p.evaluate(() => window.__waypointReplay3d!.index), firstSampleOf(4));
    await p.screenshot({ path: join(OUTPUT, 'replay3d-nowebgl.png') });
  } finally {
    await noGl.close();
  }
});

// The run viewer in headless Chromium, loaded through html.ts (the same bundle VS Code loads, with a stub host).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { loadFixture } from '../unit/core/trace/projections/helpers.js';
import { chromiumMissing, launch, openViewer, openWatchedViewer, OUTPUT, watchPage, writeTracePage } from './browser.js';

const skip = chromiumMissing;
let browser: Browser;
let page: Page;
let seen: ReturnType<typeof watchPage>;

before(async () => {
  if (skip) return;
  browser = await launch();
  const trace = loadFixture('malmm-pick-place.jsonl');
  const url = await writeTracePage('malmm-pick-place', { runId: 'fixture-run', ...trace });
  ({ page, seen } = await openWatchedViewer(browser, url, { width: 1400, height: 900 }));
});

after(async () => {
  await browser?.close();
});

test('timeline lists every turn with role badges, Supervisor routing and the error marked', { skip }, async () => {
  const rows = await page.$$eval('.timeline .turn-row', (els) =>
    els.map((e) => ({
      turn: Number((e as HTMLElement).dataset.turn),
      role: e.querySelector('.role-badge')!.textContent,
      summary: e.querySelector('.summary')!.textContent,
      error: e.classList.contains('has-error'),
    })),
  );
  assert.equal(rows.length, 29);
  assert.deepEqual(rows.slice(1, 7).map((r) => [r.role, r.summary]), [
    ['Supervisor', '→ Planner'], ['Planner', rows[2].summary], ['Supervisor', '→ Coder'], ['Coder', 'Step 1: approach the red block from above, then go down to its centre'], ['Supervisor', '→ Executor'], ['Executor', 'exit 0 · execute_trajectory'],
  ]);
  assert.deepEqual(rows.filter((r) => r.error).map((r) => r.turn), [14, 18]);
  const hookRows = await page.evaluate(() => window.__waypointViewer!.rows());
  assert.deepEqual(hookRows.find((r) => r.turn === 15)!.flags, ['retry_after_error']);
  // The header shows the reference model's label and the result.
  const header = await page.textContent('.run-header');
  assert.match(header!, /reference \(scripted, not an LLM\)/);
  assert.match(header!, /✔ success/);
  assert.match(header!, /malmm \/ malmm/);
  assert.equal(await page.isVisible('.banner'), false, 'no warnings banner on a clean trace');
  await page.screenshot({ path: join(OUTPUT, 'viewer-timeline.png') });
});

test('j/k and arrow keys move between turns', { skip }, async () => {
  await page.locator('.turn-row[data-turn="0"]').click();
  await page.keyboard.press('j');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => window.__waypointViewer!.selectedTurn), 2);
  await page.keyboard.press('k');
  assert.equal(await page.evaluate(() => window.__waypointViewer!.selectedTurn), 1);
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.evaluate(() => window.__waypointViewer!.selectedTurn), 0);
  assert.equal(await page.getAttribute('.turn-row.selected', 'data-turn'), '0');
});

test('selecting the fixed Coder turn shows the retry diff with both sides in Monaco', { skip }, async () => {
  await page.locator('.turn-row[data-turn="16"]').click();
  await page.waitForSelector('.diff-editor .monaco-diff-editor');
  const sides = await page.evaluate(() => window.__waypointViewer!.diff());
  assert.ok(sides);
  assert.match(sides.original, /execute_trajectory\(position_above_container, orientation_container\)/);
  assert.doesNotMatch(sides.original, /position_above_container = /);
  assert.match(sides.modified, /position_above_container = \[0\.1443, -0\.1384/);
  assert.equal(sides.sideBySide, true, 'both editors have width');
  assert.ok(sides.originalDom && sides.modifiedDom);
  assert.ok((await page.evaluate(() => window.__waypointViewer!.diffLineChanges())) >= 1, 'Monaco computed the diff without a worker');
  // Both editors are on screen, next to each other, and render the code.
  const boxes = await page.$$eval('.diff-editor .editor.original, .diff-editor .editor.modified', (els) => els.map((e) => { const r = e.getBoundingClientRect(); return { x: r.x, w: r.width, h: r.height, text: e.textContent ?? '' }; }));
  assert.equal(boxes.length, 2);
  assert.ok(boxes[0].w > 150 && boxes[1].w > 150 && boxes[0].h > 60);
  assert.ok(boxes[1].x > boxes[0].x + boxes[0].w - 5, 'modified side is to the right of the original');
  assert.match(boxes[1].text.replace(/\u00a0/g, ' '), /position_above_container = /);
  const detail = await page.textContent('.detail');
  // One numbering: header and panes name the Coder turns that wrote each block (12 and 16), not the Executor
  // turns that ran them (14 and 18).
  assert.match(detail!, /Retry diff: Coder turn 12 \(failed\) → Coder turn 16 \(fixed\)/);
  assert.deepEqual(await page.$$eval('.retry .diff-labels span', (els) => els.map((e) => e.textContent)), ['before · Coder turn 12', 'after · Coder turn 16']);
  assert.match(detail!, /NameError: name 'position_above_container' is not defined/);
  assert.match(detail!, /prompts\/malmm\/coder\.prompt/);
  assert.match(detail!, /cache miss/);
  await page.screenshot({ path: join(OUTPUT, 'viewer-retry-diff.png') });
});

test('the prompt path link posts openPrompt; the static host answers with an error shown in the banner', { skip }, async () => {
  await page.locator('.turn-row[data-turn="16"]').click();
  await page.click('.detail .prompt-link');
  await page.waitForFunction(() => window.__waypointViewer!.notes.some((n) => n.includes('coder.prompt')));
  const log = await page.evaluate(() => (window as unknown as { __waypointHostLog: { type: string; path?: string }[] }).__waypointHostLog);
  assert.ok(log.some((m) => m.type === 'openPrompt' && m.path === 'prompts/malmm/coder.prompt'));
  assert.ok(log.some((m) => m.type === 'selectTurn'));
  await page.waitForSelector('.banner:not(.hidden)');
  assert.match((await page.textContent('.banner'))!, /could not open prompts\/malmm\/coder\.prompt: not available in a static HTML report/);
});

test('the execution turn shows the state diff with the nudged blue block in red', { skip }, async () => {
  await page.locator('.turn-row[data-turn="18"]').click();
  await page.waitForSelector('.state-table');
  const rows = await page.$$eval('.state-table tbody tr', (els) => els.map((e) => ({ name: (e as HTMLElement).dataset.object, cls: e.className })));
  assert.deepEqual(rows, [{ name: 'red block', cls: 'expected' }, { name: 'blue block', cls: 'unexpected' }]);
  const color = await page.$eval('.state-table tr.unexpected td', (e) => getComputedStyle(e).color);
  assert.equal(color, 'rgb(244, 135, 113)', 'errorForeground');
  assert.match((await page.textContent('.state-diff'))!, /Grasp: holding red block/);
  await page.screenshot({ path: join(OUTPUT, 'viewer-state-diff.png') });
});

test('plots: ee x/y/z, top-down path and gripper width come from the trajectory; hover and click map to turns', { skip }, async () => {
  await page.click('vscode-tab-header[data-tab="plots"]');
  await page.waitForFunction(() => (window.__waypointViewer!.chart('position')?.length ?? 0) === 3);
  const pos = await page.evaluate(() => window.__waypointViewer!.chart('position')!);
  const n = await page.evaluate(() => window.__waypointViewer!.seriesLength());
  assert.equal(n, 550);
  assert.deepEqual(pos.map((d) => d.label), ['x', 'y', 'z']);
  assert.equal(pos[2].data.length, 550, 'few samples: nothing decimated');
  const { events } = loadFixture('malmm-pick-place.jsonl');
  const samples = events.flatMap((e) => (e.type === 'trajectory' ? e.samples : []));
  assert.deepEqual(pos[2].data[100], { x: samples[100].tSecs, y: samples[100].ee[2] });
  const path = await page.evaluate(() => window.__waypointViewer!.chart('path')!);
  assert.deepEqual(path.map((d) => d.label), ['end effector', 'selected turn', 'objects (start)', 'objects (latest)']);
  assert.equal(path[2].data.length, 3);
  const grip = await page.evaluate(() => window.__waypointViewer!.chart('gripper')!);
  assert.equal(Math.min(...grip[0].data.map((p) => p.y)), 0.05);
  // Hover the z trace in the middle of turn 18's motion: the timeline row for turn 18 lights up.
  const canvas = page.locator('canvas[data-plot="position"]');
  const box = (await canvas.boundingBox())!;
  // Find the pixel by scanning: move along the canvas until the hovered turn is 18.
  let hovered: number | undefined;
  for (let fx = 0.3; fx <= 0.9 && hovered !== 18; fx += 0.02) {
    await page.mouse.move(box.x + box.width * fx, box.y + box.height / 2);
    hovered = await page.evaluate(() => window.__waypointViewer!.hoverTurn);
  }
  assert.equal(hovered, 18);
  assert.equal(await page.getAttribute('.turn-row.hovered', 'data-turn'), '18');
  await page.screenshot({ path: join(OUTPUT, 'viewer-plots.png') });
  await page.mouse.down();
  await page.mouse.up();
  assert.equal(await page.evaluate(() => window.__waypointViewer!.selectedTurn), 18);
  await page.click('vscode-tab-header[data-tab="turn"]');
});

test('hostile or malformed messages are ignored and reported', { skip }, async () => {
  const beforeRows = await page.evaluate(() => window.__waypointViewer!.rows().length);
  await page.evaluate(() => {
    window.postMessage({ type: 'init', runId: 'evil', events: [{ type: 'episode_start', seq: -1 }], warnings: [] }, '*');
    window.postMessage({ type: 'append', runId: 'fixture-run', events: 'not an array' }, '*');
    window.postMessage('<img src=x onerror=alert(1)>', '*');
    window.postMessage({ type: 'selectTurn', turn: -3 }, '*');
    window.postMessage({ type: 'nope' }, '*');
  });
  await page.waitForFunction(() => window.__waypointViewer!.invalidMessages >= 5);
  assert.equal(await page.evaluate(() => window.__waypointViewer!.runId), 'fixture-run');
  assert.equal(await page.evaluate(() => window.__waypointViewer!.rows().length), beforeRows);
  const log = await page.evaluate(() => (window as unknown as { __waypointHostLog: { type: string; receivedType?: string }[] }).__waypointHostLog);
  const reports = log.filter((m) => m.type === 'invalidMessage');
  assert.deepEqual(reports.map((r) => r.receivedType), ['init', 'append', undefined, 'selectTurn', 'nope']);
  assert.equal(await page.$('img'), null, 'nothing was injected');
  // A valid append still works after the junk: live events extend the timeline.
  assert.deepEqual(seen.requests, [], 'the page made no network request');
  assert.deepEqual(seen.errors.filter((e) => !/Could not create web worker|web workers are disabled/.test(e)), []);
});

test('a truncated trace shows the warnings banner and an incomplete result', { skip }, async () => {
  const trace = loadFixture('malmm-pick-place.truncated.jsonl');
  const url = await writeTracePage('malmm-truncated', { runId: 'truncated-run', ...trace });
  const p = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await openViewer(p, url);
  assert.equal(await p.isVisible('.banner'), true);
  const banner = await p.textContent('.banner');
  assert.match(banner!, /This trace is truncated/);
  assert.match(banner!, /line \d+ is incomplete/);
  assert.match((await p.textContent('.run-header'))!, /incomplete \(no episode_end\)/);
  assert.deepEqual(await p.evaluate(() => window.__waypointViewer!.warnings().map((w) => w.kind)), ['truncated_last_line']);
  await p.screenshot({ path: join(OUTPUT, 'viewer-truncated.png') });
  await p.close();
});

test('live run: append messages extend the timeline and the plots incrementally', { skip }, async () => {
  const { events } = loadFixture('malmm-pick-place.jsonl');
  const url = await writeTracePage('malmm-live', { runId: 'live-run', events: events.slice(0, 20), warnings: [] }, 'light');
  const p = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await openViewer(p, url);
  const rows0 = await p.evaluate(() => window.__waypointViewer!.rows().length);
  for (let i = 20; i < events.length; i += 17) {
    await p.evaluate((batch) => window.postMessage({ type: 'append', runId: 'live-run', events: batch }, '*'), events.slice(i, i + 17));
  }
  await p.waitForFunction((n) => window.__waypointViewer!.eventCount === n, events.length);
  await p.evaluate(() => window.__waypointViewer!.flush());
  assert.ok(rows0 < 29);
  assert.equal(await p.evaluate(() => window.__waypointViewer!.rows().length), 29);
  assert.equal(await p.locator('.timeline .turn-row').count(), 29);
  assert.match((await p.textContent('.run-header'))!, /✔ success/);
  assert.equal(await p.evaluate(() => window.__waypointViewer!.seriesLength()), 550);
  await p.screenshot({ path: join(OUTPUT, 'viewer-light.png') });
  await p.close();
});

test('summary tab: outcome, the error recovered from linked to its turn (no deciding error in a success), metrics and cost per role', { skip }, async () => {
  await page.click('vscode-tab-header[data-tab="summary"]');
  await page.waitForSelector('.run-summary .metrics');
  const text = (await page.textContent('.run-summary'))!;
  assert.match(text, /✔ success · reason task_completed/);
  assert.match(text, /Agent claimed done: yes/);
  // The check's own detail, not only passed/failed.
  assert.match(text, /✔ Simulator check passed: red block inside yellow container \(xy offset 0\.0000 m, z above floor 0\.0245 m\)/);
  // The NameError was followed by a block that ran: recovered from, so it did not decide the outcome.
  assert.match(text, /Recovered from 1 error \(a retry, repair or re-plan followed\); the first \(code error\): NameError: name 'position_above_container' is not defined/);
  assert.doesNotMatch(text, /Deciding error/);
  const roles = await page.$$eval('.per-role tbody tr th', (els) => els.map((e) => e.textContent));
  assert.deepEqual(roles, ['Coder', 'Planner', 'Supervisor']);
  await page.screenshot({ path: join(OUTPUT, 'viewer-summary.png') });
  await page.click('.recovered-errors a');
  assert.equal(await page.evaluate(() => window.__waypointViewer!.selectedTurn), 14);
  await page.click('vscode-tab-header[data-tab="turn"]');
  await page.waitForSelector('.detail[data-turn="14"] .execution.failed');
  await page.screenshot({ path: join(OUTPUT, 'viewer-failed-exec.png') });
});

test('high contrast theme, and a trace with only episode_start, render without errors', { skip }, async () => {
  const { events } = loadFixture('malmm-pick-place.jsonl');
  const url = await writeTracePage('malmm-start-only', { runId: 'start-only', events: events.slice(0, 1), warnings: [] }, 'high-contrast');
  const p = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  const s = watchPage(p);
  await openViewer(p, url);
  assert.equal(await p.locator('.turn-row').count(), 0);
  assert.match((await p.textContent('.run-header'))!, /incomplete \(no episode_end\)/);
  await p.click('vscode-tab-header[data-tab="plots"]');
  await p.waitForSelector('.plots-empty:not(.hidden)');
  await p.click('vscode-tab-header[data-tab="summary"]');
  await p.waitForSelector('.run-summary .metrics');
  assert.deepEqual(s.errors, []);
  const url2 = await writeTracePage('malmm-hc', { runId: 'hc', events, warnings: [] }, 'high-contrast');
  await openViewer(p, url2);
  await p.locator('.turn-row[data-turn="14"]').click();
  await p.screenshot({ path: join(OUTPUT, 'viewer-high-contrast.png') });
  assert.deepEqual(s.errors.filter((e) => !/web worker/.test(e)), []);
  await p.close();
});

test('a 100k-sample trace: plots are decimated to the canvas width and keep the extremes', { skip }, async () => {
  const { buildBigTrace } = await import('../fixtures/traces/malmmTrace.js');
  const events = buildBigTrace(100_000);
  const url = await writeTracePage('malmm-big', { runId: 'big', events, warnings: [] });
  const p = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await openViewer(p, url);
  await p.click('vscode-tab-header[data-tab="plots"]');
  await p.waitForFunction(() => (window.__waypointViewer!.chart('position')?.[0]?.data.length ?? 0) > 0);
  const n = await p.evaluate(() => window.__waypointViewer!.seriesLength());
  assert.ok(n >= 100_000);
  const width = await p.$eval('.plot.wide .plot-canvas', (e) => e.clientWidth);
  const z = (await p.evaluate(() => window.__waypointViewer!.chart('position')!))[2].data;
  assert.ok(z.length <= 4 * width && z.length > width, `${z.length} points for ${width} px`);
  const all = events.flatMap((e) => (e.type === 'trajectory' ? e.samples.map((s) => s.ee[2]) : []));
  assert.equal(Math.max(...z.map((q) => q.y)), Math.max(...all));
  assert.equal(Math.min(...z.map((q) => q.y)), Math.min(...all));
  const rows = await p.evaluate(() => window.__waypointViewer!.rows().length);
  assert.ok(rows > 100);
  await p.screenshot({ path: join(OUTPUT, 'viewer-big-plots.png') });
  await p.close();
});

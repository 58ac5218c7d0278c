// The run viewer as the HTML report shows it, in the dark, light and high-contrast themes, for a successful run,
// a run that failed at its first model call (no motion) and a run refused at the start: every panel (Turn with
// each kind of turn and every collapsible open, Plots, Summary, 3D) is screenshotted to test/output/themes/ and
// its text checked against WCAG AA contrast (4.5:1, large text 3:1). Empty views must say why they are empty.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { REPORT_THEMES, type ReportTheme } from '../../src/core/trace/reportThemes.js';
import type { TraceEvent } from '../../src/protocol/trace.js';
import { loadFixture } from '../unit/core/trace/projections/helpers.js';
import { chromiumMissing, launch, openWatchedViewer, OUTPUT, watchPage, writeTracePage } from './browser.js';
import { measureContrast, type ContrastFailure } from './contrast.js';

const skip = chromiumMissing;
const SHOTS = join(OUTPUT, 'themes');
let browser: Browser;

const fixture = loadFixture('malmm-pick-place.jsonl').events;
const zero = { turns: 0, modelCalls: 0, cachedCalls: 0, promptTokens: 0, completionTokens: 0, codeBlocks: 0, codeErrors: 0, formatErrors: 0, durationMs: 5, simTimeSecs: 0 };
const firstTrajectory = fixture.find((e): e is Extract<TraceEvent, { type: 'trajectory' }> => e.type === 'trajectory')!;

const RUNS: Record<string, TraceEvent[]> = {
  success: fixture,
  // The model endpoint refused the first call: the scene and its pose at reset are recorded, nothing moved.
  'failed-first-call': [
    ...fixture.slice(0, 2),
    { seq: 2, tMs: 2, type: 'trajectory', turn: 0, rateHz: firstTrajectory.rateHz, samples: firstTrajectory.samples.slice(0, 1) },
    ...fixture.slice(2, 5).map((e, i) => ({ ...e, seq: 3 + i })),
    { seq: 6, tMs: 6, type: 'model_response', turn: 1, callId: 'c1', role: 'supervisor', ok: false, error: { kind: 'network', message: 'connection to http://127.0.0.1:9/v1 refused: nothing is listening on that port (is the server running?)' }, latencyMs: 2, cached: false, attempts: 1 },
    { seq: 7, tMs: 7, type: 'error', kind: 'model_error', message: 'model m failed for role supervisor (network)' },
    { seq: 8, tMs: 8, type: 'check', turn: 1, name: 'task_success', ok: false, message: 'red block is 0.1620 m (xy) from the yellow container (limit 0.025)' },
    { seq: 9, tMs: 9, type: 'episode_end', success: false, reason: 'model_error', agentClaimedDone: false, message: 'model m failed for role supervisor (network)', metrics: { ...zero, turns: 1, modelCalls: 1 } },
  ] as TraceEvent[],
  // Refused before anything ran (what launchRun records for an unknown task).
  'not-started': [
    { ...(fixture[0] as Extract<TraceEvent, { type: 'episode_start' }>), agentVariant: '', variant: '', taskDescription: '', task: 'juggle', prompts: [], simulator: { name: '' } },
    { seq: 1, tMs: 1, type: 'error', kind: 'invalid_input', message: "unknown task 'juggle'; waypoint-tabletop has: stack_blocks, put_block" },
    { seq: 2, tMs: 2, type: 'episode_end', success: false, reason: 'invalid_input', agentClaimedDone: false, message: "unknown task 'juggle'; waypoint-tabletop has: stack_blocks, put_block", metrics: zero },
  ] as TraceEvent[],
};

before(async () => {
  if (skip) return;
  browser = await launch();
  mkdirSync(SHOTS, { recursive: true });
});
after(async () => {
  await browser?.close();
});

async function open(run: string, theme: ReportTheme): Promise<{ page: Page; seen: ReturnType<typeof watchPage> }> {
  const url = await writeTracePage(`themes-${run}-${theme}`, { runId: `${run}-run`, events: RUNS[run], warnings: [] }, theme);
  const { page, seen } = await openWatchedViewer(browser, url, { width: 1280, height: 860 });
  // tsx names inner functions with a helper the page does not have.
  await page.evaluate('window.__name = (f) => f');
  return { page, seen };
}

async function check(page: Page, what: string, failures: string[]): Promise<number> {
  const r = (await page.evaluate(measureContrast, '#app')) as { checked: number; failures: ContrastFailure[] };
  for (const f of r.failures) failures.push(`${what}: "${f.text}" ${f.fg} on ${f.bg} = ${f.ratio}:1 < ${f.required} (${f.where})`);
  return r.checked;
}

async function tab(page: Page, name: string): Promise<void> {
  await page.click(`vscode-tab-header[data-tab="${name}"]`);
  await page.waitForTimeout(name === '3d' ? 1500 : 300);
}

for (const theme of REPORT_THEMES) {
  test(`${theme} theme: every panel of a successful run reads at WCAG AA contrast`, { skip }, async () => {
    const { page, seen } = await open('success', theme);
    const failures: string[] = [];
    let checked = 0;
    // One turn of each kind: the task message, Supervisor routing, Planner, Coder, Executor, and a failed block.
    const rows = await page.evaluate(() => window.__waypointViewer!.rows());
    const picks = new Map<string, number>();
    for (const r of rows) {
      const key = r.outcome !== 'ok' ? `failed ${r.role}` : r.role;
      if (!picks.has(key)) picks.set(key, r.turn);
    }
    assert.ok(picks.size >= 5, JSON.stringify([...picks]));
    for (const [kind, turn] of picks) {
      await page.click(`.turn-row[data-turn="${turn}"]`);
      // Open every collapsible (messages the role saw, the system prompt, raw response, observations).
      await page.evaluate(() => document.querySelectorAll('.detail vscode-collapsible').forEach((c) => c.setAttribute('open', '')));
      await page.waitForTimeout(100);
      checked += await check(page, `turn ${turn} (${kind})`, failures);
      if (kind === 'coder') await page.screenshot({ path: join(SHOTS, `success-${theme}-turn-${turn}.png`) });
    }
    for (const name of ['plots', 'summary', '3d']) {
      await tab(page, name);
      checked += await check(page, name, failures);
      await page.screenshot({ path: join(SHOTS, `success-${theme}-${name}.png`) });
    }
    assert.ok(checked > 200, `${checked} text elements measured`);
    assert.deepEqual(failures, []);
    assert.deepEqual(seen.errors, []);
    await page.close();
  });

  for (const run of ['failed-first-call', 'not-started']) {
    test(`${theme} theme: a ${run} run says why its views are empty, at WCAG AA contrast`, { skip }, async () => {
      const { page, seen } = await open(run, theme);
      const failures: string[] = [];
      await page.screenshot({ path: join(SHOTS, `${run}-${theme}-turn.png`) });
      await check(page, 'turn', failures);
      const header = (await page.textContent('.run-header'))!;
      if (run === 'not-started') {
        assert.match(header, /✖ not started · invalid_input · unknown task 'juggle'/);
        assert.match((await page.textContent('.timeline'))!, /No turns: the run did not start/);
        assert.match((await page.textContent('.detail'))!, /This run did not start \(invalid_input: unknown task 'juggle'/);
        assert.doesNotMatch(header, /variant|sim /, 'no empty chips');
      } else {
        assert.match(header, /✖ failure · model_error/);
      }
      await tab(page, 'plots');
      const plots = (await page.textContent('.plots-empty'))!;
      assert.match(plots, run === 'not-started' ? /This run did not start \(invalid_input/ : /No robot motion in this run: it ended \(model_error\) at turn 1 before any code moved the robot\. The top-down plot shows the objects where the episode started\./);
      // No empty 0-1 axes: the time plots are hidden.
      assert.equal(await page.isVisible('.plot.wide'), false);
      assert.equal(await page.isVisible('.plot.narrow'), false);
      assert.equal(await page.isVisible('.plot.square'), run !== 'not-started', 'the top-down plot shows the objects when the trace has them');
      await check(page, 'plots', failures);
      await page.screenshot({ path: join(SHOTS, `${run}-${theme}-plots.png`) });
      await tab(page, 'summary');
      const summary = (await page.textContent('.run-summary'))!;
      if (run === 'not-started') assert.match(summary, /Simulator check: not run \(the run did not start\)/);
      else assert.match(summary, /✖ Simulator check failed: red block is 0\.1620 m \(xy\) from the yellow container \(limit 0\.025\)/);
      await check(page, 'summary', failures);
      await page.screenshot({ path: join(SHOTS, `${run}-${theme}-summary.png`) });
      await tab(page, '3d');
      const replay = await page.evaluate(() => ({ message: window.__waypointReplay3d?.message ?? '', status: window.__waypointReplay3d?.status }));
      if (run === 'not-started') {
        assert.match(replay.message, /This run did not start/);
        assert.equal(await page.isVisible('.replay3d-viewport'), false, 'no blank canvas');
      } else {
        assert.match(replay.message, /No robot motion in this run.*The scene is shown as it was at the start\./);
        if (replay.status === 'ready') {
          // Not a blank canvas: the red block is drawn where the episode started.
          const px = await page.evaluate(() => window.__waypointReplay3d!.pixels());
          assert.ok(px.hues.red > 20, `the scene is drawn: ${JSON.stringify(px)}`);
        }
      }
      await check(page, '3d', failures);
      await page.screenshot({ path: join(SHOTS, `${run}-${theme}-3d.png`) });
      assert.deepEqual(failures, []);
      assert.deepEqual(seen.errors.filter((e) => !/WebGL|GPU/i.test(e)), []);
      await page.close();
    });
  }
}

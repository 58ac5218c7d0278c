// The Testing view as a user drives it in code-server: a .waypoint/tests.yaml (a competent MALMM test, a
// reference-flawed one, a RoCo one), the tree, ▷ on a test that passes, ▷ on the flawed one that fails (its
// label in the peek at the Coder prompt, the link to the run viewer at the failing turn), the debug action stopping
// at a breakpoint in coder.prompt, continuous run re-running the MALMM tests after coder.prompt is saved (not the
// RoCo one), and after a reload the last outcomes back in the tree from .waypoint/test-results.json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { UiContext } from './scenarios.js';
import { goToLine, openWorkbench, quickOpen, runCommand, type Shots, waitViewer } from './workbench.js';

type Step = (name: string, needs: string[], timeoutMs: number, fn: () => Promise<string | void>) => Promise<void>;

// The MALMM tests name their variant (MALMM as the paper describes it), so the ablations the steps before flipped in
// the workspace's active variant do not change what they do.
const TESTS_YAML = [
  '# Tests for the Testing view (docs/testing.md)',
  'model: reference',
  'tests:',
  '  - architecture: malmm',
  '    tasks: [stack_blocks]',
  '    seeds: [0]',
  '    variants: [paper]',
  '  - architecture: malmm',
  '    tasks: [stack_blocks]',
  '    seeds: [12]',
  '    variants: [paper]',
  '    model: reference-flawed',
  '  - architecture: roco',
  '',
].join('\n');
const PASSING = 'malmm/stack_blocks/s0/paper';
const FLAWED = 'malmm/stack_blocks/s12@reference-flawed/paper';
const ROCO = 'roco/sort_cubes/s0';
const RUN_TIMEOUT_MS = 240_000;

export const TREE = 'Testing view: the tests of .waypoint/tests.yaml, architecture → task → seed';
const PASS = 'Testing view: ▷ on malmm › stack_blocks › seed 0 runs the episode; it passes';
const FAIL = 'Testing view: the reference-flawed test fails with its label at the Coder prompt; its link opens the run viewer at the turn';
const GUTTER = 'Testing view: .waypoint/tests.yaml shows each test’s state in its gutter, on the entry’s line';
const DEBUG = 'Testing view: the debug action stops at a breakpoint in coder.prompt';
const CONTINUOUS = 'Testing view: continuous run re-runs the MALMM tests when coder.prompt is saved, not the RoCo one';
export const RELOAD = 'Testing view: after a reload the tree shows the last outcomes (.waypoint/test-results.json)';

interface Stored {
  status: string;
  finishedAt: string;
  label?: string;
  turn?: number;
  tracePath?: string;
}

function results(ws: string): Record<string, Stored> {
  const file = join(ws, '.waypoint', 'test-results.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { results: Record<string, Stored> }).results : {};
}

async function waitResult(page: Page, ws: string, id: string, after: string | undefined, what: string, timeoutMs = RUN_TIMEOUT_MS): Promise<Stored> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = results(ws)[id];
    if (r && r.finishedAt !== after) return r;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what} (${id} in .waypoint/test-results.json)`);
    await page.waitForTimeout(500);
  }
}

const explorerRows = (page: Page) => page.locator('.test-explorer .monaco-list-row');
const testRow = (page: Page, text: string) => explorerRows(page).filter({ hasText: text }).first();
/** The first child row of the row that starts with `parent` (a seed's variant). */
async function childRow(page: Page, parent: string) {
  const labels = await rowLabels(page);
  const i = labels.findIndex((l) => l.startsWith(parent));
  if (i < 0) throw new Error(`no row '${parent}': ${labels.join(' | ')}`);
  return explorerRows(page).nth(i + 1);
}

/** Shows the Testing view (its activity bar item toggles the side bar, so only when it is not showing). */
async function showTesting(page: Page): Promise<void> {
  if (await page.locator('.test-explorer').isVisible().catch(() => false)) return;
  // The item, not its label: with failed tests a badge covers the label and takes the click.
  const item = page.locator('.activitybar .action-item:has(> a[aria-label^="Testing"])');
  await item.click({ timeout: 60_000 });
  await explorerRows(page).first().waitFor({ timeout: 30_000 });
}

async function expandAll(page: Page): Promise<void> {
  for (let i = 0; i < 12; i++) {
    const collapsed = page.locator('.test-explorer .monaco-list-row[aria-expanded="false"]');
    if ((await collapsed.count()) === 0) return;
    await collapsed.first().locator('.monaco-tl-twistie').click();
    await page.waitForTimeout(300);
  }
}

/** Room for the tests' descriptions: the side bar dragged wider by its sash. */
async function widenSideBar(page: Page): Promise<void> {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || box.width > 450) return;
  const x = box.x + box.width + 1;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 260, y, { steps: 8 });
  await page.mouse.up();
}

async function rowAction(page: Page, text: string, codicon: string): Promise<void> {
  const row = testRow(page, text);
  await row.hover();
  await row.locator(`.action-label.${codicon}`).click();
}

const rowLabels = (page: Page) => page.$$eval('.test-explorer .monaco-list-row', (els) => els.map((e) => (e.textContent ?? '').trim()));

export async function runTestingScenario(page: Page, ctx: UiContext, step: Step, shots: Shots, figures: Record<string, unknown>, opened: string): Promise<void> {
  const coderPath = join(ctx.workspace, 'prompts', 'malmm', 'coder.prompt');
  const original = existsSync(coderPath) ? readFileSync(coderPath, 'utf8') : '';

  await step(TREE, [opened], 90_000, async () => {
    writeFileSync(join(ctx.workspace, '.waypoint', 'tests.yaml'), TESTS_YAML);
    // One editor group again (the steps before leave the walkthrough and run viewers open).
    await runCommand(page, 'View: Close All Editor Groups');
    await showTesting(page);
    await widenSideBar(page);
    // The controller watches the tests file; the tree follows it.
    const deadline = Date.now() + 30_000;
    while (!(await rowLabels(page)).some((l) => l.startsWith('RoCo')) && Date.now() < deadline) await page.waitForTimeout(250);
    await expandAll(page);
    const labels = (await rowLabels(page)).map((l) => l.replace(/\d+(\.\d+)?m?s$/, '').trim());
    for (const want of ['MALMM', 'stack_blocks', 'seed 0', 'paper', 'seed 12 · reference-flawed', 'RoCo', 'sort_cubes']) {
      if (!labels.some((l) => l.startsWith(want))) throw new Error(`the tree has no '${want}': ${labels.join(' | ')}`);
    }
    await shots.take(page, '15-testing-tree');
    return labels.join(' | ');
  });

  await step(PASS, [TREE], RUN_TIMEOUT_MS + 30_000, async () => {
    const t0 = Date.now();
    await rowAction(page, 'seed 0', 'codicon-testing-run-icon');
    const r = await waitResult(page, ctx.workspace, PASSING, undefined, 'the seed 0 test');
    if (r.status !== 'passed') throw new Error(`seed 0 ${r.status}: ${JSON.stringify(r)}`);
    await testRow(page, 'seed 0').locator('.codicon-testing-passed-icon').waitFor({ timeout: 20_000 });
    figures.testPassMs = Date.now() - t0;
    await page.waitForTimeout(500);
    await shots.take(page, '16-testing-passed');
    return `passed in ${((figures.testPassMs as number) / 1000).toFixed(1)} s (${r.tracePath})`;
  });

  await step(FAIL, [TREE], RUN_TIMEOUT_MS + 60_000, async () => {
    await showTesting(page);
    await rowAction(page, 'seed 12', 'codicon-testing-run-icon');
    const r = await waitResult(page, ctx.workspace, FLAWED, undefined, 'the reference-flawed test');
    if (r.status !== 'failed' || !r.label || r.turn === undefined) throw new Error(`the flawed test did not fail with a label and a turn: ${JSON.stringify(r)}`);
    await testRow(page, 'seed 12').locator('.codicon-testing-failed-icon').waitFor({ timeout: 20_000 });
    // The test (seed 12's variant): its description says what failed where, as the results file does.
    const row = await childRow(page, 'seed 12');
    // The state arrives with the run's report, the description a moment later with the record.
    const described = `✖ ${r.label} at turn ${r.turn}`;
    await row.filter({ hasText: described }).waitFor({ timeout: 10_000 }).catch(async () => {
      throw new Error(`the row reads '${(await row.textContent()) ?? ''}', not '${described} …'`);
    });
    // Double-click: the failure's peek, at the prompt of the role whose turn it was.
    await row.dblclick();
    const peek = page.locator('.editor-group-container .peekview-widget', { hasText: r.label }).first();
    await peek.waitFor({ timeout: 20_000 });
    await page.locator('.tabs-container .tab.active', { hasText: '.prompt' }).waitFor({ timeout: 10_000 });
    const activeTab = ((await page.locator('.tabs-container .tab.active').first().textContent()) ?? '').trim();
    const link = peek.locator('.rendered-markdown a', { hasText: `Open the run at turn ${r.turn}` }).first();
    await link.waitFor({ timeout: 10_000 });
    const peekText = ((await peek.innerText()) ?? '').replace(/\s+/g, ' ');
    if (!/task_success: /.test(peekText)) throw new Error(`the peek has no check detail: ${peekText.slice(0, 300)}`);
    await shots.take(page, '17-testing-failure-peek');
    await link.click();
    const viewer = await waitViewer(page, 'the run viewer of the failed test', 60_000, (v) => r.tracePath !== undefined && r.tracePath.includes(v.runId ?? '\0'));
    await viewer.locator(`.turn-row.selected[data-turn="${r.turn}"]`).waitFor({ timeout: 20_000 });
    await page.waitForTimeout(1000);
    await shots.take(page, '18-testing-failure-viewer');
    return `${r.label} at turn ${r.turn}; peek in ${activeTab}; the viewer selects turn ${r.turn}`;
  });

  await step(GUTTER, [PASS, FAIL], 60_000, async () => {
    await quickOpen(page, 'tests.yaml', '.waypoint');
    const glyph = (state: string) => page.locator(`.editor-instance .cgmr.testing-run-glyph.codicon-testing-${state}-icon`);
    await glyph('passed').first().waitFor({ timeout: 20_000 });
    await glyph('failed').first().waitFor({ timeout: 20_000 });
    await page.waitForTimeout(500);
    await shots.take(page, '18b-testing-tests-yaml-gutter');
    return `${await page.locator('.editor-instance .cgmr.testing-run-glyph').count()} gutter buttons in tests.yaml`;
  });

  await step(DEBUG, [TREE], 240_000, async () => {
    if (!original) throw new Error('no coder.prompt in the workspace');
    // Open since the failure's peek: its tab (Quick Open's Enter on an open, inactive file did not always switch).
    const tab = page.locator('.tabs-container .tab', { hasText: 'coder.prompt' }).first();
    if ((await tab.count()) > 0) await tab.click();
    else await quickOpen(page, 'coder.prompt', 'malmm');
    await page.keyboard.press('Escape'); // the failure's peek, if it is still open
    const line = original.split('\n').findIndex((l) => l.startsWith('AVAILABLE FUNCTIONS:')) + 1;
    if (line < 1) throw new Error('coder.prompt has no "AVAILABLE FUNCTIONS:" line');
    await goToLine(page, line);
    await page.keyboard.press('F9');
    await page.locator('.cgmr.codicon-debug-breakpoint').first().waitFor({ timeout: 10_000 });
    await showTesting(page);
    const t0 = Date.now();
    await rowAction(page, 'seed 0', 'codicon-testing-debug-icon');
    await page.locator('.codicon-debug-stackframe').first().waitFor({ timeout: 200_000 });
    const stack = page.locator('.debug-call-stack');
    await stack.locator('.monaco-list-row', { hasText: /^Coder · turn \d+/ }).first().waitFor({ timeout: 60_000 });
    const paused = ((await page.locator('.debug-call-stack .state.label, .debug-call-stack .monaco-list-row').allTextContents()).join(' | ')).replace(/\s+/g, ' ');
    figures.testDebugStopMs = Date.now() - t0;
    await page.waitForTimeout(800);
    await shots.take(page, '19-testing-debug-breakpoint');
    await page.locator('.debug-toolbar .action-label.codicon-debug-stop').click();
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 30_000 });
    // Take the breakpoint away again (the same key on the same line).
    await page.locator('.tabs-container .tab', { hasText: 'coder.prompt' }).first().click();
    await goToLine(page, line);
    await page.keyboard.press('F9');
    return `stopped after ${((figures.testDebugStopMs as number) / 1000).toFixed(1)} s: ${paused.slice(0, 160)}`;
  });

  await step(CONTINUOUS, [PASS, FAIL], RUN_TIMEOUT_MS * 2, async () => {
    await showTesting(page);
    const before = results(ctx.workspace);
    // The view's own toggle: continuous run for every test.
    await page.locator('.part.sidebar .title-actions a[aria-label="Start Continuous Run"]').first().click();
    const stop = page.locator('.part.sidebar .title-actions a[aria-label="Stop Continuous Run"]').first();
    await stop.waitFor({ timeout: 10_000 });
    await page.locator('.tabs-container .tab', { hasText: 'coder.prompt' }).first().click();
    const line = original.split('\n').findIndex((l) => l.startsWith('CODE GENERATION:')) + 1;
    await goToLine(page, line);
    await page.keyboard.press('End');
    await page.keyboard.type(' (edited for a continuous run)');
    await page.keyboard.press('Control+S');
    const t0 = Date.now();
    const [a, b] = [await waitResult(page, ctx.workspace, PASSING, before[PASSING]?.finishedAt, 'seed 0 re-run after the save'), await waitResult(page, ctx.workspace, FLAWED, before[FLAWED]?.finishedAt, 'seed 12 re-run after the save')];
    figures.continuousRerunMs = Date.now() - t0;
    if (results(ctx.workspace)[ROCO]) throw new Error('the RoCo test ran, but coder.prompt is not one of its prompts');
    await showTesting(page);
    await page.waitForTimeout(800);
    await shots.take(page, '20-testing-continuous-rerun');
    await stop.click();
    writeFileSync(coderPath, original);
    return `seed 0 ${a.status}, seed 12 ${b.status} (${b.label ?? ''}) ${((figures.continuousRerunMs as number) / 1000).toFixed(1)} s after the save; RoCo not run`;
  });
  if (original && readFileSync(coderPath, 'utf8') !== original) writeFileSync(coderPath, original);
}

/** Last: reloads the window (a new extension host) and checks that the last outcomes are back in the tree. */
export async function runTestingReloadStep(page: Page, ctx: UiContext, step: Step, shots: Shots): Promise<void> {
  await step(RELOAD, [PASS, FAIL], 180_000, async () => {
    const stored = results(ctx.workspace);
    await openWorkbench(page, ctx.url, 'prompts');
    await showTesting(page);
    await widenSideBar(page);
    await expandAll(page);
    const want = ['paper✔ passed', `paper✖ ${stored[FLAWED]?.label} at turn ${stored[FLAWED]?.turn}`];
    const deadline = Date.now() + 30_000;
    let labels: string[] = [];
    while (Date.now() < deadline) {
      labels = await rowLabels(page);
      if (want.every((w) => labels.some((l) => l.startsWith(w)))) break;
      await page.waitForTimeout(500);
    }
    if (!want.every((w) => labels.some((l) => l.startsWith(w)))) throw new Error(`after the reload the tree reads: ${labels.join(' | ')}`);
    await testRow(page, 'seed 12').locator('.codicon-testing-failed-icon').waitFor({ timeout: 20_000 });
    await shots.take(page, '21-testing-after-reload');
    return labels.filter((l) => l.startsWith('paper')).join(' | ');
  });
}

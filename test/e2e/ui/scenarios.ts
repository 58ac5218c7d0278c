// UI scenarios in code-server driven by Playwright: the example workspace, the MALMM Coder prompt, `▶ Run live
// test` to a successful episode in the run viewer, the Monaco retry diff and the trajectory chart on a trace with an
// executor error, an export from the Runs view's context menu (MCAP, read back), an ablation toggle by its CodeLens,
// and the getting-started walkthrough (steps done by CodeLens are ticked; a step's button runs its command). Each
// step has a deadline and a screenshot; a step that throws, for whatever reason, failed; a step whose prerequisite
// failed is reported as skipped (the prerequisite's failure already fails the run).
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { McapIndexedReader } from '@mcap/core';
import { decompress as lz4Decompress } from 'lz4js';
import type { Browser, Frame, Page } from 'playwright-core';
import { parse } from 'yaml';
import { readTrace } from '../../../src/core/trace/reader.js';
import { allNotifications, codeLens, goToLine, openWorkbench, problemCounts, pickQuickItem, quickOpen, runCommand, Shots, toasts, waitViewer } from './workbench.js';
import { runDebuggerScenario } from './debugScenario.js';
import { runTestingReloadStep, runTestingScenario } from './testingScenario.js';
import { DROPPED_RULE, fixtureSweep } from '../../helpers/fixtureSweep.js';
import { REPO } from '../prepare.js';

/** The sweep comparison webview's inner frame (the one with the matrix). */
async function sweepViewFrame(page: Page, timeoutMs: number): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const f of page.frames()) if (await f.$('table.matrix').catch(() => null)) return f;
    if (Date.now() > deadline) throw new Error(`no sweep comparison view after ${timeoutMs / 1000} s`);
    await page.waitForTimeout(250);
  }
}

export interface UiContext {
  browser: Browser;
  /** Workbench URL with the repository as extensionDevelopmentPath and the staged workspace as folder. */
  url: string;
  workspace: string;
  /** Folder name of the fixture run copied into the workspace's .waypoint/runs. */
  fixtureRunId: string;
  /** How the Open Run quick pick labels it (its start time). */
  fixtureRunLabel: string;
  outDir: string;
  log(line: string): void;
  /** Only the steps whose name contains this (and the first, which opens the workbench): `--ui-grep=`. */
  grep?: string;
}

export interface StepResult {
  name: string;
  status: 'passed' | 'failed' | 'skipped';
  ms: number;
  detail?: string;
}

const LIVE_RUN_TIMEOUT_MS = 240_000;

function variantOff(workspace: string, id: string): boolean {
  const doc = (parse(readFileSync(join(workspace, '.waypoint', 'variants.yaml'), 'utf8')) ?? {}) as { active?: string; variants?: Record<string, { off?: string[] } | null> };
  return (doc.variants?.[doc.active ?? 'default']?.off ?? []).includes(id);
}

/** The newest run folder other than the fixture's whose trace has ended, with its end event. */
function finishedLiveRun(workspace: string, exclude: string): { runId: string; success: boolean; reason: string } | undefined {
  const dir = join(workspace, '.waypoint', 'runs');
  if (!existsSync(dir)) return undefined;
  for (const id of readdirSync(dir).filter((n) => n !== exclude).sort().reverse()) {
    const file = join(dir, id, 'trace.jsonl');
    if (!existsSync(file)) continue;
    const end = readTrace(readFileSync(file, 'utf8')).events.find((e) => e.type === 'episode_end');
    if (end && end.type === 'episode_end') return { runId: id, success: end.success, reason: end.reason };
  }
  return undefined;
}

/** The viewer's banner warnings (a clean trace has none; host messages the view rejected show up here). */
async function assertNoViewerWarnings(frame: Frame, what: string): Promise<void> {
  const w = await frame.evaluate(() => (window as unknown as { __waypointViewer: { warnings(): { message: string }[]; invalidMessages: number } }).__waypointViewer.warnings().map((x) => x.message));
  if (w.length > 0) throw new Error(`${what}: the run viewer shows ${w.length} warning(s), first: ${w[0]}`);
}

type Rows = { turn: number; role: string; outcome: string; flags: string[] }[];
const hookRows = (f: Frame) => f.evaluate(() => (window as unknown as { __waypointViewer: { rows(): Rows } }).__waypointViewer.rows());

/** Selects the first Coder turn after an executor error and checks the Monaco diff of the retried code. */
async function retryDiff(frame: Frame): Promise<{ turn: number; errorTurn: number } | undefined> {
  const rows = await hookRows(frame);
  const err = rows.find((r) => /executor/i.test(r.role) && r.outcome !== 'ok');
  const coder = err && rows.find((r) => r.turn > err.turn && /coder/i.test(r.role));
  if (!err || !coder) return undefined;
  await frame.locator('vscode-tab-header[data-tab="turn"]').click();
  await frame.locator(`.turn-row[data-turn="${coder.turn}"]`).click();
  await frame.locator('.diff-editor .monaco-diff-editor').waitFor({ timeout: 20_000 });
  const sides = await frame.evaluate(() => (window as unknown as { __waypointViewer: { diff(): { original: string; modified: string } | undefined } }).__waypointViewer.diff());
  if (!sides || !sides.original.trim() || sides.original === sides.modified) throw new Error(`turn ${coder.turn}: the diff editor has no two different sides`);
  await frame.locator('.diff-editor .editor.modified .view-lines').first().waitFor({ timeout: 10_000 });
  return { turn: coder.turn, errorTurn: err.turn };
}

export async function runUiScenarios(ctx: UiContext): Promise<{ steps: StepResult[]; figures: Record<string, unknown>; shots: Shots }> {
  const steps: StepResult[] = [];
  const figures: Record<string, unknown> = {};
  const shots = new Shots(ctx.outDir);
  const context = await ctx.browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page: Page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const passed = new Set<string>();
  const attempted = new Set<string>();
  let liveFrame: Frame | undefined;
  let fixtureFrame: Frame | undefined;

  async function step(name: string, needs: string[], timeoutMs: number, fn: () => Promise<string | void>): Promise<void> {
    if (ctx.grep && !name.includes(ctx.grep) && name !== 'open the example workspace') {
      steps.push({ name, status: 'skipped', ms: 0, detail: `not selected (--ui-grep=${ctx.grep})` });
      return;
    }
    const missing = needs.filter((n) => !passed.has(n));
    // A need that never ran (misnamed, or ordered after this step) would skip the step with no failure behind it.
    const neverRan = missing.filter((n) => !attempted.has(n));
    attempted.add(name);
    if (neverRan.length > 0) {
      steps.push({ name, status: 'failed', ms: 0, detail: `needs ${neverRan.join(', ')}, which did not run before it (misnamed or out of order)` });
      ctx.log(`  ✖ ${name}: needs ${neverRan.join(', ')}, which did not run before it`);
      return;
    }
    if (missing.length > 0) {
      steps.push({ name, status: 'skipped', ms: 0, detail: `needs: ${missing.join(', ')}` });
      ctx.log(`  - ${name}: skipped (needs ${missing.join(', ')})`);
      return;
    }
    const t0 = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const detail = await Promise.race([
        fn(),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`step did not finish within ${timeoutMs / 1000} s`)), timeoutMs))),
      ]);
      passed.add(name);
      steps.push({ name, status: 'passed', ms: Date.now() - t0, detail: detail || undefined });
      ctx.log(`  ✔ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)${detail ? `: ${detail}` : ''}`);
    } catch (e) {
      const message = e instanceof Error ? e.message.split('\n')[0] : String(e);
      steps.push({ name, status: 'failed', ms: Date.now() - t0, detail: message });
      ctx.log(`  ✖ ${name}: ${message}`);
      await page.screenshot({ path: join(ctx.outDir, `FAILED-${name.replace(/[^\w]+/g, '-')}.png`) }).catch(() => {});
    } finally {
      clearTimeout(timer);
    }
  }

  try {
    await step('open the example workspace', [], 90_000, async () => {
      const ms = await openWorkbench(page, ctx.url, 'prompts');
      figures.workbenchReadyMs = ms;
      await page.locator('.window-title, .titlebar-container').first().waitFor({ timeout: 5_000 }).catch(() => {});
      return `explorer ready ${ms} ms after page.goto`;
    });

    // Opened first, as VS Code's Welcome page does on a real first start (the e2e settings turn the start-up page
    // off, and the workbench's walkthrough service only starts listening for step events once something uses it).
    const WALK_OPEN = 'getting-started walkthrough opens with its four steps, none ticked';
    await step(WALK_OPEN, ['open the example workspace'], 45_000, async () => {
      await runCommand(page, 'Welcome: Open Walkthrough...');
      await pickQuickItem(page, 'Get Started with Waypoint', 'Get Started with Waypoint');
      await page.locator('button.getting-started-step[data-step-id$="flipAblation"]').waitFor({ timeout: 20_000 });
      const ids = await page.$$eval('button.getting-started-step', (bs) => bs.map((b) => `${(b.getAttribute('data-step-id') ?? '').split('#').pop()}${b.getAttribute('aria-checked') === 'true' ? ' (ticked)' : ''}`));
      if (ids.length !== 4 || ids.some((i) => i.includes('ticked'))) throw new Error(`the walkthrough shows: ${ids.join(', ')}`);
      // Closed by its tab: with the walkthrough focused the command palette's input sometimes never became editable
      // (a clean-clone CI run timed out in fill), and closing is not what this step checks.
      const tab = page.locator('.tabs-container .tab', { hasText: 'Walkthrough' }).first();
      await tab.hover();
      await tab.locator('.codicon-close').first().click();
      await tab.waitFor({ state: 'detached', timeout: 10_000 });
      return ids.join(', ');
    });

    await step('open prompts/malmm/coder.prompt by Quick Open; CodeLens shows', ['open the example workspace'], 60_000, async () => {
      const t0 = Date.now();
      await quickOpen(page, 'coder.prompt', 'malmm');
      await codeLens(page, '▶ Run live test').waitFor({ timeout: 45_000 });
      figures.openToFirstLensMs = Date.now() - t0;
      await shots.take(page, '01-coder-prompt-codelens');
      return `first CodeLens ${figures.openToFirstLensMs} ms after Quick Open`;
    });

    await step('activation time (Waypoint: Show Activation Time)', ['open prompts/malmm/coder.prompt by Quick Open; CodeLens shows'], 30_000, async () => {
      await runCommand(page, 'Waypoint: Show Activation Time');
      const toast = page.locator('.notifications-toasts .notification-list-item', { hasText: 'Waypoint activated in' }).first();
      await toast.waitFor({ timeout: 10_000 });
      const m = /activated in ([\d.]+) ms/.exec((await toast.textContent()) ?? '');
      if (!m) throw new Error('the notification does not give a time');
      figures.activationMsUi = Number(m[1]);
      await page.keyboard.press('Escape');
      return `${m[1]} ms`;
    });

    await step('▶ Run live test → run viewer shows a successful episode', ['open prompts/malmm/coder.prompt by Quick Open; CodeLens shows'], LIVE_RUN_TIMEOUT_MS + 30_000, async () => {
      const t0 = Date.now();
      await codeLens(page, '▶ Run live test').click();
      liveFrame = await waitViewer(page, 'the live run viewer', 60_000, (v) => !(v.runId ?? '').includes('pick_place'));
      figures.clickToViewerMs = Date.now() - t0;
      const deadline = Date.now() + LIVE_RUN_TIMEOUT_MS;
      let done: ReturnType<typeof finishedLiveRun>;
      while (!(done = finishedLiveRun(ctx.workspace, ctx.fixtureRunId)) && Date.now() < deadline) await page.waitForTimeout(500);
      if (!done) throw new Error(`the live run did not end within ${LIVE_RUN_TIMEOUT_MS / 1000} s`);
      figures.liveRunMs = Date.now() - t0;
      if (!done.success) throw new Error(`the episode failed (${done.reason}); see the run viewer screenshot`);
      await liveFrame.locator('.run-header .result', { hasText: '✔ success' }).waitFor({ timeout: 20_000 });
      await page.waitForTimeout(300); // let the last append render before the screenshot
      await shots.take(page, '02-live-run-success');
      await assertNoViewerWarnings(liveFrame, 'live run');
      return `${done.runId}: success in ${(figures.liveRunMs as number / 1000).toFixed(1)} s`;
    });

    await step('the example prompts show no error markers (Problems)', ['open prompts/malmm/coder.prompt by Quick Open; CodeLens shows'], 30_000, async () => {
      const counts = await problemCounts(page);
      if (counts.errors > 0) {
        await runCommand(page, 'View: Focus Problems');
        const panel = page.locator('.markers-panel');
        await panel.waitFor({ timeout: 10_000 });
        const first = (await panel.innerText()).split('\n').filter(Boolean).slice(0, 6).join(' / ');
        await shots.take(page, '02b-problems').catch(() => undefined);
        await runCommand(page, 'View: Toggle Panel Visibility');
        throw new Error(`${counts.errors} error marker(s) in the workspace, e.g. ${first}`);
      }
      return `errors ${counts.errors}, warnings ${counts.warnings}`;
    });

    await step('live run: Coder turn after an executor error shows the Monaco diff', ['▶ Run live test → run viewer shows a successful episode'], 60_000, async () => {
      const r = await retryDiff(liveFrame!);
      if (!r) {
        figures.liveRunHadExecutorError = false;
        throw new Error('the live run (reference-flawed, stack_blocks seed 9) had no Coder turn after an executor error: its seeded NameError should give one');
      }
      figures.liveRunHadExecutorError = true;
      await shots.take(page, '03-live-run-retry-diff');
      return `turn ${r.turn} after the error at turn ${r.errorTurn}`;
    });

    await step('Open Run… a trace with an executor error; the retry Coder turn shows the Monaco diff', ['open the example workspace'], 60_000, async () => {
      await runCommand(page, 'Waypoint: Open Run…');
      await pickQuickItem(page, ctx.fixtureRunLabel, ctx.fixtureRunLabel);
      fixtureFrame = await waitViewer(page, 'the fixture run viewer', 30_000, (v) => (v.runId ?? '').includes('pick_place'));
      await assertNoViewerWarnings(fixtureFrame, 'fixture run');
      const r = await retryDiff(fixtureFrame);
      if (!r) throw new Error(`no Coder turn after an executor error in the fixture: ${JSON.stringify((await hookRows(fixtureFrame)).map((x) => [x.turn, x.role, x.outcome]))}`);
      await shots.take(page, '04-fixture-retry-diff');
      return `turn ${r.turn} after the error at turn ${r.errorTurn}`;
    });

    await step('trajectory chart', ['Open Run… a trace with an executor error; the retry Coder turn shows the Monaco diff'], 30_000, async () => {
      const frame = fixtureFrame!;
      await frame.locator('vscode-tab-header[data-tab="plots"]').click();
      const canvas = frame.locator('canvas[data-plot="position"]');
      await canvas.waitFor({ state: 'visible' });
      const box = await canvas.boundingBox();
      if (!box || box.width < 100 || box.height < 50) throw new Error(`the position chart is not laid out (${JSON.stringify(box)})`);
      const series = await frame.evaluate(() => (window as unknown as { __waypointViewer: { chart(n: string): { label: string; data: unknown[] }[] | undefined } }).__waypointViewer.chart('position'));
      const points = (series ?? []).reduce((n, s) => n + s.data.length, 0);
      if (points < 10) throw new Error(`the position chart has ${points} points`);
      await shots.take(page, '05-trajectory-chart');
      await frame.locator('vscode-tab-header[data-tab="turn"]').click();
      return `${series!.length} series, ${points} points`;
    });

    await step('Runs view: right-click a run → Export Run… → MCAP for Foxglove; the file reads back', ['open the example workspace'], 60_000, async () => {
      const target = join(ctx.workspace, 'exported-from-runs-view.mcap');
      await runCommand(page, 'Waypoint: Focus on Runs View');
      const row = page.locator('.pane-body .monaco-list-row', { hasText: ctx.fixtureRunLabel }).first();
      await row.waitFor({ timeout: 15_000 });
      await row.click({ button: 'right' });
      // The workbench's context menu ignores a synthetic click right after it opens: hover the item, then Enter.
      const item = page.locator('.monaco-menu .action-item', { hasText: 'Export Run…' }).first();
      await item.hover({ timeout: 10_000 });
      await page.keyboard.press('Enter');
      await pickQuickItem(page, 'MCAP for Foxglove', 'MCAP for Foxglove / Lichtblick');
      // The save dialog is VS Code's own (a quick input holding a path) in the browser.
      const input = page.locator('.quick-input-widget input');
      await page.locator('.quick-input-widget', { hasText: 'Export run as' }).waitFor({ timeout: 10_000 });
      // The dialog writes its default path into the input once its folder listing loads; a value typed before that is
      // overwritten (CI saw the export land at the default path). Wait for the default, then type and check it stuck.
      const waitValue = async (ok: (v: string) => boolean, what: string) => {
        const until = Date.now() + 10_000;
        for (;;) {
          const v = await input.inputValue();
          if (ok(v)) return v;
          if (Date.now() > until) throw new Error(`the save dialog's input never held ${what} (it holds '${v}')`);
          await page.waitForTimeout(100);
        }
      };
      await waitValue((v) => v.endsWith('.mcap'), 'the default .mcap path');
      for (let attempt = 0; ; attempt++) {
        await input.fill(target);
        await page.waitForTimeout(300);
        if ((await input.inputValue()) === target) break;
        if (attempt === 4) await waitValue((v) => v === target, target);
      }
      await page.keyboard.press('Enter');
      const deadline = Date.now() + 20_000;
      while (!existsSync(target) && Date.now() < deadline) await page.waitForTimeout(200);
      if (!existsSync(target)) {
        const said = await page.locator('.notifications-toasts .notification-list-item').allTextContents().catch(() => []);
        throw new Error(`no file at ${target} after the save dialog; notifications: ${said.join(' | ') || 'none'}`);
      }
      await page.locator('.notifications-toasts .notification-list-item', { hasText: 'exported MCAP for Foxglove' }).first().waitFor({ timeout: 15_000 });
      const bytes = readFileSync(target);
      const reader = await McapIndexedReader.Initialize({ decompressHandlers: { lz4: (buf: Uint8Array, size: bigint) => lz4Decompress(buf, Number(size)) }, readable: { size: async () => BigInt(bytes.byteLength), read: async (o: bigint, l: bigint) => bytes.subarray(Number(o), Number(o + l)) } });
      const counts = [...(reader.statistics?.channelMessageCounts ?? [])].map(([id, n]) => `${reader.channelsById.get(id)!.topic} ${n}`);
      if (!counts.some((c) => c.startsWith('/tf '))) throw new Error(`no /tf channel in the export: ${counts.join(', ')}`);
      await shots.take(page, '05b-runs-view-export');
      return `${bytes.byteLength} bytes: ${counts.join(', ')}`;
    });

    await step('flip an ablation by its CodeLens; .waypoint/variants.yaml changes', ['open prompts/malmm/coder.prompt by Quick Open; CodeLens shows'], 45_000, async () => {
      const id = 'coder.step_by_step';
      await page.locator('.tabs-container .tab', { hasText: 'coder.prompt' }).first().click();
      // CodeLenses exist only for rendered lines: bring the ablation's line to the middle of the editor first.
      const line = readFileSync(join(ctx.workspace, 'prompts', 'malmm', 'coder.prompt'), 'utf8').split('\n').findIndex((l) => l.includes(`#ablation "${id}"`)) + 1;
      await goToLine(page, line);
      const before = variantOff(ctx.workspace, id);
      const from = `${before ? '○' : '●'} ${id}: ${before ? 'off' : 'on'}`;
      const to = `${before ? '●' : '○'} ${id}: ${before ? 'on' : 'off'}`;
      await codeLens(page, from).click();
      const deadline = Date.now() + 15_000;
      while (variantOff(ctx.workspace, id) === before && Date.now() < deadline) await page.waitForTimeout(100);
      if (variantOff(ctx.workspace, id) === before) throw new Error(`${id} did not change in .waypoint/variants.yaml`);
      await codeLens(page, to).waitFor({ timeout: 15_000 });
      await shots.take(page, '06-ablation-toggled');
      return `'${from}' → '${to}'; variants.yaml: ${id} ${before ? 'removed from' : 'added to'} off`;
    });

    await runDebuggerScenario(page, ctx, step, shots, figures);

    await step('comparison view of a small sweep', ['open the example workspace'], 60_000, async () => {
      // A fixture sweep (3 columns x 12 seeds) in the workspace, opened by its command; the view is the real
      // webview in the workbench, fed by the extension host's loader.
      fixtureSweep(ctx.workspace);
      await runCommand(page, 'Waypoint: Open Sweep Comparison…');
      await pickQuickItem(page, 'fixture', 'fixture');
      const frame = await sweepViewFrame(page, 30_000);
      const classes = await frame.$$eval('table.matrix tbody td', (tds) => tds.map((td) => td.className));
      if (classes.join() !== 'cell baseline,cell ns,cell sig worse') throw new Error(`matrix cells: ${classes.join(' | ')}`);
      await frame.selectOption('#pair-left', 'malmm');
      await frame.selectOption('#pair-right', 'sa');
      await frame.selectOption('#pair-seed', '3/0');
      await frame.click('#pair-go');
      await frame.waitForSelector('table.sxs tr.diverge', { timeout: 15_000 });
      const diverge = await frame.textContent('table.sxs tr.diverge th');
      const diff = await frame.$$eval('.pdiff .del', (ls) => ls.map((l) => l.textContent ?? ''));
      if (diverge !== '8 ◆' || !diff.some((l) => l.includes(DROPPED_RULE))) throw new Error(`side by side: first divergence '${diverge}', removed prompt lines ${JSON.stringify(diff)}`);
      await shots.take(page, '14-sweep-comparison');
      return `matrix ${classes.join(' | ')}; malmm vs sa seed 3 diverge at turn 8 with the Planner prompt diff`;
    });

    await step('getting-started walkthrough: steps done by CodeLens are ticked; the "Flip an Ablation" button runs its command', [WALK_OPEN, '▶ Run live test → run viewer shows a successful episode', 'flip an ablation by its CodeLens; .waypoint/variants.yaml changes'], 60_000, async () => {
      const id = 'planner.replan_check';
      await runCommand(page, 'Welcome: Open Walkthrough...');
      await pickQuickItem(page, 'Get Started with Waypoint', 'Get Started with Waypoint');
      const stepButton = (s: string) => page.locator(`button.getting-started-step[data-step-id$="${s}"]`);
      await stepButton('flipAblation').waitFor({ timeout: 20_000 });
      const titles = await page.$$eval('button.getting-started-step', (bs) => bs.map((b) => b.getAttribute('data-step-id') ?? ''));
      if (titles.length !== 4) throw new Error(`the walkthrough shows ${titles.length} steps: ${titles.join(', ')}`);
      // The live run and the ablation toggle above went through CodeLenses (delegated commands, which the
      // workbench's onCommand does not see): their steps are ticked by the context keys the commands set.
      for (const s of ['runLiveTest', 'flipAblation']) {
        await page.locator(`button.getting-started-step[data-step-id$="${s}"][aria-checked="true"]`).waitFor({ timeout: 10_000 }).catch(() => {
          throw new Error(`the ${s} step is not ticked after its command ran from a CodeLens`);
        });
      }
      await stepButton('flipAblation').click();
      await shots.take(page, '07-walkthrough');
      await page.locator('.getting-started-step.expanded').getByRole('button', { name: 'Flip an Ablation' }).click({ timeout: 10_000 });
      const before = variantOff(ctx.workspace, id);
      await pickQuickItem(page, id, id);
      const deadline = Date.now() + 15_000;
      while (variantOff(ctx.workspace, id) === before && Date.now() < deadline) await page.waitForTimeout(100);
      if (variantOff(ctx.workspace, id) === before) throw new Error(`${id} did not change in .waypoint/variants.yaml`);
      await shots.take(page, '08-walkthrough-step-done');
      const checked = await page.$$eval('button.getting-started-step[aria-checked="true"]', (bs) => bs.map((b) => (b.getAttribute('data-step-id') ?? '').split('#').pop()));
      return `steps ${titles.map((t) => t.split('#').pop()).join(', ')}; ticked ${checked.join(', ')}; ${id} ${before ? 'on' : 'off'} via the walkthrough's button`;
    });

    await runTestingScenario(page, ctx, step, shots, figures, 'open the example workspace');

    await step('Agents view: a workspace architecture (cap) is listed; a broken copy is an error item', ['open the example workspace'], 60_000, async () => {
      const archs = join(ctx.workspace, '.waypoint', 'architectures');
      const example = join(REPO, 'examples', 'architectures', 'cap');
      cpSync(example, join(archs, 'cap'), { recursive: true });
      // A second copy under another id whose loop has a syntax error.
      const broken = join(archs, 'cap_broken');
      cpSync(example, broken, { recursive: true });
      writeFileSync(join(broken, 'manifest.ts'), readFileSync(join(broken, 'manifest.ts'), 'utf8').replace("id: 'cap'", "id: 'cap_broken'"));
      writeFileSync(join(broken, 'loop.ts'), `${readFileSync(join(broken, 'loop.ts'), 'utf8')}\nexport const broken = ;\n`);
      try {
        // The activity bar's Waypoint container (its view commands exist only once the extension has activated).
        await page.locator('.activitybar a.action-label[aria-label^="Waypoint"]').first().click();
        // The tree is virtualised and the built-ins open expanded: collapse them so every architecture is drawn.
        const header = page.locator('.pane-header', { hasText: 'Agents' }).first();
        await header.hover();
        await header.locator('a.action-label[aria-label="Collapse All"]').click({ timeout: 10_000 });
        const rows = page.locator('.pane-body .monaco-list-row');
        await rows.filter({ hasText: 'Code as Policies' }).first().waitFor({ timeout: 30_000 });
        const error = rows.filter({ hasText: 'cap_broken' }).first();
        await error.waitFor({ timeout: 15_000 });
        const text = (await error.textContent()) ?? '';
        if (!/not loaded/.test(text)) throw new Error(`the broken folder's row says '${text}'`);
        await shots.take(page, '22-agents-view-workspace-architecture');
        return `cap listed; ${text.trim().slice(0, 120)}`;
      } finally {
        rmSync(archs, { recursive: true, force: true });
      }
    });

    await step('no error notifications', ['open the example workspace'], 30_000, async () => {
      const visible = await toasts(page);
      const all = await allNotifications(page, () => page.screenshot({ path: join(ctx.outDir, '09-notification-center.png') }));
      figures.notifications = all;
      const errors = all.filter((n) => n.severity === 'error').concat(visible.filter((n) => n.severity === 'error'));
      shots.taken.push({ file: join(ctx.outDir, '09-notification-center.png'), errors: errors.map((e) => e.text) });
      if (errors.length > 0) throw new Error(`error notifications: ${errors.map((e) => e.text).join(' | ')}`);
      return `${all.length} notification(s), none an error: ${all.map((n) => `[${n.severity}] ${n.text.slice(0, 80)}`).join(' | ') || '—'}`;
    });

    // Last: it reloads the window.
    await runTestingReloadStep(page, ctx, step, shots);
  } finally {
    // Lets the server end this window's extension host now (else it lingers for the reconnection grace time).
    await page.goto('about:blank').catch(() => {});
    await context.close().catch(() => {});
  }
  return { steps, figures, shots };
}

// The debugger as a user drives it in code-server: F9 in coder.prompt, the `Debug live test` CodeLens, the stop
// at the breakpoint (verified in the Breakpoints view), the Variables view, step over from the toolbar, Reverse
// Continue back to the Coder's turn, an edit saved while paused, Restart Frame from the Call Stack, the fork's
// viewer beside the original, Continue to the next Coder turn, and Stop (the trace ends cancelled).
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { readTrace } from '../../../src/core/trace/reader.js';
import type { UiContext } from './scenarios.js';
import { codeLens, goToLine, quickOpen, type Shots, viewerFrames, waitViewer } from './workbench.js';

type Step = (name: string, needs: string[], timeoutMs: number, fn: () => Promise<string | void>) => Promise<void>;

const OPEN = 'open prompts/malmm/coder.prompt by Quick Open; CodeLens shows';
const HIT = 'Debug live test: a verified breakpoint in coder.prompt stops before the Coder’s turn';
const VARS = 'the Variables view shows the Context (observation) and the Messages';
const STEP = 'step over (toolbar) lands on the next role turn';
const FORK = 'edit the prompt while paused, Restart Frame (Call Stack): a fork beside the original';
const CONT = 'continue: the fork runs to the next Coder turn; Stop ends it cancelled';

const callStack = (page: Page) => page.$$eval('.debug-call-stack .monaco-list-row', (els) => els.map((e) => (e.textContent ?? '').trim()));

async function waitCallStack(page: Page, what: string, pred: (rows: string[]) => boolean, timeoutMs = 120_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await callStack(page);
    if (pred(rows)) return rows;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}; call stack: ${rows.join(' | ') || 'empty'}`);
    await page.waitForTimeout(250);
  }
}

async function settledLens(page: Page, title: string): Promise<void> {
  let last: string | null = null;
  let since = Date.now();
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const id = await codeLens(page, title).getAttribute('id', { timeout: 5_000 });
    if (id !== last) {
      last = id;
      since = Date.now();
    } else if (Date.now() - since > 2_000) return;
    await page.waitForTimeout(200);
  }
}

function turnOfTop(rows: string[]): number {
  return Number(/turn (\d+)/.exec(rows[0] ?? '')?.[1] ?? NaN);
}

function latestTraces(workspace: string): string[] {
  const dir = join(workspace, '.waypoint', 'runs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).sort().reverse().map((id) => join(dir, id, 'trace.jsonl')).filter((p) => existsSync(p));
}

export async function runDebuggerScenario(page: Page, ctx: UiContext, step: Step, shots: Shots, figures: Record<string, unknown>): Promise<void> {
  const coderPath = join(ctx.workspace, 'prompts', 'malmm', 'coder.prompt');
  const original = existsSync(coderPath) ? readFileSync(coderPath, 'utf8') : '';
  const line = original.split('\n').findIndex((l) => l.startsWith('CODE GENERATION:')) + 1;
  let parentRun: string | undefined;
  /** Runs whose viewers were open before the debug session: the session's and its fork's are the new ones. */
  const seenRuns = new Set<string>();
  let forkFrame: Frame | undefined;

  await step(HIT, [OPEN], 240_000, async () => {
    if (line < 1) throw new Error('coder.prompt has no "CODE GENERATION:" line');
    await page.locator('.tabs-container .tab', { hasText: 'coder.prompt' }).first().click();
    await goToLine(page, line);
    await page.keyboard.press('F9');
    await page.locator('.cgmr.codicon-debug-breakpoint').first().waitFor({ timeout: 10_000 });
    await goToLine(page, 1); // the lens sits on line 1
    // A CodeLens refresh (the ablation toggle before this step is still echoing from the file watcher) replaces
    // the lenses' commands; a click on a replaced one finds no command. Click once they have settled.
    await settledLens(page, 'Debug live test');
    for (const v of await viewerFrames(page)) if (v.runId) seenRuns.add(v.runId);
    const t0 = Date.now();
    await codeLens(page, 'Debug live test').click();
    await page.locator('.codicon-debug-stackframe').first().waitFor({ timeout: 200_000 });
    figures.debugClickToStopMs = Date.now() - t0;
    const rows = await waitCallStack(page, 'the Coder frame', (r) => /^Coder · turn \d+/.test(r[0] ?? ''));
    if (!rows[0]!.includes(`coder.prompt${line}:1`) && !rows[0]!.includes(`${line}:1`)) throw new Error(`the top frame is not at coder.prompt:${line}: ${rows[0]}`);
    // The Breakpoints view draws a verified breakpoint filled, an unverified one hollow.
    const bpRow = page.locator('.debug-breakpoints .monaco-list-row', { hasText: 'coder.prompt' }).first();
    await bpRow.locator('.codicon-debug-breakpoint').waitFor({ timeout: 10_000 });
    if ((await bpRow.locator('.codicon-debug-breakpoint-unverified').count()) > 0) throw new Error('the breakpoint is drawn unverified');
    // So does the gutter of the editor the stop revealed (the stop's own glyph sits on the breakpoint's line).
    const gutter = page.locator('.editor-instance .cgmr[class*="codicon-debug-breakpoint"]');
    await gutter.first().waitFor({ timeout: 10_000 });
    if ((await page.locator('.editor-instance .cgmr.codicon-debug-breakpoint-unverified').count()) > 0) throw new Error('the gutter draws the breakpoint unverified');
    const viewer = await waitViewer(page, 'the run viewer of the debug session', 60_000, (v) => v.runId !== undefined && !seenRuns.has(v.runId));
    parentRun = (await viewerFrames(page)).find((v) => v.frame === viewer)?.runId;
    if (parentRun) seenRuns.add(parentRun);
    // The viewer follows the debugger: the paused turn is selected.
    const turn = turnOfTop(rows);
    await viewer.locator(`.turn-row.selected[data-turn="${turn}"]`).waitFor({ timeout: 20_000 });
    await page.waitForTimeout(800);
    await shots.take(page, '08-debug-breakpoint-hit');
    return `${rows[0]} after ${((figures.debugClickToStopMs as number) / 1000).toFixed(1)} s; viewer ${parentRun}`;
  });

  await step(VARS, [HIT], 30_000, async () => {
    const vars = () => page.$$eval('.debug-variables .monaco-list-row', (els) => els.map((e) => (e.textContent ?? '').trim()));
    const ctxRows = await vars();
    if (!ctxRows.some((r) => r.startsWith('observation =') && r.includes('Center Position'))) throw new Error(`no observation in the Context scope: ${ctxRows.slice(0, 12).join(' | ')}`);
    await page.locator('.debug-variables .monaco-list-row', { hasText: /^Context$/ }).first().click(); // collapse
    await page.locator('.debug-variables .monaco-list-row', { hasText: /^Messages$/ }).first().click(); // expand
    await page.locator('.debug-variables .monaco-list-row', { hasText: '0 · system' }).first().waitFor({ timeout: 10_000 });
    const rows = await vars();
    const system = rows.find((r) => r.startsWith('0 · system'));
    if (!system?.includes('You are an AI that writes Python code')) throw new Error(`the system message is not shown: ${system}`);
    await shots.take(page, '09-debug-variables-messages');
    return `${rows.filter((r) => /^\d+ · /.test(r)).length} messages`;
  });

  await step(STEP, [HIT], 90_000, async () => {
    const before = turnOfTop(await callStack(page));
    await page.locator('.debug-toolbar .action-label.codicon-debug-step-over').click();
    const rows = await waitCallStack(page, 'the next role turn', (r) => turnOfTop(r) > before);
    // The Variables view follows the step: its Context shows the new turn (expanded again; Messages stays open).
    const turn = turnOfTop(rows);
    // The tree re-renders as the new scopes arrive: poll, expanding Context whenever it shows collapsed.
    const turnRow = page.locator('.debug-variables .monaco-list-row', { hasText: new RegExp(`^turn\\s*=\\s*${turn}$`) });
    const ctxRow = page.locator('.debug-variables .monaco-list-row', { hasText: /^Context$/ }).first();
    for (const deadline = Date.now() + 20_000; (await turnRow.count()) === 0; await page.waitForTimeout(500)) {
      if (Date.now() > deadline) {
        const seen = await page.$$eval('.debug-variables .monaco-list-row', (els) => els.map((e) => (e.textContent ?? '').trim()));
        throw new Error(`the Variables view does not show turn ${turn}: ${seen.slice(0, 10).join(' | ')}`);
      }
      if ((await ctxRow.count()) > 0 && (await ctxRow.getAttribute('aria-expanded')) !== 'true') await ctxRow.click().catch(() => undefined);
    }
    await page.waitForTimeout(300);
    await shots.take(page, '10-debug-step-over');
    return `${rows[0]}; Variables at turn ${turn}`;
  });

  await step(FORK, [STEP], 180_000, async () => {
    await page.locator('.debug-toolbar .action-label.codicon-debug-reverse-continue').click();
    const back = await waitCallStack(page, 'the Coder turn again (Reverse Continue)', (r) => /^Coder · turn/.test(r[0] ?? ''));
    await page.locator('.tabs-container .tab', { hasText: 'coder.prompt' }).first().click();
    await goToLine(page, line);
    await page.keyboard.press('End');
    await page.keyboard.type(' (edited while paused)');
    await page.keyboard.press('Control+S');
    const deadline = Date.now() + 10_000;
    while (!readFileSync(coderPath, 'utf8').includes('(edited while paused)') && Date.now() < deadline) await page.waitForTimeout(100);
    if (!readFileSync(coderPath, 'utf8').includes('(edited while paused)')) throw new Error('the edit was not saved');
    const row = page.locator('.debug-call-stack .monaco-list-row', { hasText: 'Coder' }).first();
    await row.hover();
    await row.locator('.codicon-debug-restart-frame').click();
    const rows = await waitCallStack(page, 'the fork stopped at the restarted turn', (r) => r.some((x) => x.includes('fork of turn')) && /^Coder · turn/.test(r[0] ?? ''));
    forkFrame = await waitViewer(page, 'the fork’s run viewer', 60_000, (v) => v.runId !== undefined && !seenRuns.has(v.runId));
    await forkFrame.locator(`.turn-row.selected.fork-point[data-turn="${turnOfTop(rows)}"]`).waitFor({ timeout: 20_000 });
    await forkFrame.locator('.fork-line').waitFor({ timeout: 20_000 });
    const forkLine = (await forkFrame.locator('.fork-line').textContent())?.trim() ?? '';
    if (!/fork of \S+ at turn \d+/.test(forkLine)) throw new Error(`fork line: ${forkLine}`);
    if ((await viewerFrames(page)).filter((v) => v.ready).length < 2) throw new Error('the original’s viewer is not open beside the fork');
    const trace = latestTraces(ctx.workspace)[0]!;
    const start = readTrace(readFileSync(trace, 'utf8')).events[0];
    if (start?.type !== 'episode_start' || !start.fork) throw new Error(`the newest trace is not a fork: ${trace}`);
    const sent = readTrace(readFileSync(trace, 'utf8')).events.filter((e) => e.type === 'role_call');
    if (!sent[sent.length - 1]?.messages.some((m) => m.content.includes('(edited while paused)'))) throw new Error('the restarted turn did not render the edit');
    figures.fork = { via: start.fork.via, turn: start.fork.turn, replayedCalls: start.fork.replayedCalls };
    await page.waitForTimeout(1000);
    await shots.take(page, '11-debug-restart-frame-fork');
    return `${back[0]} → ${rows[0]}; ${forkLine.slice(0, 120)}`;
  });

  await step(CONT, [FORK], 180_000, async () => {
    const before = turnOfTop(await callStack(page));
    await page.locator('.debug-toolbar .action-label.codicon-debug-continue').click();
    const rows = await waitCallStack(page, 'the next Coder turn in the fork', (r) => /^Coder · turn/.test(r[0] ?? '') && turnOfTop(r) > before);
    await page.waitForTimeout(800);
    await shots.take(page, '12-debug-continue-fork');
    const trace = latestTraces(ctx.workspace)[0]!;
    await page.locator('.debug-toolbar .action-label.codicon-debug-stop').click();
    const deadline = Date.now() + 30_000;
    let end: string | undefined;
    while (Date.now() < deadline) {
      const events = readTrace(readFileSync(trace, 'utf8')).events;
      const last = events[events.length - 1];
      if (last?.type === 'episode_end') {
        end = last.reason;
        break;
      }
      await page.waitForTimeout(250);
    }
    if (end !== 'cancelled') throw new Error(`the fork's trace ended ${end ?? 'without episode_end'}, not cancelled`);
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 20_000 });
    await page.waitForTimeout(600);
    await shots.take(page, '13-debug-stopped');
    return `${rows[0]}; trace ended ${end}`;
  });

  // Leave the prompt as the other steps expect it, and no debug session behind a failed step (a paused session
  // would take the next scenario's stop).
  if (original && readFileSync(coderPath, 'utf8') !== original) writeFileSync(coderPath, original);
  for (let i = 0; i < 4 && (await page.locator('.debug-toolbar').isVisible().catch(() => false)); i++) {
    await page.locator('.debug-toolbar .action-label.codicon-debug-stop').first().click().catch(() => undefined);
    await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
  }
}

// Running tests: each episode through the warm run process, the same path as a live run (LiveRun on the
// RunProcesses of commands/live.ts), one at a time; and the Debug profile, one `waypoint` debug session per test.
// Results become TestRun states with the failure as a Markdown message (label, check detail, a link to the run
// viewer at the turn) located at the prompt of the role whose turn it was.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import { architectureManifests } from '../../architectures/manifests.js';
import { nodeIO } from '../../core/node/nodeHost.js';
import { resolvePromptPaths } from '../../core/runs/promptPaths.js';
import { readTrace } from '../../core/trace/reader.js';
import { DEBUG_TYPE, WAYPOINT_EVENTS, type RunEventBody } from '../../protocol/dap.js';
import { modelWireForRun } from '../commands/modelWire.js';
import { runProcesses, simulatorWire } from '../commands/live.js';
import type { Ctx } from '../ctx.js';
import { liveDebugConfig } from '../debug/launchConfig.js';
import { LiveRun } from '../live/liveRun.js';
import type { LaunchWire } from '../live/protocol.js';
import type { LmBridge } from '../lm/lmBridge.js';
import { firstPromptError } from '../prompt/promptLenses.js';
import { limitsFromSettings } from '../settings.js';
import type { TestCase } from './discovery.js';
import { FAILURE_CONTEXT, failureMarkdown, OPEN_RUN_COMMAND, outcomeFromTrace, outcomeSummary, promptBodyLine, type TestOutcome } from './results.js';


export interface RunnerHost {
  ctx: Ctx;
  bridge: LmBridge;
  item(id: string): vscode.TestItem | undefined;
  /** Keeps the outcome (this session's state; the results file and the item's description when it says something about the test). */
  record(c: TestCase, o: TestOutcome): Promise<void>;
}

export function caseLabel(c: TestCase): string {
  return `${c.arch} › ${c.task} › seed ${c.seed}${c.cell ? ` › ${c.cell}` : ''}${c.model !== 'reference' ? ` (${c.model})` : ''}`;
}

/** Text of a file as the user sees it: the open editor's buffer, else the disk. */
async function textOf(path: string): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path);
  if (open) return open.getText();
  return readFile(path, 'utf8').catch(() => undefined);
}

/** Where a failure points: the prompt of the role whose turn it was (its first template line), else the test's own line. */
export async function failureLocation(c: TestCase, o: TestOutcome): Promise<vscode.Location | undefined> {
  if (o.problemAt) return new vscode.Location(vscode.Uri.file(o.problemAt.path), new vscode.Position(o.problemAt.line - 1, 0));
  if (o.promptPath && existsSync(o.promptPath)) {
    const text = await textOf(o.promptPath);
    const line = text !== undefined ? promptBodyLine(text) : 1;
    return new vscode.Location(vscode.Uri.file(o.promptPath), new vscode.Position(line - 1, 0));
  }
  if (c.source) return new vscode.Location(vscode.Uri.file(c.source.file), new vscode.Position(c.source.line - 1, 0));
  return undefined;
}

export function openRunUri(tracePath: string, turn: number | undefined): string {
  return `command:${OPEN_RUN_COMMAND}?${encodeURIComponent(JSON.stringify([{ tracePath, ...(turn !== undefined ? { turn } : {}) }]))}`;
}

export async function testMessage(c: TestCase, o: TestOutcome): Promise<vscode.TestMessage> {
  const md = new vscode.MarkdownString(failureMarkdown(o, o.tracePath ? openRunUri(o.tracePath, o.turn) : undefined));
  md.isTrusted = { enabledCommands: [OPEN_RUN_COMMAND] };
  const m = new vscode.TestMessage(md);
  const at = await failureLocation(c, o);
  if (at) m.location = at;
  if (o.tracePath) m.contextValue = FAILURE_CONTEXT;
  return m;
}

/** Puts an outcome on the run: state, duration, message, and one line of output. */
export async function report(run: vscode.TestRun, item: vscode.TestItem, c: TestCase, o: TestOutcome): Promise<void> {
  const line = `${caseLabel(c)}: ${outcomeSummary(o)}${o.check && o.status !== 'passed' ? ` (${o.check.message})` : ''}${o.tracePath ? ` · ${o.tracePath}` : ''}`;
  if (o.status === 'passed') run.passed(item, o.durationMs);
  else if (o.status === 'skipped') run.skipped(item);
  else {
    const message = await testMessage(c, o);
    if (o.status === 'failed') run.failed(item, message, o.durationMs);
    else run.errored(item, message, o.durationMs);
    run.appendOutput(`${line}\r\n`, message.location, item);
    return;
  }
  run.appendOutput(`${line}\r\n`, undefined, item);
}

/** The first prompt error among the architecture's prompt files, as an errored outcome at its line. */
async function promptProblem(ctx: Ctx, root: string, c: TestCase): Promise<TestOutcome | undefined> {
  const manifest = architectureManifests.find(c.arch);
  if (!manifest) return { status: 'errored', reason: 'invalid_input', message: `unknown architecture '${c.arch}'` };
  for (const path of Object.values(await resolvePromptPaths(nodeIO, manifest, { workspace: root, builtInPromptRoot: ctx.builtInPromptRoot }))) {
    const text = await textOf(path);
    const error = text === undefined ? `prompt file not found: ${path}` : firstPromptError(path, text);
    if (error) {
      const m = /:(\d+)\)$/.exec(error);
      return { status: 'errored', reason: 'prompt_error', message: error, problemAt: { path, line: m ? Number(m[1]) : 1 } };
    }
  }
  return undefined;
}

async function modelFor(host: RunnerHost, c: TestCase): Promise<LaunchWire['model'] | string> {
  if (c.model === 'reference' || c.model === 'reference-flawed') return { kind: 'reference', profile: c.model };
  if (c.model === 'settings') return (await modelWireForRun(host.ctx, host.bridge)) ?? 'no API key for the model endpoint ("Waypoint: Set API Key" stores one)';
  const baseUrl = c.baseUrl ?? host.ctx.config.settings.model.baseUrl;
  const key = await host.ctx.keys.forRun(baseUrl);
  if (key.cancelled) return `no API key for ${baseUrl} ("Waypoint: Set API Key" stores one)`;
  return { kind: 'openai', model: c.model.slice('openai:'.length), baseUrl, apiKey: key.key };
}

/** One episode through the warm run process; the token cancels it (the trace then ends `cancelled`). */
async function runOne(host: RunnerHost, root: string, c: TestCase, run: vscode.TestRun, item: vscode.TestItem, token: vscode.CancellationToken): Promise<TestOutcome> {
  const { ctx } = host;
  const s = ctx.config.settings;
  const problem = await promptProblem(ctx, root, c);
  if (problem) return problem;
  const model = await modelFor(host, c);
  if (typeof model === 'string') return { status: 'errored', reason: 'model_error', message: model };
  const launch: LaunchWire = {
    workspace: root,
    arch: c.arch,
    task: c.task,
    seed: c.seed,
    ...(c.variant ? { variant: c.variant } : {}),
    ...(c.ablations ? { ablations: c.ablations } : {}),
    builtInPromptRoot: ctx.builtInPromptRoot,
    model,
    options: { codeTimeoutSecs: s.run.codeTimeoutSecs, ...(s.run.hostPython && ctx.trusted ? { codeRunner: 'host-python' as const } : {}), ...(s.run.vision ? { vision: true } : {}) },
    limits: { ...limitsFromSettings(c.arch, s), ...c.limits },
    cache: s.run.useCache,
    architectureRoots: ctx.architectures.roots(),
  };
  const t0 = performance.now();
  const live = LiveRun.start({ modulePath: ctx.asset('dist', 'runWorker.js'), launch, simulator: simulatorWire(ctx), processes: runProcesses(ctx), log: (l) => ctx.output.info(l) });
  ctx.output.info(`test: ${caseLabel(c)} (${live.warm ? 'warm run process' : 'new run process'})`);
  live.onStarted(({ tracePath }) => {
    ctx.liveRuns.set(tracePath, live);
    ctx.fireRunsChanged();
    run.appendOutput(`${caseLabel(c)}: running · ${tracePath}\r\n`, undefined, item);
  });
  const cancel = token.onCancellationRequested(() => live.cancel());
  try {
    const result = await live.done;
    return outcomeFromTrace(live.events, { runId: result.runId, tracePath: result.tracePath, reason: result.reason, message: result.message, wallMs: performance.now() - t0 });
  } finally {
    cancel.dispose();
    if (live.tracePath) ctx.liveRuns.delete(live.tracePath);
    ctx.fireRunsChanged();
  }
}

const RESTRICTED = 'Restricted Mode: Waypoint runs no episodes (no generated code, no simulator) in an untrusted workspace. Trust the workspace to run tests.';
const NO_FOLDER = 'Tests need an open folder (runs are written to its .waypoint/runs/).';

/** Runs the tests one after another (the warm process serves them in turn); a cancelled run skips the rest. */
export async function runEpisodes(host: RunnerHost, run: vscode.TestRun, cases: readonly TestCase[], token: vscode.CancellationToken): Promise<void> {
  const root = host.ctx.workspaceRoot();
  const work = cases.map((c) => ({ c, item: host.item(c.id) })).filter((w): w is { c: TestCase; item: vscode.TestItem } => w.item !== undefined);
  for (const w of work) run.enqueued(w.item);
  for (const { c, item } of work) {
    if (token.isCancellationRequested) {
      run.skipped(item);
      continue;
    }
    if (!host.ctx.trusted || !root) {
      const o: TestOutcome = { status: 'errored', reason: root ? 'restricted_mode' : 'no_folder', message: root ? RESTRICTED : NO_FOLDER };
      await report(run, item, c, o);
      await host.record(c, o);
      continue;
    }
    run.started(item);
    let o: TestOutcome;
    try {
      o = await runOne(host, root, c, run, item, token);
    } catch (err) {
      o = { status: 'errored', reason: 'engine_error', message: err instanceof Error ? err.message : String(err) };
    }
    await report(run, item, c, o);
    await host.record(c, o);
  }
}

/** The Debug profile: each test as a `waypoint` debug session linked to the test run; the outcome read from its trace. */
export async function debugEpisodes(host: RunnerHost, run: vscode.TestRun, cases: readonly TestCase[], token: vscode.CancellationToken): Promise<void> {
  const { ctx } = host;
  const root = ctx.workspaceRoot();
  for (const c of cases) {
    const item = host.item(c.id);
    if (!item) continue;
    if (token.isCancellationRequested) {
      run.skipped(item);
      continue;
    }
    if (!ctx.trusted || !root) {
      const o: TestOutcome = { status: 'errored', reason: root ? 'restricted_mode' : 'no_folder', message: root ? RESTRICTED : NO_FOLDER };
      await report(run, item, c, o);
      await host.record(c, o);
      continue;
    }
    if (c.ablations && Object.keys(c.ablations).length > 0) {
      run.errored(item, new vscode.TestMessage(`The debugger runs a variant; this sweep cell lays ablations over '${c.variant}' (${Object.entries(c.ablations).map(([k, v]) => `${k}: ${v ? 'on' : 'off'}`).join(', ')}). Use the Run profile for it, or a variant in .waypoint/variants.yaml.`));
      continue;
    }
    run.started(item);
    const s = ctx.config.settings;
    const config = liveDebugConfig(s, c.arch, { arch: c.arch, task: c.task, seed: c.seed, ...(c.variant ? { variant: c.variant } : {}) }, root);
    config.name = `Test ${caseLabel(c)}`;
    config.limits = { ...(config.limits as Record<string, number>), ...c.limits };
    config.__waypointTest = c.id;
    if (c.model !== 'settings') config.model = c.model;
    if (c.model.startsWith('openai:')) config.baseUrl = c.baseUrl ?? s.model.baseUrl;
    const traces: string[] = [];
    let sessionId: string | undefined;
    const subs: vscode.Disposable[] = [];
    const ended = new Promise<void>((resolve) => {
      subs.push(
        vscode.debug.onDidStartDebugSession((session) => {
          if (session.type === DEBUG_TYPE && session.configuration.__waypointTest === c.id) sessionId ??= session.id;
        }),
        vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
          if (e.session.configuration.__waypointTest === c.id && e.event === WAYPOINT_EVENTS.run) traces.push((e.body as RunEventBody).tracePath);
        }),
        vscode.debug.onDidTerminateDebugSession((session) => {
          if (session.id === sessionId) resolve();
        }),
        token.onCancellationRequested(() => {
          const session = vscode.debug.activeDebugSession?.id === sessionId ? vscode.debug.activeDebugSession : undefined;
          void vscode.debug.stopDebugging(session);
        }),
      );
    });
    const t0 = performance.now();
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(root));
    const started = await vscode.debug.startDebugging(folder, config as vscode.DebugConfiguration, { testRun: run });
    if (!started) {
      subs.forEach((d) => d.dispose());
      run.errored(item, new vscode.TestMessage('The debug session did not start (see the "Waypoint" output).'));
      continue;
    }
    await ended;
    subs.forEach((d) => d.dispose());
    // The session's last run: the episode itself, or the fork Restart Frame made of it.
    const tracePath = traces[traces.length - 1];
    let o: TestOutcome;
    if (!tracePath || !existsSync(tracePath)) o = { status: 'errored', reason: 'engine_error', message: 'the debug session ended without a run', durationMs: performance.now() - t0 };
    else {
      const events = readTrace(await readFile(tracePath, 'utf8')).events;
      o = outcomeFromTrace(events, { tracePath, wallMs: performance.now() - t0, reason: 'cancelled', message: 'the debug session stopped before the episode ended' });
      if (o.status === 'skipped') o.message = `stopped in the debugger (${basename(dirname(tracePath))})`;
    }
    await report(run, item, c, o);
    await host.record(c, o);
  }
}

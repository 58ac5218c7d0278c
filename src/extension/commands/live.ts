// `waypoint.runLiveTest`: one episode with the saved prompts (workspace prompts/<arch>/ over the built-in ones),
// the active variant and the configured task and seed, run in a child process; a cancellable progress
// notification, and the run viewer filling as events arrive.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { isWaypointPrompt } from '../promptLanguage.js';
import { architectures } from '../../architectures/registry.js';
import { nodeIO } from '../../core/node/nodeHost.js';
import { resolvePromptPaths } from '../../core/runs/promptPaths.js';
import type { Ctx } from '../ctx.js';
import { LiveRun, type LiveRunOptions } from '../live/liveRun.js';
import type { LaunchWire, SimulatorWire } from '../live/protocol.js';
import { RunProcesses } from '../live/runProcess.js';
import type { LmBridge } from '../lm/lmBridge.js';
import { RunViewerPanel } from '../panels/runViewerPanel.js';
import { firstPromptError, promptHeader } from '../prompt/promptLenses.js';
import { modelWireForRun } from './modelWire.js';
import { limitsFromSettings } from '../settings.js';
import { HOST_PYTHON_WARNING } from '../../core/sandbox/hostPython.js';

/** What a run may override; the rest comes from the settings and the prompt the command was started on. */
export interface LiveRequest {
  promptUri?: vscode.Uri;
  arch?: string;
  task?: string;
  seed?: number;
  variant?: string;
  /** Robots whose turns a person types, and how they are asked (commands/humanSeat.ts). */
  human?: string[];
  askHuman?: LiveRunOptions['askHuman'];
}

function activePrompt(): vscode.Uri | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  return isWaypointPrompt(doc) ? doc?.uri : undefined;
}

async function openAt(file: string, line1: number): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  const pos = new vscode.Position(Math.max(0, line1 - 1), 0);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos) });
}

/** The first error among the run's prompt files, with its file and 1-based line, or undefined. */
async function checkPrompts(paths: string[]): Promise<{ message: string; file: string; line: number } | undefined> {
  for (const path of paths) {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path);
    const text = open ? open.getText() : await readFile(path, 'utf8');
    const error = firstPromptError(path, text);
    if (error) {
      const m = /:(\d+)\)$/.exec(error);
      return { message: error, file: path, line: m ? Number(m[1]) : 1 };
    }
  }
  return undefined;
}

/** The live-run processes, one of them kept warm between runs (`waypoint.run.keepWarm`). */
export function runProcesses(ctx: Ctx): RunProcesses {
  if (!ctx.runProcesses) {
    const processes = new RunProcesses({ modulePath: ctx.asset('dist', 'runWorker.js'), keepWarm: () => ctx.config.settings.run.keepWarm, log: (l) => ctx.output.info(l) });
    ctx.runProcesses = processes;
    ctx.push({ dispose: () => processes.dispose() }, ctx.config.onDidChange(() => processes.trim()));
  }
  return ctx.runProcesses;
}

export function simulatorWire(ctx: Ctx): SimulatorWire {
  const s = ctx.config.settings.simulator;
  return s.kind === 'embedded' ? { kind: 'embedded' } : { kind: 'protocol', endpoint: s.endpoint };
}

/**
 * Load a run process ahead of the first live run (called when a prompt opens): only in a trusted workspace with a
 * folder, with warm start on and the embedded simulator (an external one is not started before the user runs).
 */
export async function prewarmLiveRuns(ctx: Ctx): Promise<void> {
  const s = ctx.config.settings;
  if (!ctx.trusted || !ctx.workspaceRoot() || !s.run.keepWarm || s.simulator.kind !== 'embedded') return;
  // The task's scene compiled, and a short throwaway episode (reference model, temporary folder) so that the
  // first real run does not pay the engine's first-use costs either.
  const r = await runProcesses(ctx).prewarm(simulatorWire(ctx), s.run.task, { arch: s.run.architecture, builtInPromptRoot: ctx.builtInPromptRoot });
  if (r.error) ctx.output.warn(`could not load the run process ahead of time (the first live run starts cold): ${r.error}`);
  else if (!r.skipped) ctx.output.info(`run process loaded for live runs in ${Math.round(r.ms ?? 0)} ms (Pyodide sandbox and MuJoCo kept warm between runs)`);
}

export async function runLiveTest(ctx: Ctx, bridge: LmBridge, request: LiveRequest): Promise<LiveRun | undefined> {
  const s = ctx.config.settings;
  const promptUri = request.promptUri ?? activePrompt();
  const root = ctx.workspaceRoot(promptUri);
  if (!root) throw new Error('Run Live Test needs an open folder (runs are written to its .waypoint/runs/)');
  let header = {} as ReturnType<typeof promptHeader>;
  if (promptUri) {
    const doc = await vscode.workspace.openTextDocument(promptUri);
    header = promptHeader(doc.getText());
  }
  const archId = request.arch ?? header.arch ?? s.run.architecture;
  // The workspace's own architectures may still be loading (activation, an edit a moment ago).
  await ctx.architectures.ready();
  const arch = architectures.get(archId);

  // Runs read prompts from disk: save the edited ones first, so "saved prompts" is what the user sees.
  for (const d of vscode.workspace.textDocuments) if (isWaypointPrompt(d) && d.isDirty && d.uri.scheme === 'file') await d.save();

  const promptPaths = Object.values(await resolvePromptPaths(nodeIO, arch, { workspace: root, builtInPromptRoot: ctx.builtInPromptRoot }));
  const problem = await checkPrompts(promptPaths);
  if (problem) {
    const choice = await vscode.window.showErrorMessage(`Waypoint: not running, a prompt has an error: ${problem.message}`, 'Open');
    if (choice) await openAt(problem.file, problem.line);
    return undefined;
  }
  if (promptUri?.scheme === 'file' && !promptPaths.includes(promptUri.fsPath)) {
    ctx.output.warn(`${promptUri.fsPath} is not one of the prompts this run uses (${promptPaths.join(', ')}): runs use <folder>/prompts/${arch.id}/<role>.prompt when present, else the built-in prompts`);
    void vscode.window.showWarningMessage(`Waypoint: this file is not used by the run; it uses prompts/${arch.id}/ in the folder or the built-in prompts (see the Waypoint output).`);
  }

  const model = await modelWireForRun(ctx, bridge);
  if (!model) {
    void vscode.window.showInformationMessage('Waypoint: run not started: no API key for the model endpoint ("Waypoint: Set API Key" stores one).');
    return undefined;
  }

  const launch: LaunchWire = {
    workspace: root,
    arch: arch.id,
    task: request.task ?? s.run.task,
    seed: request.seed ?? s.run.seed,
    variant: request.variant,
    builtInPromptRoot: ctx.builtInPromptRoot,
    model,
    // Live runs are refused in Restricted Mode; the trust check stays here so the setting can never apply there.
    options: { codeTimeoutSecs: s.run.codeTimeoutSecs, ...(s.run.hostPython && vscode.workspace.isTrusted ? { codeRunner: 'host-python' as const } : {}), ...(s.run.vision ? { vision: true } : {}) },
    limits: limitsFromSettings(arch.id, s),
    cache: s.run.useCache,
    ...(request.human?.length ? { human: request.human } : {}),
    architectureRoots: ctx.architectures.roots(),
  };
  if (launch.options.codeRunner === 'host-python') void vscode.window.showWarningMessage(`Waypoint: ${HOST_PYTHON_WARNING} (setting waypoint.run.hostPython)`);
  const simulator = simulatorWire(ctx);
  const label = `${arch.id} · ${launch.task} · seed ${launch.seed}${launch.human?.length ? ` · ${launch.human.join(', ')} played by you` : ''}`;
  ctx.output.info(`live run: ${label} · model ${model.kind === 'reference' ? (model.profile ?? 'reference') : model.model} · simulator ${simulator.kind === 'embedded' ? 'embedded' : simulator.endpoint}`);

  const run = LiveRun.start({ modulePath: ctx.asset('dist', 'runWorker.js'), launch, simulator, processes: runProcesses(ctx), log: (l) => ctx.output.info(l), ...(request.askHuman ? { askHuman: request.askHuman } : {}) });
  ctx.output.info(`live run: ${run.warm ? 'warm run process (sandbox and simulator loaded)' : 'new run process (loading the sandbox and simulator)'}`);
  run.onStarted(({ tracePath }) => {
    ctx.liveRuns.set(tracePath, run);
    ctx.fireRunsChanged();
    RunViewerPanel.createOrShow(ctx, tracePath, run);
  });

  void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Waypoint: ${label}`, cancellable: true }, async (progress, token) => {
    token.onCancellationRequested(() => run.cancel());
    progress.report({ message: run.warm ? 'starting…' : 'starting the simulator and sandbox…' });
    let turn = 0;
    const off = run.onEvents((events) => {
      for (const e of events) if ('turn' in e && typeof e.turn === 'number') turn = Math.max(turn, e.turn);
      const last = events[events.length - 1];
      progress.report({ message: `turn ${turn} · ${last.type.replace(/_/g, ' ')}` });
    });
    const result = await run.done;
    off();
    if (run.tracePath) ctx.liveRuns.delete(run.tracePath);
    ctx.fireRunsChanged();
    const summary = `${label}: ${result.reason}${result.message ? ` (${result.message})` : ''}`;
    ctx.output.info(`live run ended: ${summary}${result.tracePath ? ` · ${result.tracePath}` : ''}`);
    const open = result.tracePath ? ['Open Run'] : [];
    const show = result.success ? vscode.window.showInformationMessage : result.reason === 'cancelled' ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    void show(`Waypoint: ${result.success ? 'success' : result.reason === 'cancelled' ? 'cancelled' : 'failure'}: ${summary}`, ...open).then((c) => {
      if (c && result.tracePath) RunViewerPanel.createOrShow(ctx, result.tracePath);
    });
  });
  return run;
}

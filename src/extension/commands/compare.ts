// `waypoint.compareOnOff`: a small paired sweep of one ablation (each seed with it on and off, from the active
// variant) in a child process, with a cancellable progress notification, then the comparison panel. Started
// from an ablation's CodeLens (prompt URI and id given) or the palette (asks for the id and the seed count).
import * as vscode from 'vscode';
import { architectures } from '../../architectures/registry.js';
import { findAblations } from '../../core/prompt/analyze.js';
import { ABLATION_ID } from '../../core/prompt/render.js';
import { MAX_SWEEP_SEEDS } from '../../core/sweep/pairedSweep.js';
import type { Ctx } from '../ctx.js';
import type { LaunchWire } from '../live/protocol.js';
import { SweepRun, type SweepRunResult } from '../live/sweepRun.js';
import type { LmBridge } from '../lm/lmBridge.js';
import { ComparePanel } from '../panels/comparePanel.js';
import { promptHeader } from '../prompt/promptLenses.js';
import { isWaypointPrompt } from '../promptLanguage.js';
import { pickAblation } from './ablationPick.js';
import { toUri } from './args.js';
import { modelWireForRun } from './modelWire.js';
import { limitsFromSettings } from '../settings.js';

export interface CompareRequest {
  seeds?: number;
  task?: string;
  variant?: string;
}

/** Parses the seed-count input; undefined when valid (VS Code's validateInput convention), else why not. */
export function seedCountProblem(text: string): string | undefined {
  return /^\d+$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= MAX_SWEEP_SEEDS ? undefined : `a whole number from 1 to ${MAX_SWEEP_SEEDS}`;
}

async function askAblation(doc: vscode.TextDocument | undefined): Promise<string | undefined> {
  const ids = doc ? [...new Set(findAblations(doc.getText()).map((a) => a.id).filter((id): id is string => Boolean(id)))] : [];
  if (ids.length > 0) return vscode.window.showQuickPick(ids, { title: 'Waypoint: Compare Ablation On/Off', placeHolder: 'Ablation to compare' });
  return vscode.window.showInputBox({ title: 'Waypoint: Compare Ablation On/Off', prompt: 'Ablation id (from an {{#ablation "id"}} block)', validateInput: (v) => (ABLATION_ID.test(v.trim()) ? undefined : 'lower-case letters, digits, _ . -') });
}

export async function compareOnOff(ctx: Ctx, bridge: LmBridge, uriArg: unknown, idArg: unknown, request: CompareRequest = {}): Promise<{ done: Promise<SweepRunResult> } | undefined> {
  const s = ctx.config.settings;
  const active = vscode.window.activeTextEditor?.document;
  const promptUri = toUri(uriArg) ?? (isWaypointPrompt(active) ? active?.uri : undefined);
  let doc = promptUri ? await vscode.workspace.openTextDocument(promptUri) : undefined;
  const root = ctx.workspaceRoot(promptUri);
  if (!root) throw new Error('Compare On/Off needs an open folder (runs and sweeps are written to its .waypoint/)');
  let ablation = typeof idArg === 'string' && idArg ? idArg : undefined;
  if (!ablation && !doc) {
    // No prompt at hand (walkthrough, palette with no prompt open): choose among the ablations runs use.
    const picked = await pickAblation(ctx, root, 'Waypoint: Compare Ablation On/Off');
    if (picked === null) return undefined;
    if (picked) {
      ablation = picked.id;
      doc = await vscode.workspace.openTextDocument(picked.uri);
    }
  }
  ablation ??= await askAblation(doc);
  if (!ablation) return undefined;
  let seeds = request.seeds;
  if (seeds === undefined) {
    const text = await vscode.window.showInputBox({ title: `Waypoint: Compare ${ablation} on/off`, prompt: `Seeds (each runs twice, task ${request.task ?? s.run.task})`, value: '5', validateInput: seedCountProblem });
    if (text === undefined) return undefined;
    seeds = Number(text);
  }
  await ctx.architectures.ready();
  const arch = architectures.get((doc && promptHeader(doc.getText()).arch) ?? s.run.architecture);
  // Sweeps read prompts from disk: save edited ones so both sides run what the user sees.
  for (const d of vscode.workspace.textDocuments) if (isWaypointPrompt(d) && d.isDirty && d.uri.scheme === 'file') await d.save();
  const model = await modelWireForRun(ctx, bridge);
  if (!model) {
    void vscode.window.showInformationMessage('Waypoint: sweep not started: no API key for the model endpoint ("Waypoint: Set API Key" stores one).');
    return undefined;
  }
  const task = request.task ?? s.run.task;
  const simulator = s.simulator.kind === 'embedded' ? { kind: 'embedded' as const } : { kind: 'protocol' as const, endpoint: s.simulator.endpoint };
  const run = SweepRun.start({
    modulePath: ctx.asset('dist', 'runWorker.js'),
    sweep: {
      workspace: root,
      arch: arch.id,
      task,
      variant: request.variant,
      ablation,
      seeds,
      builtInPromptRoot: ctx.builtInPromptRoot,
      model,
      options: { codeTimeoutSecs: s.run.codeTimeoutSecs },
      limits: limitsFromSettings(arch.id, s),
      cache: s.run.useCache,
      architectureRoots: ctx.architectures.roots(),
    },
    simulator,
    log: (l) => ctx.output.info(l),
  });
  const label = `${ablation} on/off · ${arch.id} · ${task} · ${seeds} seeds`;
  ctx.output.info(`sweep: ${label}`);
  const done = vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Waypoint: ${label}`, cancellable: true }, async (progress, token) => {
    token.onCancellationRequested(() => {
      run.cancel();
      progress.report({ message: 'cancelling…' });
    });
    const off = run.onProgress((p) => {
      ctx.fireRunsChanged();
      if (p.phase === 'start') progress.report({ message: `seed ${p.seed} ${p.side} (${p.done}/${p.total} done)` });
      else progress.report({ increment: 100 / p.total });
    });
    const result = await run.done;
    off();
    ctx.fireRunsChanged();
    if (result.ok) {
      ctx.output.info(`sweep ${result.file.status}: ${result.path}`);
      ComparePanel.show(ctx, result.file, result.path);
    } else if (result.cancelled) {
      ctx.output.info(`sweep cancelled: ${result.message}`);
    } else {
      ctx.output.error(`sweep failed: ${result.message}`);
      void vscode.window.showErrorMessage(`Waypoint: sweep not run: ${result.message}`);
    }
    return result;
  });
  return { done: Promise.resolve(done) };
}

// The command table (rust-analyzer's createCommands): one factory per command, registered as `waypoint.<name>`.
// A command whose requirement is unmet (trust, folder, language server) runs its `disabled` variant, which says
// why, instead of failing obscurely. Feature modules are imported on first use to keep activation light.
import * as vscode from 'vscode';
import { firstUnmet, unmetMessage, type Requirement } from '../commandGate.js';
import type { Ctx } from '../ctx.js';
import type { LmBridge } from '../lm/lmBridge.js';
import type { PromptLensProvider } from '../prompt/promptLensProvider.js';
import type { PromptPreviewProvider } from '../prompt/previewProvider.js';
import type { AgentsTreeProvider } from '../views/agentsTree.js';
import type { RunsTreeProvider } from '../views/runsTree.js';
import { WALKTHROUGH_COMMANDS, walkthroughContextKey } from '../walkthrough.js';
import { toUri } from './args.js';
import { COMMAND_CATALOG, COMMAND_PREFIX, type CommandName } from './catalog.js';

export type Cmd = (...args: unknown[]) => unknown;

export interface CommandFactory {
  enabled: (ctx: Ctx) => Cmd;
  disabled?: (ctx: Ctx, missing: Requirement) => Cmd;
}

export interface Features {
  runs: RunsTreeProvider;
  agents: AgentsTreeProvider;
  lenses: PromptLensProvider;
  previews: PromptPreviewProvider;
  bridge: LmBridge;
}

export function createCommands(f: Features): Record<CommandName, CommandFactory> {
  return {
    runLiveTest: {
      enabled: (ctx) => async (arg, options) => {
        const { runLiveTest } = await import('./live.js');
        const o = (options ?? {}) as { task?: string; seed?: number; variant?: string; arch?: string };
        const run = await runLiveTest(ctx, f.bridge, { promptUri: toUri(arg), ...o });
        // Tests and scripts get the run's trace path once the run has one.
        return run ? { started: new Promise<string | undefined>((r) => (run.tracePath ? r(run.tracePath) : run.onStarted((s) => r(s.tracePath)))), done: run.done } : undefined;
      },
    },
    runWithHuman: {
      enabled: (ctx) => async (arg, options) => {
        const { runWithHuman } = await import('./humanSeat.js');
        const run = await runWithHuman(ctx, f.bridge, { promptUri: toUri(arg), ...((options ?? {}) as { task?: string; seed?: number; variant?: string; arch?: string; robot?: string }) });
        return run ? { started: new Promise<string | undefined>((r) => (run.tracePath ? r(run.tracePath) : run.onStarted((s) => r(s.tracePath)))), done: run.done } : undefined;
      },
    },
    debugLiveTest: {
      enabled: (ctx) => async (arg, options) => (await import('./debug.js')).debugLiveTest(ctx, toUri(arg), (options ?? {}) as { task?: string; seed?: number; variant?: string; arch?: string; stopOnEntry?: boolean }),
    },
    cancelLiveRuns: { enabled: (ctx) => async () => (await import('./runs.js')).cancelLiveRuns(ctx) },
    openRun: { enabled: (ctx) => async (arg) => (await import('./runs.js')).openRun(ctx, arg) },
    deleteRun: { enabled: (ctx) => async (arg) => (await import('./runs.js')).deleteRun(ctx, arg) },
    exportRun: { enabled: (ctx) => async (arg, options) => (await import('./runs.js')).exportRun(ctx, arg, options as { format?: 'trace' | 'mcap' | 'mcap-ros2' | 'inspect'; target?: string } | undefined) },
    refreshRuns: { enabled: () => () => f.runs.refresh() },
    refreshAgents: { enabled: () => () => f.agents.refresh() },
    toggleAblation: { enabled: (ctx) => async (uri, id) => (await import('./variants.js')).toggleAblation(ctx, uri, id) },
    selectVariant: { enabled: (ctx) => async (name) => (await import('./variants.js')).selectVariant(ctx, name) },
    overridePrompt: { enabled: (ctx) => async (arg) => (await import('./variants.js')).overridePrompt(ctx, arg) },
    previewPrompt: { enabled: (ctx) => async (arg) => (await import('./preview.js')).previewPrompt(ctx, f.previews, arg) },
    compareOnOff: {
      enabled: (ctx) => async (uri, id, options) => (await import('./compare.js')).compareOnOff(ctx, f.bridge, uri, id, (options ?? {}) as { seeds?: number; task?: string; variant?: string }),
    },
    openSweep: { enabled: (ctx) => async (arg) => (await import('./sweep.js')).openSweep(ctx, arg) },
    setApiKey: { enabled: (ctx) => async (key, baseUrl) => (await import('./setup.js')).setApiKey(ctx, key, baseUrl) },
    clearApiKey: { enabled: (ctx) => async (baseUrl) => (await import('./setup.js')).clearApiKey(ctx, baseUrl) },
    checkModelEndpoint: { enabled: (ctx) => async () => (await import('./modelCheck.js')).checkModelEndpoint(ctx, f.bridge) },
    restartLanguageServer: { enabled: (ctx) => () => ctx.lsp.restart() },
    showActivationTime: { enabled: (ctx) => async (o) => (await import('./setup.js')).showActivationTime(ctx, o as { silent?: boolean } | undefined) },
    showOutput: { enabled: (ctx) => () => ctx.output.show() },
    openExampleWorkspace: { enabled: (ctx) => async (folder, options) => (await import('./example.js')).openExampleWorkspace(ctx, folder, options as { open?: boolean } | undefined) },
    openRunAtTurn: { enabled: (ctx) => async (arg) => (await import('../testing/openRun.js')).openRunAtTurn(ctx, arg) },
  };
}

export function registerCommands(ctx: Ctx, table: Record<CommandName, CommandFactory>): void {
  for (const name of Object.keys(table) as CommandName[]) {
    const meta = COMMAND_CATALOG[name] as { title: string; needs?: Requirement[]; unavailable?: string };
    const factory = table[name];
    let enabled: Cmd | undefined;
    const id = `${COMMAND_PREFIX}${name}`;
    ctx.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        if (meta.unavailable) {
          void vscode.window.showInformationMessage(`Waypoint: ${meta.unavailable}`);
          return undefined;
        }
        const missing = firstUnmet(meta.needs, ctx.gateState());
        try {
          if (missing) {
            const disabled = factory.disabled?.(ctx, missing);
            if (disabled) return await disabled(...args);
            const message = unmetMessage(meta.title, missing);
            const action = missing === 'trust' ? 'Manage Workspace Trust' : undefined;
            void vscode.window.showWarningMessage(`Waypoint: ${message}`, ...(action ? [action] : [])).then((c) => c && vscode.commands.executeCommand('workbench.trust.manage'));
            return undefined;
          }
          enabled ??= factory.enabled(ctx);
          if (WALKTHROUGH_COMMANDS.has(name)) void vscode.commands.executeCommand('setContext', walkthroughContextKey(name), true);
          return await enabled(...args);
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          ctx.output.error(`${id}: ${message}`);
          void vscode.window.showErrorMessage(`Waypoint: ${meta.title}: ${message}`);
          return undefined;
        }
      }),
    );
  }
}

// The `waypoint` debug type in VS Code: a configuration provider (fills a launch configuration from the settings and
// the open prompt, picks a recorded run, hands the model's key to the adapter), the adapter as a separate process
// (dist/dap.js, started with the extension host's Node: the engine, simulator and sandbox never run in the
// extension host), and the run viewer following each session (a run, its forks, the position reached).
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { DEBUG_TYPE, WAYPOINT_EVENTS, type PositionEventBody, type RunEventBody } from '../../protocol/dap.js';
import { architectureSources } from '../architectureWatch.js';
import type { Ctx } from '../ctx.js';
import { architectureEnv } from '../workspaceArchitectures.js';
import type { LmBridge } from '../lm/lmBridge.js';
import { isWaypointPrompt } from '../promptLanguage.js';
import { DEBUG_KEY_ENV, liveDebugConfig, modelAttributes } from './launchConfig.js';
import type { DebugRunFeed } from './runFeed.js';

/** Keys on their way to an adapter process, by a one-time id in the configuration (never the key itself). */
const handoff = new Map<string, string>();

class ConfigProvider implements vscode.DebugConfigurationProvider {
  constructor(
    private readonly ctx: Ctx,
    private readonly bridge: LmBridge,
  ) {}

  async resolveDebugConfiguration(folder: vscode.WorkspaceFolder | undefined, config: vscode.DebugConfiguration): Promise<vscode.DebugConfiguration | undefined> {
    const root = folder?.uri.fsPath ?? this.ctx.workspaceRoot();
    if (!config.type && !config.request && !config.name) {
      // F5 without a launch.json: debug the open prompt's architecture with the run settings.
      if (!root) {
        void vscode.window.showInformationMessage('Waypoint: open a folder to debug an episode (runs are written to its .waypoint/runs/).');
        return undefined;
      }
      const doc = vscode.window.activeTextEditor?.document;
      const { promptHeader } = await import('../prompt/promptLenses.js');
      const arch = isWaypointPrompt(doc) && doc ? promptHeader(doc.getText()).arch : undefined;
      Object.assign(config, liveDebugConfig(this.ctx.config.settings, arch, {}, root));
    }
    if (!this.ctx.trusted) {
      void vscode.window.showWarningMessage('Waypoint: debugging runs generated code and a simulator, which Restricted Mode does not allow. Trust the workspace to debug.');
      return undefined;
    }
    config.workspace ??= root;
    if (config.trace === '') {
      const picked = await this.pickRun(root);
      if (!picked) return undefined;
      config.trace = picked;
    }
    if (config.trace) return config;
    if (config.model === undefined) {
      const { modelWireForRun } = await import('../commands/modelWire.js');
      const wire = await modelWireForRun(this.ctx, this.bridge);
      if (!wire) {
        void vscode.window.showInformationMessage('Waypoint: not debugging: no API key for the model endpoint ("Waypoint: Set API Key" stores one).');
        return undefined;
      }
      Object.assign(config, modelAttributes(wire));
      if (wire.kind === 'openai' && wire.apiKey) this.handKey(config, wire.apiKey);
    } else if (typeof config.model === 'string' && config.model.startsWith('openai:') && !config.apiKeyEnv) {
      // A launch.json naming an endpoint: the key stored for it in SecretStorage, if any.
      const key = await this.ctx.keys.forRun(typeof config.baseUrl === 'string' ? config.baseUrl : 'https://api.openai.com/v1');
      if (key.cancelled) return undefined;
      if (key.key) this.handKey(config, key.key);
    }
    return config;
  }

  private handKey(config: vscode.DebugConfiguration, key: string): void {
    const id = randomBytes(12).toString('hex');
    handoff.set(id, key);
    config.__waypointKey = id;
    config.apiKeyEnv = DEBUG_KEY_ENV;
  }

  private async pickRun(root: string | undefined): Promise<string | undefined> {
    if (!root) return undefined;
    const { listRuns } = await import('../../core/runs/runStore.js');
    const { nodeIO } = await import('../../core/node/nodeHost.js');
    const runs = await listRuns(nodeIO, root);
    if (runs.length === 0) {
      void vscode.window.showInformationMessage('Waypoint: no recorded runs in this folder yet (run or debug an episode first).');
      return undefined;
    }
    const item = await vscode.window.showQuickPick(
      runs.map((r) => ({ label: `${r.task ?? '?'} · seed ${r.seed ?? '?'} · ${r.variant || 'default'}`, description: `${r.arch ?? ''} · ${r.success === undefined ? 'incomplete' : r.success ? 'success' : `failure (${r.reason})`}`, detail: r.runId, path: r.path })),
      { placeHolder: 'Recorded run to step through (no model calls)' },
    );
    return item?.path;
  }
}

class AdapterFactory implements vscode.DebugAdapterDescriptorFactory {
  constructor(private readonly ctx: Ctx) {}

  createDebugAdapterDescriptor(session: vscode.DebugSession): vscode.DebugAdapterDescriptor {
    const c = session.configuration;
    // VS Code desktop's process.execPath is Electron: run it as plain Node (code-server's is Node already).
    // The setting's architecture folders travel as $WAYPOINT_ARCHITECTURE_PATH, so the adapter loads what the views list.
    const env: Record<string, string> = { ELECTRON_RUN_AS_NODE: '1', ...architectureEnv(architectureSources(this.ctx)) };
    const id = typeof c.__waypointKey === 'string' ? c.__waypointKey : undefined;
    const key = id ? handoff.get(id) : undefined;
    if (id) handoff.delete(id);
    if (key) env[typeof c.apiKeyEnv === 'string' ? c.apiKeyEnv : DEBUG_KEY_ENV] = key;
    const cwd = typeof c.workspace === 'string' ? c.workspace : (session.workspaceFolder?.uri.fsPath ?? this.ctx.workspaceRoot());
    this.ctx.output.info(`debug adapter: ${this.ctx.asset('dist', 'dap.js')} for "${session.name}"`);
    return new vscode.DebugAdapterExecutable(process.execPath, [this.ctx.asset('dist', 'dap.js')], { env, ...(cwd ? { cwd } : {}) });
  }
}

/** The run viewer beside each session: opened on its run, moved on to its forks, following where it stops. */
class ViewerSync {
  private readonly feeds = new Map<string, DebugRunFeed>();
  /** Events are handled one after another, in the order the adapter sent them: a fork's first stop arrives right
   * after its run event, and handled first it found no feed for the fork and was dropped (the viewer stayed at 0). */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: Ctx) {}

  onEvent(e: vscode.DebugSessionCustomEvent): Promise<void> {
    const next = this.queue.then(() => this.handle(e));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async handle(e: vscode.DebugSessionCustomEvent): Promise<void> {
    const { RunViewerPanel } = await import('../panels/runViewerPanel.js');
    if (e.event === WAYPOINT_EVENTS.run) {
      const body = e.body as RunEventBody;
      const { DebugRunFeed } = await import('./runFeed.js');
      const previous = this.feeds.get(e.session.id);
      const feed = new DebugRunFeed(body.tracePath, body.live, (l) => this.ctx.output.warn(l));
      this.feeds.set(e.session.id, feed);
      void previous?.finish();
      // A fork opens beside its original, so the two runs can be compared side by side.
      const parent = body.parentTracePath ? RunViewerPanel.forTrace(body.parentTracePath) : undefined;
      const column = parent?.viewColumn ? ((parent.viewColumn + 1) as vscode.ViewColumn) : vscode.ViewColumn.Beside;
      RunViewerPanel.createOrShow(this.ctx, body.tracePath, feed, column);
      this.ctx.output.info(`debug: ${body.parentTracePath ? `fork of ${basename(body.parentTracePath, '.jsonl')} at turn ${body.forkTurn}` : body.live ? 'live run' : 'recorded run'} ${body.runId}`);
      this.ctx.fireRunsChanged();
      return;
    }
    if (e.event === WAYPOINT_EVENTS.position) {
      const body = e.body as PositionEventBody;
      const feed = this.feeds.get(e.session.id);
      if (!feed || feed.tracePath !== body.tracePath) return;
      await feed.moveTo(body);
      if (body.turn !== undefined) RunViewerPanel.forTrace(body.tracePath)?.followDebugger(body.turn);
    }
  }

  async ended(session: vscode.DebugSession): Promise<void> {
    const feed = this.feeds.get(session.id);
    this.feeds.delete(session.id);
    await feed?.finish();
    this.ctx.fireRunsChanged();
  }
}

export function registerDebugger(ctx: Ctx, bridge: LmBridge): void {
  const sync = new ViewerSync(ctx);
  let active = 0;
  const setDebugging = () => void vscode.commands.executeCommand('setContext', 'waypoint.debugging', active > 0);
  ctx.push(
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new ConfigProvider(ctx, bridge)),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, new AdapterFactory(ctx)),
    vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
      if (e.session.type !== DEBUG_TYPE) return;
      sync.onEvent(e).catch((err: unknown) => ctx.output.warn(`debug: ${err instanceof Error ? err.message : String(err)}`));
    }),
    vscode.debug.onDidStartDebugSession((s) => {
      if (s.type !== DEBUG_TYPE) return;
      active++;
      setDebugging();
    }),
    vscode.debug.onDidTerminateDebugSession((s) => {
      if (s.type !== DEBUG_TYPE) return;
      active = Math.max(0, active - 1);
      setDebugging();
      void sync.ended(s);
    }),
  );
}

// The Simulator view: what a live run will use (simulator, model) and whether it may start here (trust).
import * as vscode from 'vscode';
import type { Ctx } from '../ctx.js';

interface StatusLine {
  id: string;
  label: string;
  description: string;
  tooltip: string;
  icon: string;
}

export function simulatorStatusLines(ctx: Ctx): StatusLine[] {
  const s = ctx.config.settings;
  const lines: StatusLine[] = [];
  if (s.simulator.kind === 'embedded') {
    lines.push({ id: 'sim', label: 'Embedded MuJoCo', description: s.simulator.spec === 'embedded' ? 'mujoco-js, tabletop scenes' : `mujoco-js · ${s.simulator.spec.slice('embedded:'.length).replace(/,/g, ' · ')}`, tooltip: 'The MuJoCo simulator built into Waypoint (WebAssembly). Each live run starts it in the run process.', icon: 'circuit-board' });
  } else {
    lines.push({ id: 'sim', label: 'Protocol simulator', description: s.simulator.endpoint, tooltip: `External simulator over the simulator protocol: ${s.simulator.endpoint}\nStarted or connected when a live run starts.`, icon: 'plug' });
  }
  const m = s.model;
  const model =
    m.provider === 'reference'
      ? { label: 'Model: reference', description: 'scripted, not an LLM', tooltip: 'The reference policy: a scripted stand-in served over the OpenAI API, for trying the loop without a model.' }
      : m.provider === 'reference-flawed'
        ? { label: 'Model: reference-flawed', description: 'scripted, seeded mistakes', tooltip: 'The reference policy with seeded mistakes (NameErrors, wrong yaw, premature completion...): a fixture that gives failure views and retry diffs something to show offline. Not an LLM; its rates say nothing about language models.' }
        : m.provider === 'openai'
          ? { label: `Model: ${m.name}`, description: m.baseUrl, tooltip: `OpenAI-compatible endpoint ${m.baseUrl}. The API key is kept in SecretStorage ("Waypoint: Set API Key").` }
          : { label: 'Model: VS Code chat model', description: [m.vscodeLm.vendor, m.vscodeLm.family].filter(Boolean).join('/') || 'any', tooltip: 'A chat model from VS Code\'s Language Model API (vscode.lm); no API key needed.' };
  lines.push({ id: 'model', ...model, icon: 'sparkle' });
  if (!ctx.trusted) lines.push({ id: 'trust', label: 'Restricted Mode', description: 'no runs', tooltip: 'This workspace is not trusted: Waypoint runs no generated code and starts no simulator. Traces can still be opened.', icon: 'shield' });
  const live = ctx.liveRuns.size;
  if (live > 0) lines.push({ id: 'live', label: `${live} run${live === 1 ? '' : 's'} in progress`, description: '', tooltip: 'Cancel from the progress notification or with "Waypoint: Cancel Live Runs".', icon: 'sync~spin' });
  return lines;
}

export class SimulatorTreeProvider implements vscode.TreeDataProvider<StatusLine> {
  private readonly emitter = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly ctx: Ctx) {}

  refresh(): void {
    this.emitter.fire(undefined);
  }

  getChildren(node?: StatusLine): StatusLine[] {
    return node ? [] : simulatorStatusLines(this.ctx);
  }

  getTreeItem(line: StatusLine): vscode.TreeItem {
    const item = new vscode.TreeItem(line.label, vscode.TreeItemCollapsibleState.None);
    Object.assign(item, {
      id: line.id,
      description: line.description,
      tooltip: line.tooltip,
      iconPath: new vscode.ThemeIcon(line.icon),
      command: { command: 'workbench.action.openSettings', title: 'Open Settings', arguments: [line.id === 'model' ? 'waypoint.model' : 'waypoint.simulator'] },
    });
    return item;
  }
}

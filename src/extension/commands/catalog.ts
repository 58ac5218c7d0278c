// Every command the extension registers (as `waypoint.<name>`), with its palette title and what it needs (pure,
// so a test checks package.json's contributes.commands against it).
import type { Requirement } from '../commandGate.js';

export interface CommandMeta {
  title: string;
  needs?: Requirement[];
  /** Registered but not built yet: invoking it says why. */
  unavailable?: string;
  icon?: string;
}

export const COMMAND_CATALOG = {
  runLiveTest: { title: 'Run Live Test', needs: ['folder', 'trust'], icon: '$(play)' },
  runWithHuman: { title: "Run Live Test with a Human in a Robot's Seat…", needs: ['folder', 'trust'], icon: '$(person)' },
  debugLiveTest: { title: 'Debug Live Test', needs: ['folder', 'trust'], icon: '$(debug-alt)' },
  cancelLiveRuns: { title: 'Cancel Live Runs', icon: '$(debug-stop)' },
  openRun: { title: 'Open Run…', icon: '$(go-to-file)' },
  deleteRun: { title: 'Delete Run', needs: ['folder'], icon: '$(trash)' },
  exportRun: { title: 'Export Run…', icon: '$(export)' },
  refreshRuns: { title: 'Refresh Runs', icon: '$(refresh)' },
  refreshAgents: { title: 'Refresh Agents', icon: '$(refresh)' },
  toggleAblation: { title: 'Toggle Ablation', needs: ['folder'] },
  selectVariant: { title: 'Select Active Variant…', needs: ['folder'], icon: '$(beaker)' },
  overridePrompt: { title: 'Copy Prompt to Workspace', needs: ['folder'], icon: '$(copy)' },
  previewPrompt: { title: 'Preview Prompt…', icon: '$(open-preview)' },
  compareOnOff: { title: 'Compare Ablation On/Off', needs: ['folder', 'trust'] },
  openSweep: { title: 'Open Sweep Comparison…', needs: ['folder'], icon: '$(table)' },
  setApiKey: { title: 'Set API Key…', icon: '$(key)' },
  checkModelEndpoint: { title: 'Check Model Endpoint', icon: '$(pulse)' },
  clearApiKey: { title: 'Clear API Key' },
  restartLanguageServer: { title: 'Restart Language Server' },
  showActivationTime: { title: 'Show Activation Time' },
  showOutput: { title: 'Show Output' },
  openExampleWorkspace: { title: 'Open Example Workspace…', icon: '$(folder-library)' },
  openRunAtTurn: { title: 'Open Run at the Failing Turn', icon: '$(go-to-file)' },
} as const satisfies Record<string, CommandMeta>;

export type CommandName = keyof typeof COMMAND_CATALOG;

export const COMMAND_PREFIX = 'waypoint.';
export const COMMAND_CATEGORY = 'Waypoint';

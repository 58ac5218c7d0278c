// The `waypoint.*` settings as a typed object (rust-analyzer's config.ts): read once, re-read on change, with the
// keys whose change needs the language server restarted. Parsing and validation are in settings.ts (pure).
import * as vscode from 'vscode';
import { changedKeys, parseSettings, RESTART_SERVER_KEYS, type SettingKey, type SettingsIssue, type WaypointSettings } from './settings.js';

export interface ConfigChange {
  /** Keys relative to `waypoint`, e.g. "model.provider". */
  changed: string[];
  needsServerRestart: boolean;
}

export class Config implements vscode.Disposable {
  private current: WaypointSettings;
  private currentIssues: SettingsIssue[];
  private readonly emitter = new vscode.EventEmitter<ConfigChange>();
  readonly onDidChange = this.emitter.event;
  private readonly sub: vscode.Disposable;

  constructor() {
    ({ settings: this.current, issues: this.currentIssues } = Config.read());
    this.sub = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('waypoint')) return;
      const before = this.current;
      ({ settings: this.current, issues: this.currentIssues } = Config.read());
      const changed = changedKeys(before, this.current);
      if (changed.length === 0 && this.currentIssues.length === 0) return;
      this.emitter.fire({ changed, needsServerRestart: changed.some((k) => (RESTART_SERVER_KEYS as readonly string[]).includes(k)) });
    });
  }

  static read(): { settings: WaypointSettings; issues: SettingsIssue[] } {
    const section = vscode.workspace.getConfiguration('waypoint');
    return parseSettings((key: SettingKey) => section.get(key));
  }

  get settings(): WaypointSettings {
    return this.current;
  }

  get issues(): readonly SettingsIssue[] {
    return this.currentIssues;
  }

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }
}

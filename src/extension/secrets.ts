// API keys live only in VS Code's SecretStorage (the OS keychain), one per endpoint origin; never in settings,
// traces or logs. A run hands the key to the model client over the run child's IPC channel.
import * as vscode from 'vscode';
import { apiKeySecretName, isLoopbackUrl } from './settings.js';

export class ApiKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(baseUrl: string): Thenable<string | undefined> {
    return this.secrets.get(apiKeySecretName(baseUrl));
  }

  async set(baseUrl: string, key: string): Promise<void> {
    await this.secrets.store(apiKeySecretName(baseUrl), key);
  }

  async clear(baseUrl: string): Promise<void> {
    await this.secrets.delete(apiKeySecretName(baseUrl));
  }

  /** Asks for a key in a password box and stores it; undefined when the user cancels. */
  async prompt(baseUrl: string, reason?: string): Promise<string | undefined> {
    const key = await vscode.window.showInputBox({
      title: 'Waypoint: API key',
      prompt: `${reason ? `${reason} ` : ''}API key for ${safeOrigin(baseUrl)} (stored in the OS keychain through VS Code's SecretStorage, never in settings or traces)`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? 'Enter a key, or press Escape to cancel' : /\s/.test(v.trim()) ? 'A key has no spaces' : undefined),
    });
    if (key === undefined) return undefined;
    await this.set(baseUrl, key.trim());
    return key.trim();
  }

  /**
   * The key for a run against `baseUrl`: stored, else asked for. A loopback server (Ollama, vLLM, LM Studio on
   * this machine) may need none, so a missing key there is not asked for.
   */
  async forRun(baseUrl: string): Promise<{ key?: string; cancelled: boolean }> {
    const stored = await this.get(baseUrl);
    if (stored) return { key: stored, cancelled: false };
    if (isLoopbackUrl(baseUrl)) return { cancelled: false };
    const typed = await this.prompt(baseUrl, 'No API key is stored for this endpoint.');
    return typed ? { key: typed, cancelled: false } : { cancelled: true };
  }
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

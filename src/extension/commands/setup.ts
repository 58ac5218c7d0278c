// Setup commands: API key in SecretStorage, activation time, output, language server restart.
import * as vscode from 'vscode';
import type { ActivationTimes, Ctx } from '../ctx.js';

/**
 * Stores the key for an endpoint: the argument when given (scripts, tests), else typed in a password box. Keys are
 * kept per origin: the endpoint is `baseUrlArg` when given, else the configured waypoint.model.baseUrl.
 */
export async function setApiKey(ctx: Ctx, keyArg?: unknown, baseUrlArg?: unknown): Promise<boolean> {
  const url = typeof baseUrlArg === 'string' && /^https?:\/\//.test(baseUrlArg) ? baseUrlArg : ctx.config.settings.model.baseUrl;
  if (typeof keyArg === 'string' && keyArg.trim()) {
    if (/\s/.test(keyArg.trim())) throw new Error('an API key has no spaces');
    await ctx.keys.set(url, keyArg.trim());
    return true;
  }
  const key = await ctx.keys.prompt(url);
  if (key) void vscode.window.showInformationMessage(`Waypoint: API key for ${new URL(url).origin} stored in SecretStorage.`);
  return key !== undefined;
}

export async function clearApiKey(ctx: Ctx, baseUrlArg?: unknown): Promise<void> {
  const url = typeof baseUrlArg === 'string' && /^https?:\/\//.test(baseUrlArg) ? baseUrlArg : ctx.config.settings.model.baseUrl;
  await ctx.keys.clear(url);
  void vscode.window.showInformationMessage(`Waypoint: API key for ${new URL(url).origin} removed.`);
}

/** Returns the activation timings (the e2e suite reads them through executeCommand) and logs them. */
export function showActivationTime(ctx: Ctx, options?: { silent?: boolean }): ActivationTimes | undefined {
  const t = ctx.activation;
  if (t && !options?.silent) void vscode.window.showInformationMessage(`Waypoint activated in ${t.activateMs.toFixed(1)} ms.`);
  return t;
}

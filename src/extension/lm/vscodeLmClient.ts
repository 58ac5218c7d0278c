// A ModelClient over VS Code's Language Model API (vscode.lm), so a user with a chat model in VS Code needs no
// API key. Errors are values with the closed kinds of core/llm/client.ts.
import * as vscode from 'vscode';
import type { ModelClient, ModelRequest, ModelResult } from '../../core/llm/client.js';

export interface LmSelector {
  vendor?: string;
  family?: string;
}

export class VscodeLmClient implements ModelClient {
  readonly id: string;

  constructor(private readonly selector: LmSelector) {
    this.id = `vscode-lm:${selector.vendor ?? '*'}/${selector.family ?? '*'}`;
  }

  /** The chat models this selector matches now (empty when none is installed or signed in). */
  models(): Thenable<vscode.LanguageModelChat[]> {
    return vscode.lm.selectChatModels({ ...this.selector });
  }

  async complete(request: ModelRequest, options?: { signal?: AbortSignal }): Promise<ModelResult> {
    const t0 = performance.now();
    const fail = (kind: Extract<ModelResult, { ok: false }>['error']['kind'], message: string): ModelResult => ({ ok: false, error: { kind, message }, latencyMs: performance.now() - t0, cached: false, attempts: 1 });
    if (options?.signal?.aborted) return fail('cancelled', 'model call cancelled before it started');
    const [model] = await this.models();
    if (!model) return fail('bad_request', `no VS Code chat model matches ${JSON.stringify(this.selector)}: install and sign in to a chat model extension, or change waypoint.model.vscodeLm`);
    // The Language Model API has user and assistant messages only: system text goes first as a user message.
    const messages = request.messages.map((m) =>
      m.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant(m.content, m.name) : vscode.LanguageModelChatMessage.User(m.role === 'system' ? `[system]\n${m.content}` : m.content, m.name),
    );
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    options?.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const modelOptions: Record<string, unknown> = {};
      if (request.temperature !== undefined) modelOptions.temperature = request.temperature;
      if (request.maxTokens !== undefined) modelOptions.max_tokens = request.maxTokens;
      const response = await model.sendRequest(messages, { justification: 'Waypoint runs your robot-agent prompts in a live test episode.', modelOptions }, cts.token);
      let text = '';
      for await (const chunk of response.text) text += chunk;
      if (!text) return fail('bad_response', `${model.name} returned an empty answer`);
      return { ok: true, text, latencyMs: performance.now() - t0, cached: false, attempts: 1 };
    } catch (err) {
      if (options?.signal?.aborted || cts.token.isCancellationRequested) return fail('cancelled', 'model call cancelled');
      if (err instanceof vscode.LanguageModelError) {
        const why = `${model.name} (${model.vendor}): ${err.message}`;
        if (err.code === vscode.LanguageModelError.NoPermissions.name) return fail('auth', `no permission to use ${why}`);
        if (err.code === vscode.LanguageModelError.Blocked.name) return fail('rate_limit', `blocked from ${why}`);
        if (err.code === vscode.LanguageModelError.NotFound.name) return fail('bad_request', `model not found: ${why}`);
        return fail('server', `chat model error: ${why}`);
      }
      return fail('network', `chat model request failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      options?.signal?.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }
}

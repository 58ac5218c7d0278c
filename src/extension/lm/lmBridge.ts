// Lets a run child use a VS Code chat model: one loopback proxy per extension host (started on first use and kept,
// so its URL, which is part of the response-cache key, stays the same across re-runs in a session), forwarding to
// the VscodeLmClient for the current selector.
import type * as vscode from 'vscode';
import type { ModelClient } from '../../core/llm/client.js';
import type { ModelProxy } from './modelProxy.js';
import { VscodeLmClient, type LmSelector } from './vscodeLmClient.js';

export interface LmEndpoint {
  baseUrl: string;
  token: string;
  /** Model name the child sends (shown in the trace's model label). */
  model: string;
}

export class LmBridge implements vscode.Disposable {
  private proxy: Promise<ModelProxy> | undefined;
  private client: VscodeLmClient | undefined;

  constructor(private readonly log: (line: string) => void) {}

  /** Resolves the selector to a model now (so a missing model is reported before the run starts). */
  async endpoint(selector: LmSelector): Promise<LmEndpoint> {
    const client = new VscodeLmClient(selector);
    const [model] = await client.models();
    if (!model) throw new Error(`no VS Code chat model matches ${JSON.stringify(selector)}: install and sign in to a chat model extension (e.g. GitHub Copilot Chat), or set waypoint.model.provider to "openai" or "reference"`);
    this.client = client;
    const delegate: ModelClient = { id: 'vscode-lm', complete: (r, o) => (this.client ?? client).complete(r, o) };
    this.proxy ??= import('./modelProxy.js').then((m) => m.startModelProxy(delegate, { log: this.log }));
    const proxy = await this.proxy;
    return { baseUrl: proxy.baseUrl, token: proxy.token, model: `vscode-lm/${model.vendor}/${model.family}` };
  }

  dispose(): void {
    void this.proxy?.then((p) => p.close());
    this.proxy = undefined;
  }
}

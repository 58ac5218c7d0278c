// A ModelClient for unit tests: answers from a list of results (or a function), recording every request.
import type { ModelClient, ModelError, ModelRequest, ModelResult } from '../../../../../src/core/llm/client.js';
import type { Clock } from '../../../../../src/core/host.js';

export type Scripted = string | ModelError | (() => Promise<ModelResult>);

export class ScriptedClient implements ModelClient {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly script: Scripted[], readonly id = 'scripted') {}
  async complete(request: ModelRequest): Promise<ModelResult> {
    this.requests.push(request);
    const next = this.script.shift();
    if (next === undefined) throw new Error('ScriptedClient: script exhausted');
    if (typeof next === 'function') return next();
    if (typeof next === 'string') return { ok: true, text: next, latencyMs: 10, cached: false, attempts: 1 };
    return { ok: false, error: next, latencyMs: 10, cached: false, attempts: 1 };
  }
}

/** A clock that advances 5 ms per nowMs() read and reports a fixed wall time. */
export function steppingClock(isoNow = '2025-01-01T00:00:00.000Z'): Clock {
  let t = 0;
  return { nowMs: () => (t += 5), isoNow: () => isoNow };
}

export const msg = (system: string, user: string) => [
  { role: 'system' as const, content: system },
  { role: 'user' as const, content: user },
];

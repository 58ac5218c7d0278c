// One interface for every model: OpenAI-compatible HTTP, the reference model (served over HTTP too),
// replay of recorded traces, and (in the extension) VS Code's Language Model API.
// Calls resolve to values; only bugs throw (so one failed call never crashes a sweep).
import type { ChatMessage, ModelErrorKind, TokenUsage } from '../../protocol/trace.js';

/**
 * Who is asking, sent beside the messages (never inside them): the reference model answers per role from it, the
 * replay client looks answers up by it, and a real model never sees it.
 */
export interface RequestMeta {
  arch: string;
  role: string;
  /** The robot / agent the role speaks for (RoCo's Alice, a LLaMAR agent). */
  agent?: string;
  callId?: string;
}

export interface ModelRequest {
  model: string;
  meta?: RequestMeta;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  seed?: number;
  /** Distinguishes repeats of the same request so repeated episodes do not replay one cached answer. */
  repeatIndex?: number;
  /** Distinguishes independent samples within one episode (RoleCallOptions.sample); part of the cache key when > 0. */
  sampleIndex?: number;
}

export interface ModelError {
  kind: ModelErrorKind;
  /** One line, cause first; the provider's own message is kept for bad_request/auth. Never contains the API key. */
  message: string;
  status?: number;
  /** From the provider's Retry-After / retry-after-ms header, when it sent one. Used by withRetries. */
  retryAfterMs?: number;
  /** Retrying cannot help (nothing listens on a loopback port; a port fetch refuses to use): withRetries returns at once. */
  permanent?: boolean;
}

export type ModelResult =
  /** `human`: a person typed the answer in place of the model (the debugger's `send`). */
  | { ok: true; text: string; usage?: TokenUsage; latencyMs: number; cached: boolean; attempts: number; human?: boolean }
  | { ok: false; error: ModelError; latencyMs: number; cached: false; attempts: number };

export interface ModelClient {
  /** Stable id, e.g. "openai:gpt-4o@https://api.openai.com/v1" or "reference". */
  readonly id: string;
  complete(request: ModelRequest, options?: { signal?: AbortSignal }): Promise<ModelResult>;
  close?(): Promise<void>;
}

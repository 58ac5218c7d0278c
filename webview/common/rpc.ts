// The view side of the host <-> view contract: every incoming message is validated with the HostToView schema
// (invalid ones are ignored and reported to the host); requests carry a requestId and settle on the matching
// answer (`response`, or `trajectoryWindow` for a window request), or fail after a timeout.
import { parseHostToView, VIEW_REQUEST_TIMEOUT_MS, type TrajectoryWindowMessage, type ViewMessage, type ViewToHost } from '../../src/protocol/webview.js';
import type { WebviewApi } from './vscode.js';

type Reply = Extract<ViewMessage, { type: 'response' | 'trajectoryWindow' }>;
type Incoming = Exclude<ViewMessage, Reply>;
type RequestBody = Extract<ViewToHost, { requestId: string }> extends infer R ? (R extends unknown ? Omit<R, 'requestId'> : never) : never;
/** What a request resolves to: the window for a trajectoryWindow request, the plain response otherwise. */
type ReplyTo<B> = B extends { type: 'trajectoryWindow' } ? TrajectoryWindowMessage : Extract<Reply, { type: 'response' }>;

export interface Channel {
  post(message: ViewToHost): void;
  /** Sends a request and resolves with the host's answer when it is ok; rejects with the host's error or on timeout. */
  request<B extends RequestBody>(body: B, timeoutMs?: number): Promise<ReplyTo<B>>;
  readonly invalidCount: number;
  /** Time spent validating the last valid message (ms), for the benchmark. */
  readonly lastValidateMs: number;
  dispose(): void;
}

export function openChannel(api: WebviewApi<unknown>, onMessage: (m: Incoming) => void, onInvalid: (why: string) => void): Channel {
  const pending = new Map<string, { resolve: (reply: Reply) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  let nextId = 1;
  let invalid = 0;
  let lastValidateMs = 0;
  const listener = (ev: MessageEvent) => {
    // Monaco schedules its own work with window.postMessage({vscodeScheduleAsyncWork}); not for us.
    if (isSchedulerTick(ev.data)) return;
    const t0 = performance.now();
    const parsed = parseHostToView(ev.data);
    lastValidateMs = performance.now() - t0;
    if (!parsed.success) {
      invalid++;
      const data = ev.data as { type?: unknown } | null;
      const receivedType = data && typeof data === 'object' && typeof data.type === 'string' ? data.type.slice(0, 100) : undefined;
      const why = `ignored an invalid ${receivedType ? `'${receivedType}' ` : ''}message: ${parsed.error}`;
      onInvalid(why);
      api.postMessage({ type: 'invalidMessage', receivedType, message: why.slice(0, 2000) });
      return;
    }
    const m = parsed.data;
    if (m.type === 'response' || m.type === 'trajectoryWindow') {
      const p = pending.get(m.requestId);
      if (!p) return;
      pending.delete(m.requestId);
      clearTimeout(p.timer);
      if (m.ok) p.resolve(m);
      else p.reject(new Error(m.error ?? 'the host could not complete the request'));
      return;
    }
    onMessage(m);
  };
  window.addEventListener('message', listener);
  return {
    post: (message) => api.postMessage(message),
    request<B extends RequestBody>(body: B, timeoutMs = VIEW_REQUEST_TIMEOUT_MS): Promise<ReplyTo<B>> {
      const requestId = `r${nextId++}`;
      return new Promise<ReplyTo<B>>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(requestId);
          reject(new Error(`no answer from the host to '${body.type}' in ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(requestId, { resolve: (reply) => resolve(reply as ReplyTo<B>), reject, timer });
        api.postMessage({ ...body, requestId } as ViewToHost);
      });
    },
    get invalidCount() {
      return invalid;
    },
    get lastValidateMs() {
      return lastValidateMs;
    },
    dispose() {
      window.removeEventListener('message', listener);
      for (const p of pending.values()) clearTimeout(p.timer);
      pending.clear();
    },
  };
}

function isSchedulerTick(data: unknown): boolean {
  return typeof data === 'object' && data !== null && 'vscodeScheduleAsyncWork' in data && Object.keys(data).length === 1;
}

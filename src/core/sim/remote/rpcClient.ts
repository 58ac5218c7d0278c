// The client half of the simulator protocol: numbered requests with a timeout each, answers matched by id and
// validated against src/protocol/simulator.ts. Whatever goes wrong (the server dies, never answers, or writes
// something that is not JSON-RPC), every pending call rejects with one clear line; nothing hangs.
import {
  RpcErrorObject,
  SIM_METHODS,
  SIM_NOTIFICATIONS,
  SimErrorCode,
  SimErrorData,
  type SimMethod,
  type SimNotification,
  type SimParams,
  type SimResult,
} from '../../../protocol/simulator.js';
import { snippet, type MessageTransport } from './transport.js';

/** An error the server answered with (code from SimErrorCode, data names the parameter or task). */
export class SimulatorRpcError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: SimErrorData,
  ) {
    super(message);
    this.name = 'SimulatorRpcError';
  }
}

export interface RpcClientOptions {
  /** Seconds each request may take before it rejects; default 30. */
  timeoutSecs?: number;
  /** Per-method override, e.g. { act: 120 } for slow real-time simulators. */
  methodTimeoutSecs?: Partial<Record<SimMethod, number>>;
}

type NotificationListener = <N extends SimNotification>(method: N, params: unknown) => void;

interface Pending {
  what: string;
  method: SimMethod;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class RpcClient {
  /** Used in messages; RemoteSimulator sets it to the simulator's own name after initialize. */
  name: string;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly timedOut = new Set<number>();
  private brokenReason: string | undefined;
  private notificationListener: NotificationListener = () => {};
  private warningListener: (message: string) => void = () => {};

  constructor(
    private readonly transport: MessageTransport,
    private readonly options: RpcClientOptions = {},
  ) {
    this.name = transport.label;
    transport.onMessage((m) => this.onMessage(m));
    transport.onClose((reason) => this.fail(`disconnected`, reason));
  }

  /** Validated `trajectory` / `log` notifications. */
  onNotification(listener: NotificationListener): void {
    this.notificationListener = listener;
  }
  /** Protocol oddities that do not fail a call (a late answer after a timeout, an invalid notification). */
  onWarning(listener: (message: string) => void): void {
    this.warningListener = listener;
  }

  get disconnected(): boolean {
    return this.brokenReason !== undefined;
  }

  /** Sends `method` and resolves with its validated result. `what` names the call in messages, e.g. "act(open_gripper)". */
  request<M extends SimMethod>(method: M, params: SimParams<M>, what: string = method): Promise<SimResult<M>> {
    if (this.brokenReason !== undefined) {
      return Promise.reject(new Error(`simulator '${this.name}' is disconnected (${this.brokenReason}); cannot ${what}`));
    }
    const id = this.nextId++;
    const timeoutSecs = this.options.methodTimeoutSecs?.[method] ?? this.options.timeoutSecs ?? 30;
    return new Promise<SimResult<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.timedOut.add(id);
        reject(new Error(`simulator '${this.name}' did not answer ${what} within ${timeoutSecs} s`));
      }, timeoutSecs * 1000);
      this.pending.set(id, { what, method, resolve: resolve as (v: unknown) => void, reject, timer });
      try {
        this.transport.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      } catch (e) {
        this.settle(id)?.reject(new Error(`simulator '${this.name}' could not be sent ${what}: ${(e as Error).message}`));
      }
    });
  }

  async close(): Promise<void> {
    this.fail('disconnected', 'closed by the client');
    await this.transport.close();
  }

  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    clearTimeout(p.timer);
    this.pending.delete(id);
    return p;
  }

  /** Ends the connection: every pending call rejects with "<verb> during <call>: <reason>". */
  private fail(verb: string, reason: string): void {
    if (this.brokenReason === undefined) this.brokenReason = reason;
    for (const id of [...this.pending.keys()]) {
      const p = this.settle(id)!;
      p.reject(new Error(`simulator '${this.name}' ${verb} during ${p.what}: ${reason}`));
    }
  }

  private malformed(detail: string, raw: string): void {
    const reason = `${detail}: '${snippet(raw)}'`;
    this.fail('sent malformed JSON-RPC', reason);
    this.brokenReason = `it sent malformed JSON-RPC: ${reason}`;
    // A stream that carried garbage cannot be trusted to be in sync again.
    void this.transport.close().catch(() => {});
  }

  private onMessage(raw: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(raw);
    } catch {
      return this.malformed('not JSON', raw);
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg) || (msg as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      return this.malformed('not a JSON-RPC 2.0 object', raw);
    }
    const m = msg as Record<string, unknown>;
    if (typeof m.method === 'string') {
      if (m.id !== undefined) {
        // Servers may not call the client in this protocol.
        this.transport.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: SimErrorCode.METHOD_NOT_FOUND, message: `the client serves no methods (${m.method})` } }));
        return;
      }
      return this.onNotificationMessage(m.method, m.params);
    }
    if (!('result' in m) && !('error' in m)) return this.malformed('neither request, notification nor response', raw);
    if (m.id === null || m.id === undefined) {
      const err = RpcErrorObject.safeParse(m.error);
      return this.malformed(`error without a request id${err.success ? ` (${err.data.message})` : ''}`, raw);
    }
    if (typeof m.id !== 'number' || !this.pending.has(m.id)) {
      if (typeof m.id === 'number' && this.timedOut.delete(m.id)) this.warningListener(`simulator '${this.name}' answered request ${m.id} after its timeout; answer ignored`);
      else this.warningListener(`simulator '${this.name}' answered unknown request id ${JSON.stringify(m.id)}; answer ignored`);
      return;
    }
    const p = this.settle(m.id)!;
    if ('error' in m) {
      const err = RpcErrorObject.safeParse(m.error);
      if (!err.success) return p.reject(new Error(`simulator '${this.name}' sent a malformed error for ${p.what}: '${snippet(raw)}'`));
      const data = SimErrorData.safeParse(err.data.data);
      p.reject(new SimulatorRpcError(`simulator '${this.name}' ${p.what} failed: ${err.data.message}`, err.data.code, data.success ? data.data : undefined));
      return;
    }
    const parsed = SIM_METHODS[p.method].result.safeParse(m.result);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length ? issue.path.map(String).join('.') : 'result';
      p.reject(new Error(`simulator '${this.name}' sent an invalid ${p.method} result: ${where}: ${issue?.message ?? 'invalid'}`));
      return;
    }
    p.resolve(parsed.data);
  }

  private onNotificationMessage(method: string, params: unknown): void {
    if (!(method in SIM_NOTIFICATIONS)) {
      this.warningListener(`simulator '${this.name}' sent unknown notification '${method}'; ignored`);
      return;
    }
    const n = method as SimNotification;
    const parsed = SIM_NOTIFICATIONS[n].safeParse(params);
    if (!parsed.success) {
      this.warningListener(`simulator '${this.name}' sent an invalid '${method}' notification; ignored`);
      return;
    }
    this.notificationListener(n, parsed.data);
  }
}

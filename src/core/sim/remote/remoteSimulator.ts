// A Simulator on the other end of the simulator protocol (docs/simulator-protocol.md). The engine uses it like the
// embedded one; failures of the connection become rejected calls with one clear line, which the engine records
// as a failed step.
import {
  SIM_PROTOCOL_VERSION,
  type Capabilities,
  type ExecuteResult,
  type LogNotification,
  type SimMethod,
  type SimParams,
  type SimResult,
} from '../../../protocol/simulator.js';
import type { TrajectorySample } from '../../../protocol/trace.js';
import type { AgentAction } from '../../../protocol/trace.js';
import type { ApiCallResult, JointActResult, Observation, ResetOptions, ResetOutcome, SceneGeometryInfo, SimSnapshot, Simulator, TaskCheckResult, TaskInfo } from '../simulator.js';
import { ChildProcessTransport } from './childProcessTransport.js';
import { RpcClient, SimulatorRpcError, type RpcClientOptions } from './rpcClient.js';
import type { MessageTransport } from './transport.js';
import { WebSocketTransport } from './webSocketTransport.js';

export interface RemoteSimulatorOptions extends RpcClientOptions {
  /** Sent in initialize. */
  client?: { name: string; version?: string };
  /** Server `log` notifications and, for stdio, each stderr line of the child (level "info"). */
  onLog?: (log: LogNotification) => void;
  /** Live samples from `trajectory` notifications (display only; drainTrajectory is authoritative). */
  onTrajectory?: (rateHz: number, samples: TrajectorySample[]) => void;
  /** Working directory of a stdio child. */
  cwd?: string;
  /** Environment of a stdio child (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

/** Snapshot kind of remote snapshots; `data` is the server's SnapshotRef. */
const REMOTE_SNAPSHOT_KIND = 'remote';

export class RemoteSimulator implements Simulator {
  private simTime = 0;

  private constructor(
    private readonly rpc: RpcClient,
    readonly capabilities: Capabilities,
    private readonly onLog?: (log: LogNotification) => void,
  ) {}

  /**
   * Connects to `spec`: "stdio:<command line>" starts the command and speaks over its stdin/stdout;
   * "ws://host:port" (or wss://) opens a WebSocket. Resolves after a successful initialize.
   */
  static async connect(spec: string, options: RemoteSimulatorOptions = {}): Promise<RemoteSimulator> {
    let transport: MessageTransport;
    if (spec.startsWith('stdio:')) {
      transport = ChildProcessTransport.spawn(spec.slice('stdio:'.length).trim(), {
        cwd: options.cwd,
        env: options.env,
        onStderr: (line) => options.onLog?.({ level: 'info', message: line }),
      });
    } else if (/^wss?:\/\//.test(spec)) {
      transport = await WebSocketTransport.connect(spec, options.methodTimeoutSecs?.initialize ?? options.timeoutSecs ?? 30);
    } else {
      throw new Error(`unknown simulator spec '${spec}': expected "stdio:<command line>" or "ws://host:port"`);
    }
    return RemoteSimulator.over(transport, options);
  }

  /** Initializes over an already open transport (in-process pairs, tests). Closes the transport if initialize fails. */
  static async over(transport: MessageTransport, options: RemoteSimulatorOptions = {}): Promise<RemoteSimulator> {
    // close is best effort: a hung server must not keep the engine waiting the full request timeout.
    const rpc = new RpcClient(transport, { ...options, methodTimeoutSecs: { close: Math.min(5, options.timeoutSecs ?? 30), ...options.methodTimeoutSecs } });
    rpc.onNotification((method, params) => {
      if (method === 'log') options.onLog?.(params as LogNotification);
      else if (method === 'trajectory') {
        const t = params as { rateHz: number; samples: TrajectorySample[] };
        options.onTrajectory?.(t.rateHz, t.samples);
      }
    });
    rpc.onWarning((message) => options.onLog?.({ level: 'warn', message }));
    let caps: Capabilities;
    try {
      caps = await rpc.request('initialize', { protocolVersion: SIM_PROTOCOL_VERSION, client: options.client ?? { name: 'waypoint' } });
    } catch (e) {
      await transport.close().catch(() => {});
      throw e;
    }
    if (caps.protocolVersion !== SIM_PROTOCOL_VERSION) {
      await transport.close().catch(() => {});
      throw new Error(`simulator '${caps.simulator.name}' speaks protocol version ${caps.protocolVersion}; Waypoint speaks ${SIM_PROTOCOL_VERSION}`);
    }
    rpc.name = caps.simulator.name;
    return new RemoteSimulator(rpc, caps, options.onLog);
  }

  get name(): string {
    return this.capabilities.simulator.name;
  }
  get version(): string | undefined {
    return this.capabilities.simulator.version;
  }
  get agentViews(): boolean {
    return this.capabilities.agentViews === true;
  }
  get disconnected(): boolean {
    return this.rpc.disconnected;
  }

  tasks(): TaskInfo[] {
    return this.capabilities.tasks;
  }

  async reset(taskId: string, seed: number, options?: ResetOptions): Promise<ResetOutcome> {
    const r = await this.rpc.request(
      'reset',
      { task: taskId, seed, ...(options?.api !== undefined ? { api: options.api } : {}), ...(options?.agents !== undefined ? { agents: options.agents } : {}) },
      `reset(${taskId})`,
    );
    this.simTime = r.simTimeSecs;
    return {
      task: r.task,
      observation: r.observation,
      api: r.api,
      workspace: r.workspace,
      ...(r.agents ? { agents: r.agents } : {}),
    };
  }

  async observe(agent?: string): Promise<Observation> {
    if (agent !== undefined && !this.capabilities.agentViews) throw new Error(`simulator '${this.name}' has no per-agent views (capabilities.agentViews)`);
    const r = await this.rpc.request('observe', agent === undefined ? {} : { agent });
    this.simTime = r.simTimeSecs;
    return { text: r.text, state: r.state, ...(r.images ? { images: r.images } : {}), ...(agent !== undefined ? { agent } : {}) };
  }

  async call(fn: string, args: unknown[]): Promise<ApiCallResult> {
    const r = await this.rpc.request('act', { fn, args }, `act(${fn})`);
    this.simTime = r.simTimeSecs;
    if (!r.ok) return { ok: false, error: r.error };
    const out: ApiCallResult = { ok: true };
    if (r.output !== undefined) out.output = r.output;
    if (r.collisions !== undefined) out.collisions = r.collisions;
    if (r.value !== undefined) out.value = r.value;
    if (r.metrics !== undefined) out.metrics = r.metrics;
    return out;
  }

  /** Present only on servers that announce `jointActions` (the engine then runs joint steps through it). */
  get act(): ((actions: AgentAction[]) => Promise<JointActResult>) | undefined {
    if (!this.capabilities.jointActions) return undefined;
    return async (actions) => {
      const r = await this.rpc.request('act_jointly', { actions }, `act_jointly(${actions.map((a) => `${a.agent}:${a.name}`).join(', ')})`);
      this.simTime = r.simTimeSecs;
      return { results: r.results, ...(r.collisions ? { collisions: r.collisions } : {}), ...(r.checks ? { checks: r.checks } : {}), ...(r.info ? { info: r.info } : {}) };
    };
  }

  /** Optional capability: the simulator runs the code itself (capabilities.codeLanguages lists the languages). */
  async execute(code: string, language: string, timeoutSecs?: number): Promise<ExecuteResult> {
    const r = await this.rpc.request('execute', { code, language, ...(timeoutSecs !== undefined ? { timeoutSecs } : {}) }, `execute(${language})`);
    this.simTime = r.simTimeSecs;
    return r;
  }

  check(): Promise<TaskCheckResult> {
    return this.rpc.request('check', {});
  }

  drainTrajectory(): Promise<{ rateHz: number; samples: TrajectorySample[] }> {
    return this.rpc.request('drain_trajectory', {});
  }

  geometry(): Promise<SceneGeometryInfo> {
    return this.rpc.request('geometry', {});
  }

  simTimeSecs(): number {
    return this.simTime;
  }

  async snapshot(): Promise<SimSnapshot> {
    const ref = await this.rpc.request('snapshot', {});
    return { kind: REMOTE_SNAPSHOT_KIND, data: { simulator: this.name, ref } };
  }

  async restore(snapshot: SimSnapshot): Promise<void> {
    const data = snapshot.data as { simulator?: string; ref?: { kind: string; id?: string; blob?: unknown } } | undefined;
    if (snapshot.kind !== REMOTE_SNAPSHOT_KIND || !data?.ref || data.simulator !== this.name) {
      throw new Error(`simulator '${this.name}' cannot restore a snapshot of kind '${snapshot.kind}' made by ${data?.simulator ? `'${data.simulator}'` : 'another simulator'}`);
    }
    const r = await this.rpc.request('restore', data.ref);
    this.simTime = r.simTimeSecs;
  }

  /** Asks the server to close (best effort, short timeout), then ends the connection or child process. */
  async close(): Promise<void> {
    if (!this.rpc.disconnected) {
      // Best effort: the server may already be gone; closing the transport below is what matters.
      await this.rpc.request('close', {}).catch((e: Error) => this.onLog?.({ level: 'warn', message: e.message }));
    }
    await this.rpc.close();
  }

  /** Low-level access for conformance tests and extensions: one request, validated result. */
  request<M extends SimMethod>(method: M, params: SimParams<M>, what?: string): Promise<SimResult<M>> {
    return this.rpc.request(method, params, what);
  }
}

export { SimulatorRpcError };

// Serves any Simulator over the simulator protocol on one transport (one client, one simulator). Requests are
// handled one at a time in arrival order, since a simulator is a single stateful world. Params are validated
// with the schemas in src/protocol/simulator.ts; results are validated too, so a buggy simulator (a NaN, a
// missing field) answers INTERNAL_ERROR naming the field instead of sending something the client rejects.
import type * as z from 'zod';
import {
  METHODS_NEEDING_EPISODE,
  SIM_METHODS,
  SIM_PROTOCOL_VERSION,
  SimErrorCode,
  describeParamIssue,
  type ApiSet,
  type Capabilities,
  type ExecuteResult,
  type RobotInfo,
  type SimErrorData,
  type SimMethod,
  type SimNotification,
  type SnapshotRef,
} from '../../../protocol/simulator.js';
import { SimParamError, type SimSnapshot, type Simulator } from '../simulator.js';
import type { MessageTransport } from '../remote/transport.js';

/** A simulator that can also run agent code itself (the optional `execute` capability). */
export interface CodeExecutingSimulator extends Simulator {
  readonly codeLanguages: readonly string[];
  execute(code: string, language: string, timeoutSecs?: number): Promise<Omit<ExecuteResult, 'simTimeSecs'>>;
}

export interface ServeOptions {
  robots?: RobotInfo[];
  /** API sets announced in initialize; when given, reset's `api` must be one of their ids. */
  apis?: ApiSet[];
  /** "id" (default) keeps snapshots in this process; "blob" sends the snapshot data (must be JSON); "none". */
  snapshots?: 'id' | 'blob' | 'none';
  /** Oldest id-snapshots are dropped beyond this many (default 256). */
  maxSnapshots?: number;
  /** Whether the simulator is closed when the client sends `close` or disconnects (default true). */
  closeSimulator?: boolean;
}

export interface SimulatorServer {
  /** Resolves with the reason once the connection ended and the simulator was closed. */
  readonly done: Promise<string>;
  /** Sends a `trajectory` or `log` notification to the client. */
  notify(method: SimNotification, params: unknown): void;
  close(): Promise<void>;
}

class ServeError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: SimErrorData,
  ) {
    super(message);
  }
}

function isCodeExecuting(sim: Simulator): sim is CodeExecutingSimulator {
  const s = sim as Partial<CodeExecutingSimulator>;
  return typeof s.execute === 'function' && Array.isArray(s.codeLanguages);
}

export function serveSimulator(sim: Simulator, transport: MessageTransport, options: ServeOptions = {}): SimulatorServer {
  const snapshotMode = options.snapshots ?? 'id';
  const maxSnapshots = options.maxSnapshots ?? 256;
  const snapshots = new Map<string, SimSnapshot>();
  let snapshotCounter = 0;
  let haveEpisode = false;
  let simClosed = false;
  let queue: Promise<void> = Promise.resolve();
  let resolveDone!: (reason: string) => void;
  const done = new Promise<string>((r) => (resolveDone = r));

  const closeSim = async (): Promise<void> => {
    if (simClosed || options.closeSimulator === false) return;
    simClosed = true;
    await sim.close();
  };

  const send = (message: object): void => {
    if (!transport.closed) transport.send(JSON.stringify({ jsonrpc: '2.0', ...message }));
  };

  const capabilities = (): Capabilities => ({
    protocolVersion: SIM_PROTOCOL_VERSION,
    simulator: { name: sim.name, ...(sim.version !== undefined ? { version: sim.version } : {}) },
    robots: options.robots ?? [],
    tasks: sim.tasks(),
    apis: options.apis ?? [],
    codeLanguages: isCodeExecuting(sim) ? [...sim.codeLanguages] : [],
    observationKinds: ['text', 'state'],
    snapshots: snapshotMode,
    streamsTrajectory: false,
    jointActions: typeof sim.act === 'function',
    agentViews: sim.agentViews === true,
  });

  const handlers: { [M in SimMethod]: (params: z.infer<(typeof SIM_METHODS)[M]['params']>) => Promise<unknown> } = {
    initialize: async () => capabilities(),
    reset: async (p) => {
      const known = sim.tasks().map((t) => t.id);
      if (!known.includes(p.task)) {
        throw new ServeError(SimErrorCode.UNKNOWN_TASK, `unknown task '${p.task}' (known: ${known.join(', ') || 'none'})`, { task: p.task, known });
      }
      if (p.api !== undefined && options.apis && !options.apis.some((a) => a.id === p.api)) {
        throw new ServeError(SimErrorCode.INVALID_PARAMS, `invalid params: api: unknown API set '${p.api}' (known: ${options.apis.map((a) => a.id).join(', ')})`, { param: 'api' });
      }
      const opts = { ...(p.api !== undefined ? { api: p.api } : {}), ...(p.agents !== undefined ? { agents: p.agents } : {}) };
      const r = await sim.reset(p.task, p.seed, Object.keys(opts).length > 0 ? opts : undefined);
      haveEpisode = true;
      snapshots.clear();
      return { ...r, simTimeSecs: sim.simTimeSecs() };
    },
    observe: async (p) => {
      if (p?.agent !== undefined && !sim.agentViews) throw new ServeError(SimErrorCode.UNSUPPORTED, `simulator '${sim.name}' has no per-agent views`, { param: 'agent' });
      const o = await sim.observe(p?.agent);
      return { text: o.text, state: o.state, simTimeSecs: sim.simTimeSecs() };
    },
    execute: async (p) => {
      if (!isCodeExecuting(sim)) throw new ServeError(SimErrorCode.UNSUPPORTED, `simulator '${sim.name}' does not run code (execute is an optional capability)`);
      if (!sim.codeLanguages.includes(p.language)) {
        throw new ServeError(SimErrorCode.UNSUPPORTED, `simulator '${sim.name}' does not run ${p.language} (runs: ${sim.codeLanguages.join(', ')})`, { param: 'language' });
      }
      return { ...(await sim.execute(p.code, p.language, p.timeoutSecs)), simTimeSecs: sim.simTimeSecs() };
    },
    act: async (p) => ({ ...(await sim.call(p.fn, p.args)), simTimeSecs: sim.simTimeSecs() }),
    act_jointly: async (p) => {
      if (!sim.act) throw new ServeError(SimErrorCode.UNSUPPORTED, `simulator '${sim.name}' does not run joint actions (act_jointly is an optional capability)`);
      return { ...(await sim.act(p.actions)), simTimeSecs: sim.simTimeSecs() };
    },
    check: () => sim.check(),
    drain_trajectory: () => sim.drainTrajectory(),
    geometry: () => sim.geometry(),
    snapshot: async (): Promise<SnapshotRef> => {
      if (snapshotMode === 'none') throw new ServeError(SimErrorCode.SNAPSHOT_UNSUPPORTED, `simulator '${sim.name}' does not support snapshots`);
      const s = await sim.snapshot();
      if (snapshotMode === 'blob') return { kind: s.kind, blob: s.data };
      const id = `snap-${++snapshotCounter}`;
      snapshots.set(id, s);
      if (snapshots.size > maxSnapshots) snapshots.delete(snapshots.keys().next().value!);
      return { kind: s.kind, id };
    },
    restore: async (p) => {
      if (snapshotMode === 'none') throw new ServeError(SimErrorCode.SNAPSHOT_UNSUPPORTED, `simulator '${sim.name}' does not support snapshots`);
      let s: SimSnapshot | undefined;
      if (p.id !== undefined) {
        s = snapshots.get(p.id);
        if (!s) throw new ServeError(SimErrorCode.INVALID_PARAMS, `invalid params: id: unknown snapshot '${p.id}' (taken before the last reset, or evicted)`, { param: 'id' });
      } else {
        s = { kind: p.kind, data: p.blob };
      }
      await sim.restore(s);
      return { simTimeSecs: sim.simTimeSecs() };
    },
    close: async () => {
      await closeSim();
      return {};
    },
  };

  const handle = async (id: string | number, method: string, params: unknown): Promise<void> => {
    try {
      if (!(method in SIM_METHODS)) throw new ServeError(SimErrorCode.METHOD_NOT_FOUND, `method not found: ${method}`);
      const m = method as SimMethod;
      const parsed = SIM_METHODS[m].params.safeParse(params);
      if (!parsed.success) {
        const { param, message } = describeParamIssue(parsed.error);
        throw new ServeError(SimErrorCode.INVALID_PARAMS, `invalid params: ${param}: ${message}`, { param });
      }
      if (METHODS_NEEDING_EPISODE.includes(m) && !haveEpisode) throw new ServeError(SimErrorCode.NO_EPISODE, `${m} before reset: call reset first`);
      if (simClosed && m !== 'close') throw new ServeError(SimErrorCode.NO_EPISODE, `${m} after close`);
      let result: unknown;
      try {
        result = await (handlers[m] as (p: unknown) => Promise<unknown>)(parsed.data);
      } catch (e) {
        if (e instanceof ServeError) throw e;
        if (e instanceof SimParamError) throw new ServeError(SimErrorCode.INVALID_PARAMS, `invalid params: ${e.param}: ${e.message}`, { param: e.param });
        throw new ServeError(SimErrorCode.SIMULATOR_CRASHED, `${m} raised: ${(e as Error)?.message ?? String(e)}`);
      }
      const checked = SIM_METHODS[m].result.safeParse(result);
      if (!checked.success) {
        const { param, message } = describeParamIssue(checked.error);
        throw new ServeError(SimErrorCode.INTERNAL_ERROR, `simulator '${sim.name}' produced an invalid ${m} result: ${param}: ${message}`, { detail: param });
      }
      send({ id, result: checked.data });
    } catch (e) {
      const err = e instanceof ServeError ? e : new ServeError(SimErrorCode.INTERNAL_ERROR, (e as Error)?.message ?? String(e));
      send({ id, error: { code: err.code, message: err.message, ...(err.data ? { data: err.data } : {}) } });
    }
    if (method === 'close') await transport.close();
  };

  transport.onMessage((raw) => {
    let msg: unknown;
    try {
      msg = JSON.parse(raw);
    } catch {
      return send({ id: null, error: { code: SimErrorCode.PARSE_ERROR, message: 'parse error: not JSON' } });
    }
    const m = msg as Record<string, unknown> | null;
    const idOk = m !== null && typeof m === 'object' && (typeof m.id === 'number' || typeof m.id === 'string');
    if (Array.isArray(msg) || m === null || typeof m !== 'object' || m.jsonrpc !== '2.0' || typeof m.method !== 'string') {
      const why = Array.isArray(msg) ? 'batches are not supported' : 'not a JSON-RPC 2.0 request';
      return send({ id: idOk ? m!.id : null, error: { code: SimErrorCode.INVALID_REQUEST, message: `invalid request: ${why}` } });
    }
    if (m.id === undefined) return; // client notifications: none are defined; ignored as JSON-RPC requires
    if (!idOk) return send({ id: null, error: { code: SimErrorCode.INVALID_REQUEST, message: 'invalid request: id must be a number or string' } });
    const id = m.id as string | number;
    queue = queue.then(() => handle(id, m.method as string, m.params));
  });

  transport.onClose((reason) => {
    queue = queue
      .then(() => closeSim())
      .then(
        () => resolveDone(reason),
        // The client is gone, so the failure travels in `done` instead.
        (e: unknown) => resolveDone(`${reason}; closing simulator '${sim.name}' failed: ${(e as Error)?.message ?? String(e)}`),
      );
  });

  return {
    done,
    notify(method, params) {
      send({ method, params });
    },
    async close() {
      await transport.close();
      await done;
    },
  };
}

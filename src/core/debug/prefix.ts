// Snapshots for time travel, and the fast way to reach a fork point: while a live run goes on, the simulator's
// state is saved at each role call (lazily, just before the next thing that moves it). A fork whose parent has a
// snapshot at the restarted turn replays the earlier turns from the parent's recorded events: code blocks,
// actions, observations and checks answer from the trace, so no code runs and no physics is stepped, and at the
// fork point the real simulator restores the snapshot and takes over.
import type { AgentAction, EventOf, TraceEvent } from '../../protocol/trace.js';
import type { CodeSandbox, RunCodeRequest, RunCodeResult } from '../sandbox/sandbox.js';
import type { ApiCallResult, CollisionReport, JointActResult, Observation, SimSnapshot, Simulator } from '../sim/simulator.js';
import type { EventLog } from './eventLog.js';

/** Saved simulator states of one run, by role-call ordinal (0-based among the run's role calls). */
export class SnapshotBook {
  readonly byOrdinal = new Map<number, SimSnapshot>();
  /** Role calls seen since the simulator last moved: they share the state taken before its next move. */
  private pending: number[] = [];
  unsupported: string | undefined;

  roleCall(ordinal: number): void {
    this.pending.push(ordinal);
  }

  /** Before the simulator moves: the state it is in belongs to every role call seen since it last moved. */
  async beforeMove(sim: Simulator): Promise<void> {
    if (this.pending.length === 0 || this.unsupported) return;
    const waiting = this.pending;
    this.pending = [];
    try {
      const snap = await sim.snapshot();
      for (const o of waiting) this.byOrdinal.set(o, snap);
    } catch (err) {
      this.unsupported = err instanceof Error ? err.message : String(err);
    }
  }

  /** The state at a role call: saved, or the simulator's current one when it has not moved since. */
  async at(ordinal: number, sim: Simulator): Promise<SimSnapshot | undefined> {
    const saved = this.byOrdinal.get(ordinal);
    if (saved || this.unsupported) return saved;
    if (this.pending.includes(ordinal)) {
      await this.beforeMove(sim);
      return this.byOrdinal.get(ordinal);
    }
    return undefined;
  }

  /** A fork starts with its parent's snapshots for the turns it replays. */
  inherit(parent: SnapshotBook, below: number): void {
    for (const [o, s] of parent.byOrdinal) if (o < below) this.byOrdinal.set(o, s);
  }

  /** The fork point: the simulator is about to be restored to `snap`, which is this ordinal's state. */
  settle(ordinal: number, snap: SimSnapshot): void {
    this.pending = [];
    this.byOrdinal.set(ordinal, snap);
  }
}

const MOVES = new Set(['call', 'act', 'reset', 'restore']);

/** The session's simulator as one run sees it: not closed by the run's end, and snapshotted before it moves. */
export function runSimulator(sim: Simulator, book: () => SnapshotBook): Simulator {
  return new Proxy(sim, {
    get(target, key) {
      if (key === 'close') return async () => undefined;
      const v = Reflect.get(target, key, target) as unknown;
      if (typeof v !== 'function') return v;
      const fn = (v as (...a: unknown[]) => unknown).bind(target);
      if (typeof key === 'string' && MOVES.has(key)) {
        return async (...args: unknown[]) => {
          await book().beforeMove(target);
          return fn(...args);
        };
      }
      return fn;
    },
  });
}

/** Thrown when the re-run asks for something the recording does not have at that point. */
export class ReplayDiverged extends Error {}

function parseCollision(e: EventOf<'check'>): CollisionReport | undefined {
  // The engine writes collisions of code blocks as checks (engine/episode.ts): the pair, time, depth and kind as
  // fields, and the same in the message (older traces have only the message, without the depth).
  const f = e as EventOf<'check'> & { pair?: [string, string]; tSecs?: number; depthM?: number; collisionKind?: CollisionReport['kind'] };
  if (f.pair && typeof f.tSecs === 'number') {
    return { a: f.pair[0], b: f.pair[1], tSecs: f.tSecs, ...(f.depthM !== undefined ? { depthM: f.depthM } : {}), ...(f.collisionKind ? { kind: f.collisionKind } : {}) };
  }
  const m = /^collision: (.+) <-> (.+) at t=([\d.]+) s(?:, depth ([\d.]+) mm)?$/.exec(e.message);
  return m ? { a: m[1]!, b: m[2]!, tSecs: Number(m[3]), ...(m[4] !== undefined ? { depthM: Number(m[4]) / 1000 } : {}) } : undefined;
}

/**
 * Replays a fork's prefix from the parent's events. `next()` is the index of the event the fork will write next;
 * in the prefix it lines up with the parent's event at the same index.
 */
export class PrefixPlayback {
  private live = false;

  constructor(
    private readonly parent: EventLog,
    private readonly next: () => number,
  ) {}

  get isLive(): boolean {
    return this.live;
  }

  goLive(): void {
    this.live = true;
  }

  private expect<T extends TraceEvent['type']>(type: T, offset = 0): EventOf<T> {
    const i = this.next() + offset;
    const e = this.parent.at(i);
    if (!e || e.type !== type) throw new ReplayDiverged(`the re-run needs ${type} at event ${i}, where the original has ${e ? e.type : 'nothing'}`);
    return e as EventOf<T>;
  }

  /** The sandbox a fork uses: recorded results until the fork point, the real one after. */
  sandbox(real: CodeSandbox): CodeSandbox {
    return {
      warmUp: () => real.warmUp(),
      resetNamespace: () => real.resetNamespace(),
      close: async () => undefined,
      run: async (request: RunCodeRequest): Promise<RunCodeResult> => {
        if (this.live) return real.run(request);
        const from = this.next();
        const end = this.parent.findForward(from, (e) => e.type === 'code_execution');
        const exec = this.parent.at(end) as EventOf<'code_execution'> | undefined;
        if (!exec || exec.code !== request.code) throw new ReplayDiverged(`the re-run ran another code block at event ${from} than the original`);
        for (let i = from; i < end; i++) {
          const e = this.parent.at(i)!;
          if (e.type !== 'api_call') continue;
          await request.onApiCall(e.fn, e.args, { index: e.index, ...(e.line !== undefined ? { line: e.line } : {}) });
        }
        return { ok: exec.ok, exitCode: exec.exitCode, stdout: exec.stdout, ...(exec.error ? { error: exec.error } : {}), durationMs: exec.durationMs, apiCalls: exec.apiCalls };
      },
    };
  }

  /** The simulator a fork uses: recorded answers until the fork point (reset and geometry are real), the real one after. */
  // Longer than ~80 lines: one Simulator object, a short method per simulator call, each reading the same cursor.
  simulator(real: Simulator): Simulator {
    const self = this;
    const lastTime = (): number => {
      for (let i = this.next() - 1; i >= 0; i--) {
        const e = this.parent.at(i)!;
        if (e.type === 'trajectory' && e.samples.length) return e.samples[e.samples.length - 1]!.tSecs;
        if ((e.type === 'snapshot' || e.type === 'restore') && e.simTimeSecs !== undefined) return e.simTimeSecs;
      }
      return 0;
    };
    const call = async (fn: string, args: unknown[]): Promise<ApiCallResult> => {
      if (self.live) return real.call(fn, args);
      const prev = self.parent.at(self.next() - 1);
      if (prev?.type === 'action') {
        const r = self.parent.findForward(self.next(), (e) => e.type === 'action_result' && e.actionId === prev.actionId);
        const res = (self.parent.at(r) as EventOf<'action_result'> | undefined)?.results[0];
        if (!res) throw new ReplayDiverged(`no recorded result for action ${prev.actionId}`);
        const collisions = (self.parent.at(r) as EventOf<'action_result'>).collisions;
        return res.ok ? { ok: true, output: res.output, value: res.value, metrics: res.metrics, ...(collisions ? { collisions } : {}) } : { ok: false, error: res.error ?? 'failed' };
      }
      if (prev?.type !== 'api_call' || prev.fn !== fn) throw new ReplayDiverged(`the re-run called ${fn} at event ${self.next()}, the original did not`);
      const end = self.parent.findForward(self.next(), (e) => e.type === 'code_execution');
      const exec = self.parent.at(end) as EventOf<'code_execution'> | undefined;
      const rec = exec?.apiCalls[prev.index];
      if (!exec || !rec) throw new ReplayDiverged(`no recorded result for ${fn} at event ${self.next() - 1}`);
      // The block's collisions were reported after it as checks; hand them back with its last call.
      const last = prev.index === exec.apiCalls.length - 1;
      const collisions: CollisionReport[] = [];
      if (last) {
        for (let i = end + 1; i < self.parent.length; i++) {
          const e = self.parent.at(i)!;
          if (e.type === 'trajectory') continue;
          if (e.type !== 'check' || e.name !== 'collision') break;
          const c = parseCollision(e);
          if (c) collisions.push(c);
        }
      }
      return rec.ok ? { ok: true, ...(rec.value !== undefined ? { value: rec.value } : {}), ...(rec.metrics ? { metrics: rec.metrics } : {}), ...(collisions.length ? { collisions } : {}) } : { ok: false, error: rec.error ?? 'failed' };
    };
    const sim: Simulator = {
      name: real.name,
      ...(real.version !== undefined ? { version: real.version } : {}),
      ...(real.agentViews !== undefined ? { agentViews: real.agentViews } : {}),
      tasks: () => real.tasks(),
      reset: (task, seed, options) => real.reset(task, seed, options),
      geometry: () => real.geometry(),
      observe: async (agent?: string): Promise<Observation> => {
        if (self.live) return real.observe(agent);
        const o = self.expect('observation');
        return { text: o.text, state: o.state, ...(o.agent !== undefined ? { agent: o.agent } : {}) };
      },
      call,
      check: async () => {
        if (self.live) return real.check();
        const c = self.expect('check');
        return { success: c.ok, detail: c.message };
      },
      drainTrajectory: async () => {
        if (self.live) return real.drainTrajectory();
        const e = self.parent.at(self.next());
        return e?.type === 'trajectory' ? { rateHz: e.rateHz, samples: e.samples } : { rateHz: 50, samples: [] };
      },
      simTimeSecs: () => (self.live ? real.simTimeSecs() : lastTime()),
      snapshot: async () => (self.live ? real.snapshot() : { kind: 'waypoint-replayed-prefix', data: null }),
      restore: async (s) => {
        if (self.live) return real.restore(s);
      },
      close: async () => undefined,
    };
    if (real.act) {
      const act = real.act.bind(real);
      sim.act = async (actions: AgentAction[]): Promise<JointActResult> => {
        if (self.live) return act(actions);
        const a = self.expect('action', -1);
        const r = self.expect('action_result');
        if (r.actionId !== a.actionId) throw new ReplayDiverged(`action ${a.actionId} has no recorded result`);
        return { results: r.results, ...(r.collisions ? { collisions: r.collisions } : {}) };
      };
    }
    if (real.motionMetrics) sim.motionMetrics = () => real.motionMetrics!();
    return sim;
  }
}

// A sweep worker's resources between episodes: one WarmPool (src/core/runs/warmPool.ts) per simulator spec and
// family, so every episode after a worker's first skips Pyodide's start-up (seconds) and, for the embedded
// simulator, MuJoCo's module load and scene compile. The sandbox is reset between episodes by the pool (nothing of
// one episode reaches the next; test/unit/core/sweep/sweepWarm.test.ts checks it on whole sweep episodes); a
// protocol simulator's connection is not kept (it belongs to one episode), the embedded one is (every episode
// starts with its reset(task, seed)). With `slots` > 1 (a worker keeping several episodes in flight), the pool
// holds that many simulators (separate MuJoCo model and data per episode, one wasm module per process) and ONE
// sandbox, a Python namespace per episode (warmPool.ts: sharedSandbox).
import type { Architectures } from '../architecture/registry.js';
import type { Clock, HostIO } from '../host.js';
import type { LaunchDeps } from '../runs/launch.js';
import { WarmPool, type WarmPoolStats } from '../runs/warmPool.js';
import type { ReusableSandbox } from '../sandbox/sandbox.js';
import type { Simulator } from '../sim/simulator.js';
import { isEmbeddedSpec } from '../sim/connect.js';
import type { EpisodeJob } from './workers.js';

type Family = 'tabletop' | 'household';

export interface WarmResourceFactories {
  createSandbox(): ReusableSandbox;
  /** A simulator for a spec ('embedded', 'stdio:...', 'ws://...') of the given family, started in `cwd`. */
  connect(spec: string, options: { cwd: string; family: Family }): Promise<Simulator>;
  log?(line: string): void;
}

/** Where a worker gets each job's LaunchDeps. */
export interface DepsSource {
  depsFor(job: EpisodeJob): LaunchDeps;
  close(): Promise<void>;
}

export class WarmWorkerResources implements DepsSource {
  readonly #pools = new Map<string, WarmPool>();

  constructor(
    private readonly host: { io: HostIO; clock: Clock; architectures: Architectures },
    private readonly factories: WarmResourceFactories,
    /** Episodes this worker runs at once (default 1). */
    private readonly slots = 1,
  ) {}

  depsFor(job: EpisodeJob): LaunchDeps {
    const family: Family = this.host.architectures.find(job.arch)?.simulator ?? 'tabletop';
    const key = JSON.stringify([job.sim, job.workspace, family]);
    let pool = this.#pools.get(key);
    if (!pool) {
      const f = this.factories;
      pool = new WarmPool({
        createSandbox: () => f.createSandbox(),
        createSimulator: (needs) => f.connect(job.sim, { cwd: job.workspace, family: needs?.family ?? family }),
        family,
        size: this.slots,
        sharedSandbox: this.slots > 1,
        reuseSimulators: isEmbeddedSpec(job.sim),
        log: f.log,
      });
      this.#pools.set(key, pool);
    }
    return pool.deps(this.host);
  }

  /** Summed over this worker's pools. */
  stats(): WarmPoolStats {
    const sum: WarmPoolStats = { sandboxesStarted: 0, sandboxReuses: 0, sandboxesReplaced: 0, simulatorsStarted: 0, simulatorReuses: 0 };
    for (const p of this.#pools.values()) {
      const s = p.stats();
      sum.sandboxesStarted += s.sandboxesStarted;
      sum.sandboxReuses += s.sandboxReuses;
      sum.sandboxesReplaced += s.sandboxesReplaced;
      sum.simulatorsStarted += s.simulatorsStarted;
      sum.simulatorReuses += s.simulatorReuses;
      if (s.lastReset) sum.lastReset = s.lastReset;
    }
    return sum;
  }

  async close(): Promise<void> {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.allSettled(pools.map((p) => p.close()));
  }
}

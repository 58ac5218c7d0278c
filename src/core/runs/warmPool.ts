// The warm pool: code sandboxes (Pyodide loaded, robot API harness ready) and simulators (MuJoCo's module loaded,
// scenes compiled) kept between episodes, so every episode after the first in a process skips seconds of start-up.
// Hosts that run episode after episode (the CLI's compare, the extension's live-run process, sweep workers) build
// one pool and pass `pool.deps(...)` to launchRun wherever they passed fresh factories before. A lease is returned
// when launchRun closes it; the sandbox is then reset in the background (ReusableSandbox.resetEpisode: nothing of
// the last episode is left; what cannot be undone costs a fresh worker) and the simulator is kept as it is (every
// episode starts with its reset(task, seed)). `size` bounds how many episodes hold resources at once; a lease
// requested beyond it waits for one to come back. With `sharedSandbox`, the episodes in flight share one sandbox
// (one Pyodide interpreter), a namespace each, dropped when the episode ends; simulators stay one per episode
// (they share the process's one MuJoCo module; each has its own compiled model and data).
import type { Architectures } from '../architecture/registry.js';
import type { Clock, HostIO } from '../host.js';
import type { CodeSandbox, EpisodeResetReport, ReusableSandbox, RunCodeRequest, RunCodeResult } from '../sandbox/sandbox.js';
import type { Simulator } from '../sim/simulator.js';
import type { LaunchDeps } from './launch.js';

export interface WarmPoolOptions {
  createSandbox(): ReusableSandbox;
  /** `needs`: the simulator family the episode's architecture runs on (launchRun passes it). */
  createSimulator(needs?: { family: 'tabletop' | 'household' }): Promise<Simulator>;
  /** The simulator family this pool keeps warm (default tabletop); an episode needing another gets a fresh one. */
  family?: 'tabletop' | 'household';
  /** Episodes that may hold a sandbox and a simulator at once (default 1). */
  size?: number;
  /**
   * One sandbox for all episodes in flight, a namespace each (ReusableSandbox.namespaces), instead of one sandbox
   * per episode. For a sweep worker with many episodes in flight: one interpreter instead of `size`.
   */
  sharedSandbox?: boolean;
  /** Keep simulators between episodes (default true). Off for a remote simulator whose connection should not outlive a run. */
  reuseSimulators?: boolean;
  /** One line per notable event: a reset that had to restore something, a replaced worker, a failed reset. */
  log?(line: string): void;
}

export interface WarmPoolStats {
  sandboxesStarted: number;
  /** Leases served by a sandbox that had already run an episode. */
  sandboxReuses: number;
  /** Resets that had to replace the worker (the episode left something a reset cannot undo). */
  sandboxesReplaced: number;
  simulatorsStarted: number;
  simulatorReuses: number;
  /** The latest reset's report. */
  lastReset?: EpisodeResetReport;
  /** Milliseconds the latest sandbox reset took (it runs after the episode, off the next one's path). */
  lastResetMs?: number;
}

interface Idle<T> {
  item: T;
  /** It has served an episode (false: started by warmUp and never leased). */
  used: boolean;
  /** Resolves to false when the item must not be handed out again (its reset failed). */
  ready: Promise<boolean>;
}

/** Up to `max` live items; released items wait in `idle` (after their recycle step) for the next acquire. */
class ResourcePool<T> {
  private readonly idle: Idle<T>[] = [];
  private live = 0;
  private readonly waiters: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly max: number,
    private readonly create: () => Promise<T>,
    private readonly recycle: (item: T) => Promise<boolean>,
    private readonly dispose: (item: T) => Promise<void>,
  ) {}

  /** The item is fresh (true) or was used before (false). */
  async acquire(): Promise<{ item: T; reused: boolean }> {
    for (;;) {
      if (this.closed) throw new Error('warm pool is closed');
      const idle = this.idle.shift();
      if (idle) {
        if (await idle.ready.catch(() => false)) return { item: idle.item, reused: idle.used };
        this.drop(idle.item);
        continue;
      }
      if (this.live < this.max) {
        this.live++;
        try {
          return { item: await this.create(), reused: false };
        } catch (err) {
          this.live--;
          this.wake();
          throw err;
        }
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Back from an episode: recycled (reset) before anyone gets it again. */
  release(item: T): void {
    if (this.closed) return this.drop(item);
    this.idle.push({ item, used: true, ready: this.recycle(item).catch(() => false) });
    this.wake();
  }

  /** Back without having run anything (warmUp's): nothing to recycle. */
  putBack(item: T, used: boolean): void {
    if (this.closed) return this.drop(item);
    this.idle.unshift({ item, used, ready: Promise.resolve(true) });
    this.wake();
  }

  /** An item that must not be reused (closed by its user, or broken). */
  drop(item: T): void {
    this.live--;
    void this.dispose(item).catch(() => undefined);
    this.wake();
  }

  get idleCount(): number {
    return this.idle.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    const idle = this.idle.splice(0);
    for (const w of this.waiters.splice(0)) w();
    await Promise.allSettled(idle.map(async (i) => (await i.ready.catch(() => false), this.dispose(i.item))));
  }

  private wake(): void {
    this.waiters.shift()?.();
  }
}

export class WarmPool {
  private readonly sandboxes: ResourcePool<ReusableSandbox>;
  private readonly simulators: ResourcePool<Simulator>;
  private readonly counters: WarmPoolStats = { sandboxesStarted: 0, sandboxReuses: 0, sandboxesReplaced: 0, simulatorsStarted: 0, simulatorReuses: 0 };
  private warming: Promise<void> | undefined;
  private shared: Promise<ReusableSandbox> | undefined;
  private nextSpace = 1;

  constructor(private readonly o: WarmPoolOptions) {
    const size = Math.max(1, Math.floor(o.size ?? 1));
    this.sandboxes = new ResourcePool(
      size,
      async () => {
        this.counters.sandboxesStarted++;
        const s = o.createSandbox();
        try {
          await s.warmUp();
        } catch (err) {
          await s.close().catch(() => undefined);
          throw err;
        }
        return s;
      },
      async (s) => {
        const t0 = performance.now();
        const report = await s.resetEpisode();
        this.counters.lastResetMs = performance.now() - t0;
        this.counters.lastReset = report;
        if (report.replaced) {
          this.counters.sandboxesReplaced++;
          o.log?.(`warm pool: sandbox worker replaced: ${report.reason ?? 'unknown reason'}`);
        } else if (report.restored.length > 0) {
          o.log?.(`warm pool: sandbox reset after the episode: ${report.restored.join('; ')}`);
        }
        return true;
      },
      (s) => s.close(),
    );
    this.simulators = new ResourcePool(
      size,
      async () => {
        this.counters.simulatorsStarted++;
        return o.createSimulator();
      },
      async () => o.reuseSimulators !== false,
      (s) => s.close(),
    );
  }

  /**
   * Start one sandbox and one simulator now, so the first episode is warm too. With `task`, also compile that
   * task's scene (reset to seed 0) and run an empty block, so the first episode does not pay those either.
   */
  warmUp(prime: { task?: string; api?: string } = {}): Promise<void> {
    this.warming ??= (async () => {
      if (this.o.sharedSandbox) {
        const [sb, sim] = await Promise.allSettled([this.sharedSandbox(), this.simulators.acquire()]);
        if (sim.status === 'fulfilled') {
          if (prime.task) await sim.value.item.reset(prime.task, 0, prime.api ? { api: prime.api } : {}).catch(() => undefined);
          this.simulators.putBack(sim.value.item, sim.value.reused);
        }
        if (sb.status === 'rejected') throw sb.reason;
        if (sim.status === 'rejected') throw sim.reason;
        return;
      }
      const [sb, sim] = await Promise.allSettled([
        this.sandboxes.acquire().then(async (x) => {
          if (prime.task) await x.item.run({ code: 'pass', api: [], persistNamespace: false, limits: { timeoutSecs: 10, memoryMiB: 1024 }, onApiCall: async () => ({ ok: false, error: 'no API while warming up' }) }).catch(() => undefined);
          return x;
        }),
        this.simulators.acquire().then(async (x) => {
          if (prime.task) await x.item.reset(prime.task, 0, prime.api ? { api: prime.api } : {}).catch(() => undefined);
          return x;
        }),
      ]);
      if (sb.status === 'fulfilled') this.sandboxes.putBack(sb.value.item, sb.value.reused);
      if (sim.status === 'fulfilled') this.simulators.putBack(sim.value.item, sim.value.reused);
      if (sb.status === 'rejected') throw sb.reason;
      if (sim.status === 'rejected') throw sim.reason;
    })().finally(() => {
      this.warming = undefined;
    });
    return this.warming;
  }

  /** LaunchDeps whose sandbox and simulator come from this pool; launchRun's close() hands them back. */
  deps(host: { io: HostIO; clock: Clock; architectures: Architectures }): LaunchDeps {
    return {
      io: host.io,
      clock: host.clock,
      architectures: host.architectures,
      createSandbox: () => (this.o.sharedSandbox ? this.namespaceLease() : new SandboxLease(this.sandboxes, () => this.counters.sandboxReuses++)),
      createSimulator: (needs) => (needs && needs.family !== (this.o.family ?? 'tabletop') ? this.o.createSimulator(needs) : this.leaseSimulator()),
    };
  }

  stats(): WarmPoolStats {
    return { ...this.counters };
  }

  /** Resources ready for the next episode right now. */
  get idle(): { sandboxes: number; simulators: number } {
    return { sandboxes: this.sandboxes.idleCount, simulators: this.simulators.idleCount };
  }

  async close(): Promise<void> {
    await this.warming?.catch(() => undefined);
    const shared = this.shared;
    this.shared = undefined;
    await Promise.allSettled([this.sandboxes.close(), this.simulators.close(), shared?.then((s) => s.close())]);
  }

  /** The one sandbox of a pool with `sharedSandbox`, started on first use (again after a failed start). */
  private sharedSandbox(): Promise<ReusableSandbox> {
    if (!this.shared) {
      let starting: Promise<ReusableSandbox> | undefined = undefined;
      starting = (async () => {
        this.counters.sandboxesStarted++;
        const s = this.o.createSandbox();
        try {
          if (!s.namespaces) throw new Error('warm pool: sharedSandbox needs a sandbox with namespaces (Pyodide)');
          await s.warmUp();
        } catch (err) {
          if (this.shared === starting) this.shared = undefined;
          await s.close().catch(() => undefined);
          throw err;
        }
        return s;
      })();
      this.shared = starting;
    }
    return this.shared;
  }

  private namespaceLease(): CodeSandbox {
    const n = this.nextSpace++;
    if (n > 1) this.counters.sandboxReuses++;
    return new NamespaceLease(() => this.sharedSandbox(), `episode-${n}`);
  }

  private async leaseSimulator(): Promise<Simulator> {
    const { item, reused } = await this.simulators.acquire();
    if (reused) this.counters.simulatorReuses++;
    let returned = false;
    const pool = this.simulators;
    // A view of the pooled simulator whose close() returns it; every other member (the Simulator interface and
    // whatever else an implementation offers, e.g. the tabletop's motionMetrics) is the simulator's own.
    return new Proxy(item, {
      get(target, prop) {
        if (prop === 'close') {
          return async () => {
            if (returned) return;
            returned = true;
            pool.release(target);
          };
        }
        if (returned && prop !== 'then') throw new Error(`simulator lease already returned to the warm pool (${String(prop)})`);
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}

/**
 * launchRun asks for a sandbox synchronously; the lease takes one from the pool on first use (warmUp, which the
 * engine calls first) and gives it back on close().
 */
class SandboxLease implements CodeSandbox {
  private leased: Promise<ReusableSandbox> | undefined;
  private closed = false;

  constructor(
    private readonly pool: ResourcePool<ReusableSandbox>,
    private readonly onReuse: () => void,
  ) {}

  private sandbox(): Promise<ReusableSandbox> {
    if (this.closed) return Promise.reject(new Error('sandbox lease already returned to the warm pool'));
    this.leased ??= this.pool.acquire().then(({ item, reused }) => {
      if (reused) this.onReuse();
      return item;
    });
    return this.leased;
  }

  async warmUp(): Promise<void> {
    await (await this.sandbox()).warmUp();
  }

  async run(request: RunCodeRequest): Promise<RunCodeResult> {
    return (await this.sandbox()).run(request);
  }

  async resetNamespace(): Promise<void> {
    await (await this.sandbox()).resetNamespace();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const leased = this.leased;
    if (!leased) return;
    const s = await leased.catch(() => undefined);
    if (s) this.pool.release(s);
  }
}

/** An episode's view of the pool's shared sandbox: its blocks run in its own namespace, dropped on close(). */
class NamespaceLease implements CodeSandbox {
  private closed = false;
  private used: Promise<ReusableSandbox> | undefined;

  constructor(
    private readonly sandbox: () => Promise<ReusableSandbox>,
    private readonly namespace: string,
  ) {}

  private get(): Promise<ReusableSandbox> {
    if (this.closed) return Promise.reject(new Error('sandbox lease already returned to the warm pool'));
    // Not cached: after a failed start the next call starts the shared sandbox again.
    return (this.used = this.sandbox());
  }

  async warmUp(): Promise<void> {
    await (await this.get()).warmUp();
  }

  async run(request: RunCodeRequest): Promise<RunCodeResult> {
    return (await this.get()).run({ ...request, namespace: this.namespace });
  }

  async resetNamespace(): Promise<void> {
    await (await this.get()).resetNamespace(this.namespace);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const s = await this.used?.catch(() => undefined);
    await s?.resetNamespace(this.namespace).catch(() => undefined);
  }
}

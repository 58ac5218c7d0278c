// The live-run process: dist/runWorker.js started by Node with WORKER_FLAG (no `vscode` here). It serves `start`
// messages one at a time — launchRun with the real simulator and sandbox, each trace event streamed back as it is
// written, `cancel` honoured, `done` at the end — and stays up between runs with a warm pool (Pyodide loaded,
// MuJoCo's module and the scenes it compiled kept), so the next run starts in milliseconds. `warm` loads the pool
// ahead of the first run: the scene of the task the next run will likely use, and optionally a short throwaway
// episode so the first real one does not pay first-use costs either. The process ends when the host disconnects (idle timeout, extension host gone), after
// cancelling a run in flight. The extension host thread never runs an episode.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { architectures } from '../../architectures/registry.js';
import { architecturePathRoots, reloadArchitectures } from '../../architectures/workspace.js';
import { refusalLine } from '../../core/architecture/workspace.js';
import { EpisodeController } from '../../core/engine/controller.js';
import type { HumanSeat } from '../../core/engine/human.js';
import { nodeClock, nodeIO } from '../../core/node/nodeHost.js';
import { launchRun, type ModelSpec } from '../../core/runs/launch.js';
import { WarmPool } from '../../core/runs/warmPool.js';
import { createHostPythonSandbox, createPyodideSandbox } from '../../core/sandbox/index.js';
import { createSimulatorFromWire, sendToHost } from './childTask.js';
import { HostToWorker, type LaunchWire, type SimulatorWire, type WorkerToHost } from './protocol.js';

const send = (message: WorkerToHost): Promise<void> => sendToHost(message);

/** Turns asked of the person in a robot's seat, by id, waiting for the host's `human_answer`. */
const humanAnswers = new Map<number, (text: string | null) => void>();
let humanAsks = 0;

/** The person's seat: each of their turns goes to the host as `human_ask`; the episode waits for the answer. */
function humanSeat(agents: readonly string[]): HumanSeat {
  return {
    agents,
    ask: (turn, signal) =>
      new Promise<string | null>((resolve) => {
        const id = ++humanAsks;
        const done = (text: string | null) => {
          humanAnswers.delete(id);
          signal.removeEventListener('abort', onAbort);
          resolve(text);
        };
        const onAbort = () => done(null);
        signal.addEventListener('abort', onAbort);
        humanAnswers.set(id, done);
        void send({ type: 'human_ask', id, agent: turn.agent, role: turn.role, turn: turn.turn, ...(turn.round !== undefined ? { round: turn.round } : {}), view: turn.view });
      }),
  };
}

/** One pool per simulator setting; a run with another setting replaces it. */
let warm: { key: string; pool: WarmPool } | undefined;

function poolFor(simulator: SimulatorWire): WarmPool {
  const key = JSON.stringify(simulator);
  if (warm?.key !== key) {
    void warm?.pool.close();
    warm = {
      key,
      pool: new WarmPool({
        createSandbox: () => createPyodideSandbox(),
        createSimulator: (needs) => createSimulatorFromWire(simulator, needs),
        // A remote simulator's connection belongs to one run; the embedded one keeps its module and scenes.
        reuseSimulators: simulator.kind === 'embedded',
        log: (message) => void send({ type: 'log', message }),
      }),
    };
  }
  return warm.pool;
}

async function run(launch: LaunchWire, simulator: SimulatorWire, controller: EpisodeController): Promise<void> {
  const off = controller.on((e) => {
    if (e.type === 'trace_event') void send({ type: 'event', event: e.event });
  });
  try {
    // The workspace's own architectures, loaded again for each run: this process outlives edits to them.
    const archs = await reloadArchitectures({ workspace: launch.workspace, roots: launch.architectureRoots ?? architecturePathRoots() });
    const refused = archs.refused.find((r) => r.id === launch.arch);
    if (refused) throw new Error(refusalLine(refused));
    for (const r of archs.refused) void send({ type: 'log', message: `warning: ${refusalLine(r)}` });
    const result = await launchRun(
      {
        workspace: launch.workspace,
        arch: launch.arch,
        task: launch.task,
        seed: launch.seed,
        variant: launch.variant,
        ...(launch.ablations && Object.keys(launch.ablations).length ? { ablations: launch.ablations } : {}),
        builtInPromptRoot: launch.builtInPromptRoot,
        model: launch.model as ModelSpec,
        options: launch.options,
        limits: launch.limits,
        cache: launch.cache,
        ...(launch.human?.length ? { human: humanSeat(launch.human) } : {}),
        controller,
        onStart: (info) => void send({ type: 'started', runId: info.runId, tracePath: info.tracePath }),
      },
      // A trusted workspace that asked for its own python3 gets a fresh one per run; the pool serves Pyodide.
      launch.options.codeRunner === 'host-python'
        ? { ...poolFor(simulator).deps({ io: nodeIO, clock: nodeClock, architectures }), createSandbox: () => createHostPythonSandbox() }
        : poolFor(simulator).deps({ io: nodeIO, clock: nodeClock, architectures }),
    );
    // Controller listeners run on setImmediate: let the last events go out before `done`.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    await send({ type: 'done', runId: result.runId, tracePath: result.tracePath, success: result.success, reason: result.reason, message: result.message });
  } finally {
    off();
  }
}

/** Turns of the warm-up episode: enough for every role to answer and code to run against the simulator. */
const PRIMER_TURNS = 12;
let priming: EpisodeController | undefined;

/** A throwaway episode with the reference model in a temporary folder, cancelled after PRIMER_TURNS turns. */
async function primerEpisode(pool: WarmPool, task: string, primer: { arch: string; builtInPromptRoot: string }, controller: EpisodeController): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'waypoint-warmup-'));
  let turns = 0;
  const off = controller.on((e) => {
    if (e.type === 'trace_event' && e.event.type === 'role_call' && ++turns >= PRIMER_TURNS) controller.cancel();
  });
  try {
    await launchRun({ workspace: dir, arch: primer.arch, task, seed: 0, builtInPromptRoot: primer.builtInPromptRoot, model: { kind: 'reference' }, cache: false, controller }, pool.deps({ io: nodeIO, clock: nodeClock, architectures }));
  } finally {
    off();
    await rm(dir, { recursive: true, force: true });
  }
}

export function runWorkerMain(): void {
  let current: EpisodeController | undefined;
  let leaving = false;
  const leave = async () => {
    if (leaving) return;
    leaving = true;
    current?.cancel();
    priming?.cancel();
    // Let a cancelled run write its end (and the warm-up episode remove its folder), then close the sandbox worker and go.
    while (current || priming) await new Promise((r) => setTimeout(r, 20));
    await warm?.pool.close();
    setTimeout(() => process.exit(0), 50).unref();
  };
  process.on('message', (raw: unknown) => {
    const parsed = HostToWorker.safeParse(raw);
    if (!parsed.success) {
      void send({ type: 'log', message: `run process: ignored an invalid message: ${parsed.error.issues[0]?.message ?? 'schema mismatch'}` });
      return;
    }
    const m = parsed.data;
    if (m.type === 'cancel') {
      // A turn the person has not typed yet ends unanswered (the engine records the seat giving up).
      for (const answer of [...humanAnswers.values()]) answer(null);
      return current?.cancel();
    }
    if (m.type === 'human_answer') return humanAnswers.get(m.id)?.(m.text);
    if (m.type === 'warm') {
      const t0 = performance.now();
      const pool = poolFor(m.simulator);
      void pool
        .warmUp({ task: m.task })
        .then(async () => {
          if (m.primer && m.task && !current && !leaving) {
            priming = new EpisodeController();
            await primerEpisode(pool, m.task, m.primer, priming).finally(() => (priming = undefined));
          }
        })
        .then(
          () => send({ type: 'warmed', ms: performance.now() - t0 }),
          (err: unknown) => send({ type: 'warmed', ms: performance.now() - t0, error: err instanceof Error ? err.message : String(err) }),
        );
      return;
    }
    // A real run does not wait for the warm-up episode: it is cancelled (its sandbox is then reset as usual).
    priming?.cancel();
    if (current || leaving) {
      void send({ type: 'failed', message: 'the run process is busy with another run' });
      return;
    }
    const controller = new EpisodeController();
    current = controller;
    run(m.launch, m.simulator, controller)
      .catch((err: unknown) => send({ type: 'failed', message: err instanceof Error ? err.message : String(err) }))
      .finally(() => {
        current = undefined;
      });
  });
  // The host went away or let this process go: stop; a trace in flight ends 'cancelled'.
  process.on('disconnect', () => void leave());
}

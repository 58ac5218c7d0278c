// The child process of a paired sweep: dist/runWorker.js started with SWEEP_WORKER_FLAG (no `vscode` here). It
// takes one `start`, runs runPairedSweep with the real simulator and sandbox, reports progress, honours `cancel`
// (the episode in flight ends 'cancelled' and the sweep is recorded as cancelled), reports `done` and exits.
import { nodeClock, nodeIO } from '../../core/node/nodeHost.js';
import type { ModelSpec } from '../../core/runs/launch.js';
import { createPyodideSandbox } from '../../core/sandbox/index.js';
import type { Simulator } from '../../core/sim/simulator.js';
import { runPairedSweep } from '../../core/sweep/pairedSweep.js';
import { HostToSweepWorker, type SweepWire, type SweepWorkerToHost } from './sweepProtocol.js';
import type { SimulatorWire } from './protocol.js';

function send(message: SweepWorkerToHost): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

async function createSimulator(spec: SimulatorWire): Promise<Simulator> {
  if (spec.kind === 'embedded') {
    const { createTabletopSimulator } = await import('../../core/sim/mujoco/index.js');
    return createTabletopSimulator();
  }
  const { RemoteSimulator } = await import('../../core/sim/remote/index.js');
  return RemoteSimulator.connect(spec.endpoint, { client: { name: 'waypoint-vscode' }, onLog: (log) => void send({ type: 'log', message: `simulator: ${log.message}` }) });
}

async function run(sweep: SweepWire, simulator: SimulatorWire, signal: AbortSignal): Promise<void> {
  const { file, path } = await runPairedSweep(
    {
      workspace: sweep.workspace,
      arch: sweep.arch,
      task: sweep.task,
      variant: sweep.variant,
      ablation: sweep.ablation,
      seeds: sweep.seeds,
      builtInPromptRoot: sweep.builtInPromptRoot,
      model: sweep.model as ModelSpec,
      options: sweep.options,
      cache: sweep.cache,
      signal,
      onProgress: (p) => void send({ type: 'progress', done: p.done, total: p.total, seed: p.seed, side: p.side, phase: p.phase, ...(p.outcome ? { success: p.outcome.success } : {}) }),
    },
    { io: nodeIO, clock: nodeClock, createSimulator: () => createSimulator(simulator), createSandbox: () => createPyodideSandbox() },
  );
  await send({ type: 'done', path, file });
}

export function runSweepWorkerMain(): void {
  const ac = new AbortController();
  let started = false;
  const finish = (code: number) => {
    process.disconnect?.();
    setTimeout(() => process.exit(code), 50).unref();
  };
  process.on('message', (raw: unknown) => {
    const parsed = HostToSweepWorker.safeParse(raw);
    if (!parsed.success) {
      void send({ type: 'log', message: `sweep worker: ignored an invalid message: ${parsed.error.issues[0]?.message ?? 'schema mismatch'}` });
      return;
    }
    const m = parsed.data;
    if (m.type === 'cancel') return ac.abort();
    if (started) return;
    started = true;
    run(m.sweep, m.simulator, ac.signal).then(
      () => finish(0),
      async (err: unknown) => {
        await send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
        finish(1);
      },
    );
  });
  process.on('disconnect', () => ac.abort());
}

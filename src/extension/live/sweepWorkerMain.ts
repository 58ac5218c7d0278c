// The child process of a paired sweep: dist/runWorker.js started with SWEEP_WORKER_FLAG (no `vscode` here). It
// takes one `start`, runs runPairedSweep with the real simulator and sandbox, reports progress, honours `cancel`
// (the episode in flight ends 'cancelled' and the sweep is recorded as cancelled), reports `done` and exits.
import { architectures } from '../../architectures/registry.js';
import { architecturePathRoots, reloadArchitectures } from '../../architectures/workspace.js';
import { refusalLine } from '../../core/architecture/workspace.js';
import { nodeClock, nodeIO } from '../../core/node/nodeHost.js';
import type { ModelSpec } from '../../core/runs/launch.js';
import { WarmPool } from '../../core/runs/warmPool.js';
import { createPyodideSandbox } from '../../core/sandbox/index.js';
import { runPairedSweep } from '../../core/sweep/pairedSweep.js';
import { createSimulatorFromWire, sendToHost, serveChildTask } from './childTask.js';
import { HostToSweepWorker, type SweepWire, type SweepWorkerToHost } from './sweepProtocol.js';
import type { SimulatorWire } from './protocol.js';

const send = (message: SweepWorkerToHost): Promise<void> => sendToHost(message);

async function run(sweep: SweepWire, simulator: SimulatorWire, signal: AbortSignal): Promise<void> {
  const archs = await reloadArchitectures({ workspace: sweep.workspace, roots: sweep.architectureRoots ?? architecturePathRoots() });
  const refused = archs.refused.find((r) => r.id === sweep.arch);
  if (refused) throw new Error(refusalLine(refused));
  // Episodes after the first reuse the sandbox (reset in between) and, for the embedded one, the simulator.
  const pool = new WarmPool({
    createSandbox: () => createPyodideSandbox(),
    createSimulator: (needs) => createSimulatorFromWire(simulator, needs),
    reuseSimulators: simulator.kind === 'embedded',
    log: (message) => void send({ type: 'log', message }),
  });
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
      limits: sweep.limits,
      cache: sweep.cache,
      signal,
      onProgress: (p) => void send({ type: 'progress', done: p.done, total: p.total, seed: p.seed, side: p.side, phase: p.phase, ...(p.outcome ? { success: p.outcome.success } : {}) }),
    },
    pool.deps({ io: nodeIO, clock: nodeClock, architectures }),
  ).finally(() => pool.close());
  await send({ type: 'done', path, file });
}

export function runSweepWorkerMain(): void {
  const ac = new AbortController();
  serveChildTask({ name: 'sweep worker', schema: HostToSweepWorker, cancel: () => ac.abort(), start: (m) => run(m.sweep, m.simulator, ac.signal) });
}

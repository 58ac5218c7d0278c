// The child process of a live run: dist/runWorker.js started by Node with WORKER_FLAG (no `vscode` here). It
// takes one `start` message, runs launchRun with the real simulator and sandbox, streams each trace event back
// as it is written, honours `cancel`, reports `done` and exits. The extension host thread never runs the episode.
import { EpisodeController } from '../../core/engine/controller.js';
import { nodeClock, nodeIO } from '../../core/node/nodeHost.js';
import { launchRun, type ModelSpec } from '../../core/runs/launch.js';
import { createPyodideSandbox } from '../../core/sandbox/index.js';
import { createSimulatorFromWire, sendToHost, serveChildTask } from './childTask.js';
import { HostToWorker, type LaunchWire, type SimulatorWire, type WorkerToHost } from './protocol.js';

const send = (message: WorkerToHost): Promise<void> => sendToHost(message);

async function run(launch: LaunchWire, simulator: SimulatorWire, controller: EpisodeController): Promise<void> {
  controller.on((e) => {
    if (e.type === 'trace_event') void send({ type: 'event', event: e.event });
  });
  const result = await launchRun(
    {
      workspace: launch.workspace,
      arch: launch.arch,
      task: launch.task,
      seed: launch.seed,
      variant: launch.variant,
      builtInPromptRoot: launch.builtInPromptRoot,
      model: launch.model as ModelSpec,
      options: launch.options,
      limits: launch.limits,
      cache: launch.cache,
      controller,
      onStart: (info) => void send({ type: 'started', runId: info.runId, tracePath: info.tracePath }),
    },
    {
      io: nodeIO,
      clock: nodeClock,
      createSimulator: () => createSimulatorFromWire(simulator),
      createSandbox: () => createPyodideSandbox(),
    },
  );
  // Controller listeners run on setImmediate: let the last events go out before `done`.
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  await send({ type: 'done', runId: result.runId, tracePath: result.tracePath, success: result.success, reason: result.reason, message: result.message });
}

export function runWorkerMain(): void {
  const controller = new EpisodeController();
  serveChildTask({ name: 'run worker', schema: HostToWorker, cancel: () => controller.cancel(), start: (m) => run(m.launch, m.simulator, controller) });
}

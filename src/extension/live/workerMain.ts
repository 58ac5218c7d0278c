// The child process of a live run: dist/runWorker.js started by Node with WORKER_FLAG (no `vscode` here). It
// takes one `start` message, runs launchRun with the real simulator and sandbox, streams each trace event back
// as it is written, honours `cancel`, reports `done` and exits. The extension host thread never runs the episode.
import { EpisodeController } from '../../core/engine/controller.js';
import { nodeClock, nodeIO } from '../../core/node/nodeHost.js';
import { launchRun, type ModelSpec } from '../../core/runs/launch.js';
import { createPyodideSandbox } from '../../core/sandbox/index.js';
import type { Simulator } from '../../core/sim/simulator.js';
import { HostToWorker, type LaunchWire, type SimulatorWire, type WorkerToHost } from './protocol.js';

function send(message: WorkerToHost): Promise<void> {
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
  return RemoteSimulator.connect(spec.endpoint, {
    client: { name: 'waypoint-vscode' },
    onLog: (log) => void send({ type: 'log', message: `simulator: ${log.message}` }),
  });
}

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
      cache: launch.cache,
      controller,
      onStart: (info) => void send({ type: 'started', runId: info.runId, tracePath: info.tracePath }),
    },
    {
      io: nodeIO,
      clock: nodeClock,
      createSimulator: () => createSimulator(simulator),
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
  let started = false;
  const finish = (code: number) => {
    // Let the IPC channel drain, then leave even if a handle (a socket, a timer) would keep Node alive.
    process.disconnect?.();
    setTimeout(() => process.exit(code), 50).unref();
  };
  process.on('message', (raw: unknown) => {
    const parsed = HostToWorker.safeParse(raw);
    if (!parsed.success) {
      void send({ type: 'log', message: `run worker: ignored an invalid message: ${parsed.error.issues[0]?.message ?? 'schema mismatch'}` });
      return;
    }
    const m = parsed.data;
    if (m.type === 'cancel') {
      controller.cancel();
      return;
    }
    if (started) return;
    started = true;
    run(m.launch, m.simulator, controller).then(
      () => finish(0),
      async (err: unknown) => {
        await send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
        finish(1);
      },
    );
  });
  // The host went away (window closed, extension host restarted): stop the episode, the trace ends 'cancelled'.
  process.on('disconnect', () => controller.cancel());
}

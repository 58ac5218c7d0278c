// `waypoint sweep-worker`: the child side of src/core/sweep/childWorker.ts (started by `waypoint sweep` with an IPC
// channel; not for people). It builds its LaunchDeps once and runs jobs one at a time until the channel closes.
// This is where a warm pool of sandboxes and simulators plugs in: `deps` is built once per worker process.
import { nodeClock, nodeIO } from '../core/node/nodeHost.js';
import type { LaunchDeps } from '../core/runs/launch.js';
import { createPyodideSandbox } from '../core/sandbox/index.js';
import { connectSimulator } from '../core/sim/connect.js';
import type { ChildToParent, ParentToChild } from '../core/sweep/childWorker.js';
import { runJob } from '../core/sweep/workers.js';
import { defineCommand } from './options.js';

export async function sweepWorkerCommand(): Promise<number> {
  if (!process.send) {
    process.stderr.write('waypoint sweep-worker: started without an IPC channel (it is run by `waypoint sweep`)\n');
    return 2;
  }
  // The CLI's lifecycle unrefs a parent's IPC channel (so helpers like demo's serve-model do not keep a process
  // alive); a sweep worker lives for that channel: keep it referenced until the parent disconnects.
  process.channel?.ref();
  const send = (m: ChildToParent) => process.send!(m);
  let nextGrant = 1;
  const grants = new Map<number, () => void>();
  let ac: AbortController | undefined;
  let deps: LaunchDeps | undefined;
  const meter = {
    acquire: (est: number) =>
      new Promise<{ settle(tokens: number): void }>((resolve) => {
        const id = nextGrant++;
        grants.set(id, () => resolve({ settle: (tokens) => send({ type: 'settle', id, tokens }) }));
        send({ type: 'acquire', id, est });
      }),
    spent: (promptTokens: number, completionTokens: number) => send({ type: 'spent', promptTokens, completionTokens }),
  };
  let chain = Promise.resolve();
  process.on('message', (m: ParentToChild) => {
    if (m.type === 'grant') {
      grants.get(m.id)?.();
      grants.delete(m.id);
    } else if (m.type === 'cancel') ac?.abort();
    else if (m.type === 'job') {
      chain = chain.then(async () => {
        ac = new AbortController();
        deps ??= { io: nodeIO, clock: nodeClock, createSimulator: () => connectSimulator(m.job.sim, { cwd: m.job.workspace }), createSandbox: () => createPyodideSandbox() };
        try {
          send({ type: 'result', record: await runJob(m.job, deps, meter, undefined, ac.signal) });
        } catch (err) {
          send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
        }
      });
    }
  });
  await new Promise<void>((resolve) => process.once('disconnect', () => resolve()));
  await chain;
  return 0;
}

export const sweepWorkerCmd = defineCommand({
  name: 'sweep-worker',
  summary: 'a sweep worker process (started by waypoint sweep over IPC)',
  options: {},
  hidden: true,
  run: () => sweepWorkerCommand(),
});

// `waypoint sweep-worker`: the child side of src/core/sweep/childWorker.ts (started by `waypoint sweep` with an IPC
// channel; not for people). It runs jobs one at a time until the channel closes, keeping its sandbox and simulator
// warm between episodes (WarmWorkerResources: the sandbox reset between episodes, the embedded simulator kept).
import { architectures } from '../architectures/registry.js';
import { nodeClock, nodeIO } from '../core/node/nodeHost.js';
import { createPyodideSandbox } from '../core/sandbox/index.js';
import { connectSimulator } from '../core/sim/connect.js';
import type { ChildToParent, ParentToChild } from '../core/sweep/childWorker.js';
import { WarmWorkerResources } from '../core/sweep/warmDeps.js';
import { runJob } from '../core/sweep/workers.js';
import { whileCleaningUp } from './lifecycle.js';
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
  const warm = new WarmWorkerResources(
    { io: nodeIO, clock: nodeClock, architectures },
    { createSandbox: () => createPyodideSandbox(), connect: (spec, o) => connectSimulator(spec, o), log: (line) => process.stderr.write(`sweep worker ${process.pid}: ${line}\n`) },
  );
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
        try {
          send({ type: 'result', record: await runJob(m.job, warm.depsFor(m.job), meter, undefined, ac.signal) });
        } catch (err) {
          send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
        }
      });
    }
  });
  // Ctrl-C reaches this process too (the terminal signals the whole group): cancel the episode in flight, whose
  // record then says 'cancelled' (the parent keeps no such record), and stay until the parent disconnects.
  return whileCleaningUp(async (signal) => {
    signal.addEventListener('abort', () => ac?.abort(), { once: true });
    await new Promise<void>((resolve) => process.once('disconnect', () => resolve()));
    await chain;
    await warm.close();
    return 0;
  });
}

export const sweepWorkerCmd = defineCommand({
  name: 'sweep-worker',
  summary: 'a sweep worker process (started by waypoint sweep over IPC)',
  options: {},
  hidden: true,
  run: () => sweepWorkerCommand(),
});

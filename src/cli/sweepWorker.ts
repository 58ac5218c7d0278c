// `waypoint sweep-worker`: the child side of src/core/sweep/childWorker.ts (started by `waypoint sweep` with an IPC
// channel; not for people). It runs up to `--slots` jobs at once until the channel closes, keeping its sandbox and
// simulators warm between episodes (WarmWorkerResources: with several slots, one Pyodide interpreter with a
// namespace per episode and a simulator per episode on the one MuJoCo module).
import { architectures } from '../architectures/registry.js';
import { nodeClock, nodeIO } from '../core/node/nodeHost.js';
import { createPyodideSandbox } from '../core/sandbox/index.js';
import { connectSimulator } from '../core/sim/connect.js';
import { SLOTS_FLAG, type ChildToParent, type ParentToChild } from '../core/sweep/childWorker.js';
import { WarmWorkerResources } from '../core/sweep/warmDeps.js';
import { runJob } from '../core/sweep/workers.js';
import { whileCleaningUp } from './lifecycle.js';
import { defineCommand } from './options.js';
import { registerWorkspaceArchitectures } from '../architectures/workspace.js';

export async function sweepWorkerCommand(slotsText?: string): Promise<number> {
  if (!process.send) {
    process.stderr.write('waypoint sweep-worker: started without an IPC channel (it is run by `waypoint sweep`)\n');
    return 2;
  }
  const slots = slotsText === undefined ? 1 : Number(slotsText);
  if (!Number.isInteger(slots) || slots < 1) {
    process.stderr.write(`waypoint sweep-worker: ${SLOTS_FLAG} must be a positive integer, got '${slotsText}'\n`);
    return 2;
  }
  // The CLI's lifecycle unrefs a parent's IPC channel (so helpers like demo's serve-model do not keep a process
  // alive); a sweep worker lives for that channel: keep it referenced until the parent disconnects.
  process.channel?.ref();
  const send = (m: ChildToParent) => process.send!(m);
  let nextGrant = 1;
  const grants = new Map<number, () => void>();
  const running = new Map<number, { ac: AbortController; done: Promise<void> }>();
  const warm = new WarmWorkerResources(
    { io: nodeIO, clock: nodeClock, architectures },
    { createSandbox: () => createPyodideSandbox(), connect: (spec, o) => connectSimulator(spec, o), log: (line) => process.stderr.write(`sweep worker ${process.pid}: ${line}\n`) },
    slots,
  );
  const meterOf = (jobId: number) => ({
    acquire: (est: number) =>
      new Promise<{ settle(tokens: number): void }>((resolve) => {
        const id = nextGrant++;
        grants.set(id, () => resolve({ settle: (tokens) => send({ type: 'settle', jobId, id, tokens }) }));
        send({ type: 'acquire', jobId, id, est });
      }),
    spent: (promptTokens: number, completionTokens: number) => send({ type: 'spent', jobId, promptTokens, completionTokens }),
  });
  // The sweep's architecture may be one its workspace brings: loaded once per workspace, even when several jobs
  // arrive at once.
  const registered = new Map<string, Promise<unknown>>();
  const register = (workspace: string) => {
    let p = registered.get(workspace);
    if (!p) registered.set(workspace, (p = registerWorkspaceArchitectures(workspace)));
    return p;
  };
  process.on('message', (m: ParentToChild) => {
    if (m.type === 'grant') {
      grants.get(m.id)?.();
      grants.delete(m.id);
    } else if (m.type === 'cancel') running.get(m.jobId)?.ac.abort();
    else if (m.type === 'job') {
      const ac = new AbortController();
      const done = (async () => {
        try {
          await register(m.job.workspace);
          send({ type: 'result', jobId: m.jobId, record: await runJob(m.job, warm.depsFor(m.job), meterOf(m.jobId), undefined, ac.signal) });
        } catch (err) {
          send({ type: 'failed', jobId: m.jobId, message: err instanceof Error ? err.message : String(err) });
        } finally {
          running.delete(m.jobId);
        }
      })();
      running.set(m.jobId, { ac, done });
    }
  });
  // Ctrl-C reaches this process too (the terminal signals the whole group): cancel the episodes in flight, whose
  // records then say 'cancelled' (the parent keeps no such record), and stay until the parent disconnects.
  return whileCleaningUp(async (signal) => {
    signal.addEventListener('abort', () => running.forEach((r) => r.ac.abort()), { once: true });
    await new Promise<void>((resolve) => process.once('disconnect', () => resolve()));
    await Promise.allSettled([...running.values()].map((r) => r.done));
    await warm.close();
    return 0;
  });
}

export const sweepWorkerCmd = defineCommand({
  name: 'sweep-worker',
  summary: 'a sweep worker process (started by waypoint sweep over IPC)',
  options: { slots: { type: 'string', metavar: 'n', help: 'episodes at once in this process (default 1)' } },
  hidden: true,
  run: ({ values }) => sweepWorkerCommand(values.slots),
});

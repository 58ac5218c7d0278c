// A run killed with SIGKILL mid-episode (`node dist/cli.mjs run ...` in a temporary workspace) and re-opened:
// readTrace returns its events with at most one truncated-last-line warning, `waypoint runs` lists it as
// incomplete, `waypoint show` prints it, no process it started is left behind, and the next run in the same
// workspace succeeds.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readTrace } from '../../../src/core/trace/reader.js';
import { checkCliExit, cliEnv, runCli, startCli } from '../helpers/cli.js';
import { startFakeModelServer, type FakeModelServer, type ModelCall, type Reply } from '../helpers/fakeModelServer.js';
import { faultCase, knownBug, RECORDED } from '../helpers/harness.js';
import { FAKE_KEY } from '../helpers/isolate.js';
import { becomes, cpuTicks, descendants, isAlive, waitFor } from '../helpers/procs.js';

const WORKER = 'sandboxWorker.mjs';

/**
 * Starts `waypoint run` against a fake endpoint answering with `behave`, waits for `ready(pid)`, SIGKILLs it and
 * returns the workspace's single run id, the sandbox workers it had, and its output.
 */
async function killMidRun(ws: string, behave: (c: ModelCall) => Reply, ready: (server: FakeModelServer, cliPid: number) => Promise<void>, extraArgs: string[] = []) {
  const server = await startFakeModelServer(behave);
  try {
    const { child, done } = startCli(['run', '--workspace', ws, '--model', 'openai:fault-model', '--base-url', server.url, ...extraArgs], { cwd: ws, env: cliEnv({ OPENAI_API_KEY: FAKE_KEY }) });
    await Promise.race([ready(server, child.pid!), done.then((r) => Promise.reject(new Error(`the CLI exited before the kill: ${r.status}\n${r.stdout}\n${r.stderr}`)))]);
    const workers = descendants(child.pid!, WORKER);
    child.kill('SIGKILL');
    const out = await done;
    assert.equal(out.signal, 'SIGKILL', `the CLI was still running when killed (exit ${out.status}; ${out.stderr.slice(0, 300)})`);
    checkCliExit('waypoint run (killed)', out, 'SIGKILL');
    assert.ok(!out.stdout.includes(FAKE_KEY) && !out.stderr.includes(FAKE_KEY), 'the key is not in the CLI output');
    const ids = readdirSync(join(ws, '.waypoint', 'runs'));
    assert.equal(ids.length, 1);
    return { runId: ids[0], workers };
  } finally {
    await server.close();
  }
}

/** Re-open a killed run: the trace reads, `runs` says incomplete, `show` prints it; then a new CLI run succeeds. */
function reopen(ws: string, runId: string): void {
  const text = readFileSync(join(ws, '.waypoint', 'runs', runId, 'trace.jsonl'), 'utf8');
  const { events, warnings } = readTrace(text);
  assert.ok(warnings.length <= 1, JSON.stringify(warnings));
  if (warnings.length) assert.equal(warnings[0].kind, 'truncated_last_line');
  assert.equal(events[0]?.type, 'episode_start');
  assert.ok(events.some((e) => e.type === 'code_execution'), 'the run was mid-episode: code had run');
  assert.ok(!events.some((e) => e.type === 'episode_end'));

  const runs = runCli(['runs', '--workspace', ws], { cwd: ws, env: cliEnv() });
  assert.equal(runs.status, 0, runs.stderr);
  assert.match(runs.stdout, new RegExp(`^${runId}\\s+incomplete\\s`, 'm'));

  const show = runCli(['show', runId, '--workspace', ws], { cwd: ws, env: cliEnv() });
  assert.equal(show.status, 0, show.stderr);
  assert.match(show.stdout, new RegExp(`Waypoint run ${runId}`));
  assert.match(show.stdout, /ran coder's block/);
  assert.match(show.stdout, /the trace has no episode_end: the run was interrupted or is still running/);

  // The next run in the same workspace, by the CLI as a user would start it.
  const next = runCli(['run', '--workspace', ws, '--model', 'reference', '--quiet'], { cwd: ws, env: cliEnv() });
  assert.equal(next.status, 0, `next run: exit ${next.status}\n${next.stdout}\n${next.stderr}`);
  assert.match(next.stdout, /SUCCESS · task_completed/);
  const after = runCli(['runs', '--workspace', ws], { cwd: ws, env: cliEnv() });
  assert.equal(after.stdout.trim().split('\n').length, 3, 'a header row and two runs');
  assert.match(after.stdout, /\ssuccess\s/);
  assert.match(after.stdout, new RegExp(`^${runId}\\s+incomplete\\s`, 'm'));
}

export function killedRunCases(): void {
  describe('a run killed with SIGKILL mid-episode, then re-opened', () => {
    it('killed while waiting for the model: the trace re-opens, `runs` says incomplete, `show` prints it, the next run succeeds', () =>
      faultCase('killed-waiting', async (ws) => {
        const { runId, workers } = await killMidRun(
          ws,
          // The 8th call never gets an answer: by then code has run, and the CLI is blocked on the model.
          (c) => (c.index >= 8 ? { kind: 'hang' } : { kind: 'reference' }),
          (server) => server.arrived(8),
        );
        // The sandbox worker sees its pipe close and exits by itself.
        for (const pid of workers) assert.ok(await becomes(() => !isAlive(pid), 10_000), `sandbox worker ${pid} exited after the CLI was killed`);
        reopen(ws, runId);
        return RECORDED;
      }));

    it('killed while the sandbox runs an endless block: the worker does not outlive the CLI', () =>
      knownBug(() =>
        faultCase('killed-spinning', async (ws) => {
          const orphans: number[] = [];
          let loopCall = 0;
          try {
            const { runId, workers } = await killMidRun(
              ws,
              (c) => {
                if (c.role !== 'malmm/coder' || c.roleIndex !== 2) return { kind: 'reference' };
                loopCall = c.index;
                return { kind: 'text', text: '```python\nwhile True:\n    pass\n```' };
              },
              async (server, cliPid) => {
                // The Supervisor call after the endless block's Coder call routes to the Executor, which runs it;
                // then the warm worker's CPU time climbs.
                await waitFor(() => loopCall > 0 && server.calls.length > loopCall, 'the call after the endless block', 60_000);
                await waitFor(() => spinning(cliPid), 'the endless block to spin', 60_000);
              },
              ['--code-timeout', '120'],
            );
            assert.equal(workers.length, 1);
            orphans.push(...workers);
            assert.ok(await becomes(() => !isAlive(workers[0]), 5000), `sandbox worker ${workers[0]} is still running after its CLI was killed`);
            reopen(ws, runId);
            return RECORDED;
          } finally {
            // Clean up only the worker this case started, by its pid.
            for (const pid of orphans) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
          }
        }),
      ));
  });
}

const lastTicks = new Map<number, number>();
/** True once a worker under `cliPid` has used more than 0.3 s of CPU since the previous look. */
function spinning(cliPid: number): boolean {
  return descendants(cliPid, WORKER).some((pid) => {
    const now = cpuTicks(pid);
    const before = lastTicks.get(pid);
    if (before === undefined) lastTicks.set(pid, now);
    return before !== undefined && now - before > 30;
  });
}

// Simulator faults over the simulator protocol: launchRun gets a RemoteSimulator factory (deps.createSimulator)
// whose stdio server (fixtures/faultySim.ts, the real MuJoCo tabletop behind a fault-injecting transport) crashes
// mid-execute, answers late, writes malformed JSON-RPC, answers with the wrong shape, an error or a wrong id, or
// never starts. The reference model drives the episode, so the fault hits a run that was going well.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { RemoteSimulator } from '../../../src/core/sim/remote/index.js';
import { ROOT } from '../helpers/isolate.js';
import { expectFailedEnd, faultCase, knownBug, ofType, PACKAGE_ROOT, RECORDED, type Run } from '../helpers/harness.js';
import { REFERENCE, runAgainst } from './modelFaults.js';

const FIXTURE = join(PACKAGE_ROOT, 'test', 'faults', 'fixtures', 'faultySim.ts');
// The fixture is bundled once (MuJoCo included): a server then starts in under a second instead of ~3 s via tsx.
const BUNDLE = join(ROOT, 'faultySim.mjs');

function remote(mode: string, method: string, n: number, actTimeoutSecs = 20) {
  return () =>
    RemoteSimulator.connect(`stdio:${process.execPath} ${BUNDLE} ${mode} ${method} ${n}`, {
      cwd: PACKAGE_ROOT,
      timeoutSecs: 30,
      methodTimeoutSecs: { act: actTimeoutSecs },
    });
}

/** An episode on the faulty remote simulator, driven by the reference policies behind the fake endpoint (with the key). */
async function remoteRun(workspace: string, mode: string, method: string, n: number, actTimeoutSecs?: number): Promise<Run> {
  const { run } = await runAgainst(workspace, () => REFERENCE, { deps: { createSimulator: remote(mode, method, n, actTimeoutSecs) } });
  return run;
}

/** The failed API call inside the block that was running when the simulator failed. */
function failedApiCall(run: Run, error: RegExp): void {
  const execs = ofType(run.events, 'code_execution');
  assert.ok(execs.length >= 1, 'a code block was running');
  const last = execs.at(-1)!;
  assert.equal(last.ok, false, 'the block failed');
  const bad = last.apiCalls.filter((c) => !c.ok);
  assert.equal(bad.length, 1, 'one failed API call');
  assert.match(bad[0].error ?? '', error);
  // Earlier blocks ran on the same simulator: the fault hit mid-episode.
  assert.ok(execs.slice(0, -1).some((e) => e.ok && e.apiCalls.length > 0), 'earlier blocks moved the robot');
}

export function simulatorFaultCases(): void {
  describe('simulator protocol faults (RemoteSimulator over stdio)', () => {
    before(async () => {
      await build({
        entryPoints: [FIXTURE],
        outfile: BUNDLE,
        bundle: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        logLevel: 'warning',
        banner: { js: "import { createRequire as __faultsRequire } from 'node:module'; const require = __faultsRequire(import.meta.url);" },
      });
    });

    it('the simulator process crashes mid-execute: the API call fails with its exit status and stderr, simulator_error', () =>
      faultCase('sim-crash', async (ws) => {
        const run = await remoteRun(ws, 'crash', 'act', 3);
        expectFailedEnd(run, 'simulator_error', /simulator failed during code execution: .*disconnected during act\(\w+\): exited with code 3; stderr: .*Segmentation fault/);
        failedApiCall(run, /^simulator failure: .*exited with code 3/);
        // The success check could not run either, and says so.
        assert.ok(ofType(run.events, 'error').some((e) => /success check failed: .*is disconnected/.test(e.message)));
        return RECORDED;
      }));

    it('the simulator answers late: the call times out, simulator_error; the late answer is ignored', () =>
      faultCase('sim-late', async (ws) => {
        const run = await remoteRun(ws, 'late', 'act', 3, 3);
        expectFailedEnd(run, 'simulator_error', /did not answer act\(\w+\) within 3 s/);
        failedApiCall(run, /did not answer act\(\w+\) within 3 s/);
        // The server is still up: the success check ran and is recorded.
        assert.equal(ofType(run.events, 'check').at(-1)?.name, 'task_success');
        return RECORDED;
      }));

    it('the simulator writes a line that is not JSON-RPC: the connection is dropped, simulator_error names the line', () =>
      faultCase('sim-garbage', async (ws) => {
        const run = await remoteRun(ws, 'garbage', 'act', 3);
        expectFailedEnd(run, 'simulator_error', /sent malformed JSON-RPC during act\(\w+\): not JSON: 'Warning: physics plugin reloaded'/);
        failedApiCall(run, /malformed JSON-RPC/);
        return RECORDED;
      }));

    it('the simulator answers with a result of the wrong shape: simulator_error names the field', () =>
      faultCase('sim-badresult', async (ws) => {
        const run = await remoteRun(ws, 'badresult', 'act', 3);
        expectFailedEnd(run, 'simulator_error', /sent an invalid act result/);
        failedApiCall(run, /invalid act result/);
        return RECORDED;
      }));

    it('the simulator answers with a JSON-RPC error (it raised): simulator_error with its message', () =>
      faultCase('sim-rpcerror', async (ws) => {
        const run = await remoteRun(ws, 'rpcerror', 'act', 3);
        expectFailedEnd(run, 'simulator_error', /act\(\w+\) failed: IndexError: contact buffer overflow/);
        failedApiCall(run, /contact buffer overflow/);
        return RECORDED;
      }));

    it('the simulator answers with a wrong request id: the answer is ignored and the call times out, simulator_error', () =>
      faultCase('sim-wrongid', async (ws) => {
        const run = await remoteRun(ws, 'wrongid', 'act', 3, 3);
        expectFailedEnd(run, 'simulator_error', /did not answer act\(\w+\) within 3 s/);
        return RECORDED;
      }));

    it('the simulator crashes on reset: simulator_error before the episode starts, no success check', () =>
      faultCase('sim-crash-reset', async (ws) => {
        const run = await remoteRun(ws, 'crash', 'reset', 1);
        expectFailedEnd(run, 'simulator_error', /disconnected during reset\(stack_blocks\): exited with code 3/);
        assert.equal(ofType(run.events, 'check').length, 0);
        assert.equal(ofType(run.events, 'role_call').length, 0);
        return RECORDED;
      }));

    it('the simulator crashes while the engine reads the new state after a block: labelled simulator_error', () =>
      knownBug(() => faultCase('sim-crash-observe', async (ws) => {
        const run = await remoteRun(ws, 'crash', 'drain_trajectory', 2);
        // Whether the exit is seen before the call or during it is a race; either message names the call and the cause.
        expectFailedEnd(run, 'simulator_error', /disconnected during drain_trajectory|is disconnected \(exited with code 3[^)]*\); cannot drain_trajectory/);
        return RECORDED;
      })));

    it('the simulator exits before initialize: the run is still recorded, as a simulator_error with its stderr', () =>
      knownBug(() => faultCase('sim-noinit', async (ws) => {
        const run = await remoteRun(ws, 'noinit', 'initialize', 1);
        expectFailedEnd(run, 'simulator_error', /exited with code 2; stderr: .*ImportError: No module named rlbench/);
        return RECORDED;
      })));
  });
}

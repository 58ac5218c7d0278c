// Every architecture on the embedded MuJoCo tabletop runs with friction grasps by default (issue 25): `waypoint
// run` with the reference model, one task each, says so in the run header and in the trace's simulator line;
// --grasp weld and --motion straight are named there instead.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { BUILT_IN_MANIFESTS } from '../../../src/architectures/manifests.js';
import { freshCli } from '../../helpers/dist.js';

const cli = freshCli();
const ws = mkdtempSync(join(tmpdir(), 'waypoint-grasp-'));
after(() => rmSync(ws, { recursive: true, force: true }));
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: ws, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

/** A short task per tabletop architecture. */
const TASKS: Record<string, string> = { malmm: 'pick_and_lift', roco: 'handover', actctx: 'ac_single_paper_ball_1', trajgen: 'knock_over_can' };

function simulatorLine(stdout: string): { header: string; version: string } {
  const header = stdout.split('\n').find((l) => l.startsWith('  simulator ')) ?? '';
  const trace = /^trace: (.+trace\.jsonl)$/m.exec(stdout)?.[1];
  assert.ok(trace, stdout);
  const start = JSON.parse(readFileSync(trace, 'utf8').split('\n')[0]!) as { type: string; simulator: { version?: string } };
  assert.equal(start.type, 'episode_start');
  return { header, version: start.simulator.version ?? '' };
}

test('every tabletop architecture runs with friction grasps by default, as its trace says', () => {
  const tabletop = BUILT_IN_MANIFESTS.filter((m) => m.simulator === 'tabletop').map((m) => m.id);
  assert.deepEqual([...tabletop].sort(), Object.keys(TASKS).sort(), 'a task for each tabletop architecture');
  for (const arch of tabletop) {
    const r = run('run', '--arch', arch, '--task', TASKS[arch]!, '--model', 'reference', '--quiet');
    assert.equal(r.status, 0, `${arch}: ${r.stderr}`);
    const { version } = simulatorLine(r.stdout);
    assert.match(version, /^MuJoCo [\d.]+ \(mujoco-js\), friction grasps, planned execute_trajectory, robot: each task's own arm \(Franka-class with a parallel gripper on single-arm tasks\)$/, arch);
  }
});

test('the run header names the grasp model and the motion, as the trace does; --grasp weld --motion straight say so', () => {
  const r = run('run', '--arch', 'malmm', '--task', 'pick_and_lift', '--model', 'reference', '--grasp', 'weld', '--motion', 'straight');
  assert.equal(r.status, 0, r.stderr);
  const { header, version } = simulatorLine(r.stdout);
  assert.match(version, /^MuJoCo [\d.]+ \(mujoco-js\), weld grasps, straight-line execute_trajectory, robot: each task's own arm /);
  assert.equal(header, `  simulator waypoint-tabletop · ${version}`);
});

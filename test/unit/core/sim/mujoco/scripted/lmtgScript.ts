// Scripted (non-LLM) policies through the public LMTG API: detect_object print-outs parsed back, dense
// straight-line trajectories built the way the paper's generated code builds them.
import assert from 'node:assert/strict';
import type { ApiCallResult, Simulator } from '../../../../../../src/core/sim/simulator.js';

export type Pose = [number, number, number, number];

export interface Detected {
  pos: [number, number, number];
  width: number;
  length: number;
  height: number;
  /** Yaw of the longer side. */
  yawWidth: number;
  yawLength: number;
}

export async function lcall(sim: Simulator, fn: string, args: unknown[]): Promise<ApiCallResult> {
  const r = await sim.call(fn, args);
  assert.equal(r.ok, true, `${fn}: ${r.ok ? '' : r.error}`);
  return r;
}

/** Calls detect_object and parses its first block. */
export async function detect(sim: Simulator, query: string): Promise<Detected> {
  const r = await lcall(sim, 'detect_object', [query]);
  const text = r.ok ? (r.output ?? '') : '';
  const num = (re: RegExp) => Number(re.exec(text)![1]);
  const pos = /Position of [^:]+: \[([^\]]+)\]/.exec(text);
  assert.ok(pos, `detect_object(${query}) printed: ${text}`);
  return {
    pos: pos[1]!.split(',').map(Number) as [number, number, number],
    width: num(/Width: (-?[\d.]+)/),
    length: num(/Length: (-?[\d.]+)/),
    height: num(/Height: (-?[\d.]+)/),
    yawWidth: num(/longer side \(width\): (-?[\d.]+)/),
    yawLength: num(/shorter side \(length\): (-?[\d.]+)/),
  };
}

/** n points from a to b, both ends included (the paper's generate_linear_trajectory). */
export function line(a: Pose, b: Pose, n = 50): Pose[] {
  return Array.from({ length: n }, (_, i) => a.map((v, k) => v + ((b[k]! - v) * (i + 1)) / n) as Pose);
}

export async function eePose(sim: Simulator): Promise<Pose> {
  const ee = (await sim.observe()).state.ee;
  return [ee.pos[0], ee.pos[1], ee.pos[2], ee.yawRad];
}

/** Runs a dense trajectory; returns the last pose. */
export async function run(sim: Simulator, poses: Pose[]): Promise<Pose> {
  await lcall(sim, 'execute_trajectory', [poses]);
  return poses[poses.length - 1]!;
}

/** Straight lines through waypoints from the current pose. */
export async function through(sim: Simulator, waypoints: Pose[], perSegment = 40): Promise<Pose> {
  let from = await eePose(sim);
  const poses: Pose[] = [];
  for (const w of waypoints) {
    poses.push(...line(from, w, perSegment));
    from = w;
  }
  return run(sim, poses);
}

/** Top-down grasp at `at` with `yaw`: above, down, close, up to `liftZ`. Asserts the grasp. */
export async function grasp(sim: Simulator, at: [number, number, number], yaw: number, liftZ: number): Promise<void> {
  await through(sim, [
    [at[0], at[1], at[2] + 0.1, yaw],
    [at[0], at[1], at[2], yaw],
  ]);
  const r = await lcall(sim, 'close_gripper', []);
  assert.match(r.ok ? (r.output ?? '') : '', /close_gripper: grasped/);
  await through(sim, [[at[0], at[1], liftZ, yaw]]);
}

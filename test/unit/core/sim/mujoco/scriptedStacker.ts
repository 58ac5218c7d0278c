// A scripted (non-LLM) MALMM-API policy for stack_blocks, used by tests and the benchmark. It reads only the
// text observation, as an LLM agent would (the Color fields say which blocks to stack), and follows MALMM's
// pick-and-place rules (safe distance 0.1 m, grasp at the centre, release 0.02 m above the destination's top).
import type { ApiCallResult, Simulator } from '../../../../../src/core/sim/simulator.js';
import { parseMalmmState } from '../../../../../src/core/sim/observationText.js';

export interface ScriptedCall {
  fn: string;
  args: unknown[];
  result: ApiCallResult;
}

/** Cube yaw folded into [-pi/4, pi/4] (a cube looks the same every quarter turn). */
export function cubeYaw(yaw: number): number {
  let a = yaw;
  while (a > Math.PI / 4) a -= Math.PI / 2;
  while (a < -Math.PI / 4) a += Math.PI / 2;
  return a;
}

/** Plans the eight calls that move `name` to level `level` of the stack on `baseName` (a block, or the flat target area: level 1 stands on it). */
export async function pickAndStack(sim: Simulator, name: string, baseName: string, level: number): Promise<ScriptedCall[]> {
  const s = parseMalmmState((await sim.observe()).text);
  const b = s.objects.find((o) => o.name === name)!;
  const base = s.objects.find((o) => o.name === baseName)!;
  const h = b.size[2];
  const top = base.pos[2] + base.size[2] / 2 + (level - 1) * h;
  const yaw = cubeYaw(b.euler[2]);
  const baseYaw = cubeYaw(base.euler[2]);
  const safeZ = Math.max(b.pos[2], top + h / 2 + 0.02) + 0.1;
  const releaseZ = top + h / 2 + 0.02;
  const plan: [string, unknown[]][] = [
    ['execute_trajectory', [[b.pos[0], b.pos[1], b.pos[2] + 0.1], yaw]],
    ['execute_trajectory', [[b.pos[0], b.pos[1], b.pos[2]], yaw]],
    ['close_gripper', [name]],
    ['execute_trajectory', [[b.pos[0], b.pos[1], safeZ], yaw]],
    ['execute_trajectory', [[base.pos[0], base.pos[1], safeZ], baseYaw]],
    ['execute_trajectory', [[base.pos[0], base.pos[1], releaseZ], baseYaw]],
    ['open_gripper', []],
    ['execute_trajectory', [[base.pos[0], base.pos[1], releaseZ + 0.1], baseYaw]],
  ];
  const out: ScriptedCall[] = [];
  for (const [fn, args] of plan) out.push({ fn, args, result: await sim.call(fn, args) });
  return out;
}

/** Stacks every block of `color` on the base (the target area), in scene order. Returns every call made. */
export async function scriptedStack(sim: Simulator, baseName = 'target area', color = 'red'): Promise<ScriptedCall[]> {
  const s = parseMalmmState((await sim.observe()).text);
  const calls: ScriptedCall[] = [];
  let level = 1;
  for (const o of s.objects) {
    if (o.name === baseName || o.color !== color) continue;
    calls.push(...(await pickAndStack(sim, o.name, baseName, level)));
    level++;
  }
  return calls;
}

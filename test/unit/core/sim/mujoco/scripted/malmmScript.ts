// Scripted (non-LLM) policies through the public MALMM API, for task tests. They read the observation the way
// an agent would and call execute_trajectory / open_gripper / close_gripper.
import assert from 'node:assert/strict';
import type { ApiCallResult, Simulator } from '../../../../../../src/core/sim/simulator.js';
import type { ObjectState, WorldState } from '../../../../../../src/protocol/trace.js';

export type Xyz = [number, number, number];

export async function world(sim: Simulator): Promise<WorldState> {
  return (await sim.observe()).state;
}

export async function obj(sim: Simulator, name: string): Promise<ObjectState> {
  const o = (await world(sim)).objects.find((x) => x.name === name);
  assert.ok(o, `no object '${name}'`);
  return o;
}

/** Yaw folded into [-pi/4, pi/4] for square things. */
export function squareYaw(yaw: number): number {
  let a = yaw;
  while (a > Math.PI / 4) a -= Math.PI / 2;
  while (a < -Math.PI / 4) a += Math.PI / 2;
  return a;
}

export async function call(sim: Simulator, fn: string, args: unknown[]): Promise<ApiCallResult> {
  const r = await sim.call(fn, args);
  assert.equal(r.ok, true, `${fn}(${JSON.stringify(args)}): ${r.ok ? '' : r.error}`);
  return r;
}

export const move = (sim: Simulator, p: Xyz, yaw: number) => call(sim, 'execute_trajectory', [p, yaw]);

/** Grasps `name` at `graspAt` (default: its centre) with `yaw`, lifts to `liftZ`. Asserts the grasp. */
export async function pick(sim: Simulator, name: string, options: { at?: Xyz; yaw?: number; liftZ?: number } = {}): Promise<void> {
  const o = await obj(sim, name);
  const at = options.at ?? o.pos;
  const yaw = options.yaw ?? squareYaw(o.euler[2]);
  await move(sim, [at[0], at[1], at[2] + 0.1], yaw);
  await move(sim, at, yaw);
  await call(sim, 'close_gripper', [name]);
  assert.equal((await world(sim)).grasped, name, `${name} grasped`);
  await move(sim, [at[0], at[1], options.liftZ ?? Math.max(at[2] + 0.1, 0.95)], yaw);
}

/** Carries the held object so the tool ends at `to` (above at `transitZ` first), opens, backs off upward. */
export async function placeAt(sim: Simulator, to: Xyz, yaw: number, transitZ = 0.95): Promise<void> {
  await move(sim, [to[0], to[1], Math.max(transitZ, to[2])], yaw);
  await move(sim, to, yaw);
  await call(sim, 'open_gripper', []);
  await move(sim, [to[0], to[1], Math.max(transitZ, to[2] + 0.1)], yaw);
}

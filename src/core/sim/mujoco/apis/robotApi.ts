// A robot API is the set of functions generated code may call (MALMM's execute_trajectory & co today;
// LMTG dense poses, Action Contextualization skills and RoCo actions next). Each API validates its own
// arguments and maps calls onto the arm controllers; the simulator only routes.
import type { ActionMetrics } from '../../../metrics/motionMetrics.js';
import type { ApiCallResult, ApiFunctionSpec } from '../../simulator.js';
import type { ContactMonitor, Collision } from '../contactMonitor.js';
import type { ArmController } from '../robot/armController.js';
import type { SceneModel } from '../sceneModel.js';
import type { SimState } from '../simState.js';

export interface RobotApiContext {
  scene: SceneModel;
  state: SimState;
  arms: ArmController[];
  contacts: ContactMonitor;
  /** Motion metrics of the episode's measured actions so far (the current one is not in it yet). */
  actionMetrics: readonly ActionMetrics[];
}

/**
 * What an API call returns inside the simulator. Beyond the interface's ApiCallResult: `value` is the function's
 * Python return value (checks return bools/strings), `metrics` the action's motion metrics (added by the
 * simulator), and `motionFailed` marks a physical failure (e.g. IK) that still counts as an action in the plan score.
 */
export type SimCallResult = ApiCallResult & { value?: boolean | number | string | null; metrics?: ActionMetrics; motionFailed?: boolean };

export interface RobotApi {
  id: string;
  description: string;
  functions: ApiFunctionSpec[];
  /** Functions that move the robot: measured for motion metrics (the rest are queries or signals). */
  measured: ReadonlySet<string>;
  call(ctx: RobotApiContext, fn: string, args: unknown[]): SimCallResult;
}

/**
 * Runs a physical action while watching contacts. `allowed[arm]` lists objects that arm may touch without it
 * counting as a collision. Collisions become both structured results and warning lines.
 */
export function watchCollisions<T>(ctx: RobotApiContext, allowed: Set<number>[], action: () => T): { value: T; collisions: Collision[]; warnings: string[] } {
  ctx.contacts.begin(allowed);
  const value = action();
  const collisions = ctx.contacts.end().map((c) => ({ ...c, tSecs: Math.round(c.tSecs * 1000) / 1000 }));
  const warnings = collisions.map((c) => `collision: ${c.a} <-> ${c.b} at t=${c.tSecs.toFixed(2)} s`);
  return { value, collisions, warnings };
}

/** Objects an arm may touch during any call: the one it holds. */
export function heldObjects(ctx: RobotApiContext): Set<number>[] {
  return ctx.state.grasps.map((g) => new Set(g ? [g.object] : []));
}

// A robot API is the set of functions generated code may call (MALMM's execute_trajectory & co today;
// LMTG dense poses, Action Contextualization skills and RoCo actions next). Each API validates its own
// arguments and maps calls onto the arm controllers; the simulator only routes.
import type { ActionMetrics } from '../../../metrics/motionMetrics.js';
import type { DetectorMode } from '../../../perception/detector.js';
import type { ApiCallResult, ApiFunctionSpec } from '../../simulator.js';
import type { ContactMonitor, Collision } from '../contactMonitor.js';
import type { ArmController } from '../robot/armController.js';
import type { ConfigChecker } from '../robot/configChecker.js';
import type { ObstacleField } from '../robot/obstacleField.js';
import type { MotionProbe } from '../motionProbe.js';
import type { SceneModel } from '../sceneModel.js';
import type { SimState } from '../simState.js';
import type { TaskDefinition, TaskGoal } from '../tasks/taskDefinition.js';

export interface RobotApiContext {
  scene: SceneModel;
  state: SimState;
  arms: ArmController[];
  contacts: ContactMonitor;
  /** Motion metrics of the episode's measured actions so far (the current one is not in it yet). */
  actionMetrics: readonly ActionMetrics[];
  /** The task being run (its locations) and this episode's goal. */
  task?: TaskDefinition;
  goal?: TaskGoal;
  /** Static collision checks of arm configurations (scratch data; never moves the simulation). */
  checker: ConfigChecker;
  /** Link-obstacle distances with joint-space gradients (the modulated joint-space DS of actctx skills). */
  obstacles: ObstacleField;
  /** The motion-metrics probe (skills say which grasp target still counts in M_E). */
  probe: MotionProbe;
  /** Per-episode memory of the API (e.g. the last skill's outcome for the checks); plain JSON, reset with the episode. */
  memory: Record<string, unknown>;
  /** What detect_object reports: ground truth, or the seeded detector model's estimate (src/core/perception/detector.ts). */
  perception?: { mode: DetectorMode; seed: number };
  /** How MALMM's execute_trajectory moves: planned around obstacles (default) or in a straight line. */
  motion?: 'planned' | 'straight';
}

/**
 * What an API call returns inside the simulator. Beyond the interface's ApiCallResult: `value` is the function's
 * Python return value (checks return bools/strings), `metrics` the action's motion metrics (added by the
 * simulator), `motionFailed` marks a physical failure (e.g. IK) that still counts as an action in the plan score,
 * and `unmeasured` a call of a measured function that turned out not to be an action (a rejected RoCo plan).
 */
export type SimCallResult = ApiCallResult & {
  value?: boolean | number | string | null;
  metrics?: ActionMetrics;
  motionFailed?: boolean;
  unmeasured?: boolean;
  /** RoCo: the verdict of each plan check (skipped: an earlier one failed). */
  checks?: { name: string; ok: boolean; message?: string; skipped?: boolean }[];
  /** RoCo: the plan passed its checks and was run (false: the multi-arm planner found no path; nothing moved). */
  executed?: boolean;
  /** RoCo: how the joint approach was planned. */
  motion?: { kind: string; iterations: number; checks: number };
  /** RoCo: failures of single robots during execution, by robot. */
  robotErrors?: Record<string, string[]>;
};

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
  ctx.contacts.begin(allowed, ctx.state);
  ctx.state.graspLosses = [];
  const value = action();
  const collisions = ctx.contacts.end().map((c) => ({ ...c, tSecs: Math.round(c.tSecs * 1000) / 1000 }));
  // Friction grasps that slipped during the action: the observation shows the object no longer held.
  const drops = ctx.state.graspLosses.map((l) => `grasp: ${ctx.scene.objects[l.object]!.name} slipped out of the gripper at t=${l.tSecs.toFixed(2)} s`);
  ctx.state.graspLosses = [];
  return { value, collisions, warnings: [...collisions.map(collisionLine), ...drops] };
}

/** The code-output line of a collision: the pair, when, and how deep (millimetres). */
export function collisionLine(c: Collision): string {
  return `collision: ${c.a} <-> ${c.b} at t=${c.tSecs.toFixed(2)} s${c.depthM !== undefined ? `, depth ${(c.depthM * 1000).toFixed(1)} mm` : ''}`;
}

/** Objects an arm may touch during any call: the one it holds. */
export function heldObjects(ctx: RobotApiContext): Set<number>[] {
  return ctx.state.grasps.map((g) => new Set(g ? [g.object] : []));
}

/** `{ok: true}` with the output lines and collisions, when there are any. */
export function okResult(lines: string[], collisions: Collision[]): SimCallResult {
  return { ok: true, ...(lines.length > 0 ? { output: lines.join('\n') } : {}), ...(collisions.length > 0 ? { collisions } : {}) };
}

/** After a release, let falling or sliding objects come to rest so the next observation is settled. */
export function settleObjects(ctx: RobotApiContext, arm: number): void {
  const { state } = ctx;
  const n = state.scene.objects.length;
  const runner = ctx.arms[arm]!.runner;
  runner.stepUntil(
    () => {
      for (let i = 0; i < n; i++) {
        const s = state.objectSpeed(i);
        if (s.linear > 0.005 || s.angular > 0.05) return false;
      }
      return true;
    },
    0.05,
    1.0,
  );
}

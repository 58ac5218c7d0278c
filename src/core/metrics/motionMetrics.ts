// Motion metrics of one robot action and of an episode, from samples taken while the action ran.
// Action Contextualization's scores (Sec. III-D of the paper):
//   M_I = min over the motion of delta(t) = 1 / cond(J(q(t)))        (dexterity; 1 isotropic, 0 singular)
//   M_E = min over the motion and the links of d_i(t) / d_bar         (clearance, normalised)
//   M_T = M_I + M_E, and a plan's quality Q = mean of M_T over its actions.
// d_bar is the paper's "maximum distance from any robot link to the workspace's border": the largest distance
// from a moving link to any point of the environment's geometry, kept as a running maximum since the plan's
// execution began, as the authors' code keeps it (their `_max_prox`). The simulator measures each sample's
// largest distance (`farthestM`); this module takes the running maximum.
// Plus plain kinematic numbers: path length, duration, peak jerk, minimum clearance, collisions, held-object tilt.
// Pure: the simulator measures, this module only reduces. Units SI.
import type { ActionMetrics } from '../../protocol/trace.js';

export type Vec3 = [number, number, number];

/** Link-to-environment distances are measured exactly up to this; beyond it a sample reports this value. */
export const CLEARANCE_RANGE_M = 1.0;
/** The repo's sentinel for an action that never moved (e.g. IK failed): M_I = M_E = -1, M_T = -2. */
export const NO_MOTION_SCORE = -2;

/** What the simulator measures at one instant of an action. */
export interface MotionSample {
  tSecs: number;
  /** Smallest inverse condition number over the arms that are measured. */
  dexterity: number;
  /** Smallest distance between a moving link and the environment, metres, capped at CLEARANCE_RANGE_M; < 0 is penetration. */
  clearanceM: number;
  /** Largest distance from a moving link to a point of the environment's geometry, metres (for d_bar); 0 if not measured. */
  farthestM?: number;
  /** The link and the thing at that distance, when within the cap. */
  closest: [string, string] | null;
  /** Tool centre point of each arm, world frame. */
  ee: Vec3[];
  /** Largest tilt from upright (radians) of an object held right now, or null when nothing is held. */
  heldTiltRad: number | null;
}

// One definition of an action's metrics: the trace schema (src/protocol/trace.ts), which traces and the simulator
// protocol carry. Fields: action, startSecs, durationSecs, samples, mI, mE, mT, pathLengthM, peakJerkMps3,
// minClearanceM, closestPair, collisionCount, maxHeldTiltRad (units in the names; see the schema's comments).
export type { ActionMetrics };

export interface EpisodeMetrics {
  actions: ActionMetrics[];
  /** Q = mean M_T over the actions (null with no actions). */
  planQuality: number | null;
  durationSecs: number;
  pathLengthM: number;
  peakJerkMps3: number;
  minClearanceM: number;
  collisionCount: number;
  maxHeldTiltRad: number | null;
  /** Smallest M_I over the episode's actions that moved (null if none moved). */
  minMI: number | null;
}

/** Accumulates samples between begin() and end(); one instance serves a whole episode, action after action. */
export class ActionMetricsRecorder {
  private current: { action: string; samples: MotionSample[] } | null = null;

  get active(): boolean {
    return this.current !== null;
  }

  begin(action: string): void {
    this.current = { action, samples: [] };
  }

  add(sample: MotionSample): void {
    this.current?.samples.push(sample);
  }

  /**
   * Finishes the action. `gridDtSecs` is the sample grid's spacing, used for jerk; `priorDBarM` the running d_bar
   * before this action (0 at the start of a plan's execution).
   */
  end(collisionCount: number, gridDtSecs: number, priorDBarM = 0): ActionMetrics {
    const cur = this.current;
    this.current = null;
    if (!cur) throw new Error('ActionMetricsRecorder.end() without begin()');
    return actionMetrics(cur.action, cur.samples, collisionCount, gridDtSecs, priorDBarM);
  }
}

/**
 * Reduces an action's samples. d_bar = the larger of `priorDBarM` (the running maximum before the action) and the
 * samples' largest link-environment distance; M_E = (smallest link-environment distance) / d_bar.
 */
export function actionMetrics(action: string, samples: readonly MotionSample[], collisionCount: number, gridDtSecs: number, priorDBarM = 0): ActionMetrics {
  const first = samples[0];
  const last = samples[samples.length - 1];
  const durationSecs = first && last ? round6(last.tSecs - first.tSecs) : 0;
  const dBarM = samples.reduce((m, s) => Math.max(m, s.farthestM ?? 0), Math.max(0, priorDBarM));
  if (!first || durationSecs <= 0) {
    return {
      action,
      startSecs: first ? round6(first.tSecs) : 0,
      durationSecs: 0,
      samples: samples.length,
      mI: -1,
      mE: -1,
      mT: NO_MOTION_SCORE,
      pathLengthM: 0,
      peakJerkMps3: 0,
      minClearanceM: first ? first.clearanceM : CLEARANCE_RANGE_M,
      closestPair: first?.closest ?? null,
      collisionCount,
      maxHeldTiltRad: first?.heldTiltRad ?? null,
      dBarM,
    };
  }
  let mI = Infinity;
  let minClearance = Infinity;
  let closestPair: [string, string] | null = null;
  let tilt: number | null = null;
  for (const s of samples) {
    mI = Math.min(mI, s.dexterity);
    if (s.clearanceM < minClearance) {
      minClearance = s.clearanceM;
      closestPair = s.closest;
    }
    if (s.heldTiltRad !== null) tilt = Math.max(tilt ?? 0, s.heldTiltRad);
  }
  const arms = first.ee.length;
  let pathLengthM = 0;
  let peakJerkMps3 = 0;
  for (let a = 0; a < arms; a++) {
    const track = samples.map((s) => s.ee[a]!);
    pathLengthM += pathLength(track);
    peakJerkMps3 = Math.max(peakJerkMps3, peakJerk(samples.map((s) => s.tSecs), track, gridDtSecs));
  }
  // Without a measured d_bar (a simulator that does not report farthestM) the range stands in for it.
  const mE = minClearance / (dBarM > 0 ? dBarM : CLEARANCE_RANGE_M);
  return {
    action,
    startSecs: round6(first.tSecs),
    durationSecs,
    samples: samples.length,
    mI,
    mE,
    mT: mI + mE,
    pathLengthM,
    peakJerkMps3,
    minClearanceM: minClearance,
    closestPair,
    collisionCount,
    maxHeldTiltRad: tilt,
    dBarM,
  };
}

export function pathLength(points: readonly Vec3[]): number {
  let len = 0;
  for (let i = 1; i < points.length; i++) {
    const p = points[i]!;
    const q = points[i - 1]!;
    len += Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
  }
  return len;
}

/**
 * Largest jerk magnitude from third differences over runs of four consecutive samples spaced exactly `dtSecs`
 * apart (samples off the grid, such as the one taken when an action starts, are skipped).
 */
export function peakJerk(times: readonly number[], points: readonly Vec3[], dtSecs: number): number {
  let peak = 0;
  const onGrid = (i: number) => Math.abs(times[i + 1]! - times[i]! - dtSecs) < 1e-6;
  for (let i = 0; i + 3 < points.length; i++) {
    if (!onGrid(i) || !onGrid(i + 1) || !onGrid(i + 2)) continue;
    const a = points[i]!;
    const b = points[i + 1]!;
    const c = points[i + 2]!;
    const d = points[i + 3]!;
    const j = [0, 1, 2].map((k) => (d[k]! - 3 * c[k]! + 3 * b[k]! - a[k]!) / dtSecs ** 3);
    peak = Math.max(peak, Math.hypot(j[0]!, j[1]!, j[2]!));
  }
  return peak;
}

/** Q = mean M_T (the paper's plan score); null for an empty plan. */
export function planQuality(actions: readonly ActionMetrics[]): number | null {
  if (actions.length === 0) return null;
  return actions.reduce((sum, a) => sum + a.mT, 0) / actions.length;
}

export function summarizeEpisode(actions: readonly ActionMetrics[]): EpisodeMetrics {
  const moved = actions.filter((a) => a.samples > 0 && a.durationSecs > 0);
  let tilt: number | null = null;
  for (const a of actions) if (a.maxHeldTiltRad !== null) tilt = Math.max(tilt ?? 0, a.maxHeldTiltRad);
  return {
    actions: actions.map((a) => ({ ...a })),
    planQuality: planQuality(actions),
    durationSecs: round6(actions.reduce((s, a) => s + a.durationSecs, 0)),
    pathLengthM: actions.reduce((s, a) => s + a.pathLengthM, 0),
    peakJerkMps3: actions.reduce((m, a) => Math.max(m, a.peakJerkMps3), 0),
    minClearanceM: moved.reduce((m, a) => Math.min(m, a.minClearanceM), CLEARANCE_RANGE_M),
    collisionCount: actions.reduce((s, a) => s + a.collisionCount, 0),
    maxHeldTiltRad: tilt,
    minMI: moved.length > 0 ? moved.reduce((m, a) => Math.min(m, a.mI), 1) : null,
  };
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

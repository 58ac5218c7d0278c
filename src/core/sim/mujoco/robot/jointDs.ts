// The joint-space linear dynamical system of Action Contextualization's skills (Sec. III-C of the paper; the
// authors' controller for the details the paper leaves open), with its three knobs:
//   speed s              scales the DS:  qdot = K s (q* - q), q* the IK solution of the skill's goal pose;
//   obstacle_clearance c the modulation: every obstacle closer than 2c (closest link to it, distance d, gradient
//                        n = -dd/dq pointing at it) gets a weight (c/d)^4, normalised so they sum to at most 1;
//                        r = sum of weight * n/|n|; the velocity's component along r is scaled by
//                        cos(pi/2 |r|) and the rest by 1 + sin(pi/2 |r|), so at d = c nothing moves toward the
//                        obstacle and the motion slides around it (Huber et al.'s modulation, as the authors
//                        implement it; the paper's text says avoidance starts at the clearance); moving away
//                        is left alone; then a guard (holdOff): within c of several obstacles, whose normalised
//                        weights can cancel, no link moves further toward any of them (our addition);
//   orientation o        keeps the held object's tilt: the velocity's part that changes the tool's rotation about
//                        the world's horizontal axes is scaled by (1 - o) (a null-space projection: o = 1 allows
//                        only motions that keep the object as it is).
// The command is clipped to the joint speed limits and followed with a 0.1 s lag (the authors' computed-torque
// gains track the DS velocity with about that time constant), on top of the position servos; the modulation acts on
// the lagged command, so avoidance itself does not lag.
// The motion ends by the authors' convergence rule: tool within 2.5 mm and 1 degree of the goal and moving slower
// than 1 mm/s and 0.1 degree/s; or "locked" (after 4 s, not moving); or a timeout (40 s); or a collision
// (a contact of the arm with anything it may not touch stops the controller, as their 0.5 mm threshold does).
import type { Vec3 } from '../scene/sceneSpec.js';
import type { ArmController } from './armController.js';
import type { ObstacleField } from './obstacleField.js';

/** DS gain at speed 1 (1/s). The authors' 0.6 pi / (largest joint range) is about 0.32/s on their iiwa; ours is
 * faster so that an episode simulates in seconds; `speed` scales it the same way. */
export const DS_GAIN_PER_S = 2.5;
/** Time constant with which the joints follow the DS velocity. */
export const DS_VELOCITY_LAG_SECS = 0.1;
/** Obstacles start to modulate the motion at this multiple of obstacle_clearance (the authors' code). */
export const MODULATION_ONSET = 2;
export const CONVERGED_POS_M = 0.0025;
export const CONVERGED_ROT_RAD = (1 * Math.PI) / 180;
export const CONVERGED_SPEED_MPS = 0.001;
export const CONVERGED_OMEGA_RADPS = (0.1 * Math.PI) / 180;
/** A motion that has stopped short is over after this long (the authors wait 30 s for a DS about eight times slower). */
export const LOCKED_AFTER_SECS = 4;
/**
 * A controller run longer than this fails timeout(): the authors' TIMEOUT of 300 s per controller run, scaled like
 * LOCKED_AFTER_SECS (30 s -> 4 s) by how much faster this DS is, so the speeds that time out are the authors'. At
 * 300 s a run that never settles (the DS circling an obstacle inside the clearance) cost five simulated minutes per
 * plan execution, and a replanned plan met it again (ac_sequential seed 3: 1923 s simulated, 20 min of wall time).
 */
export const DS_TIMEOUT_SECS = 40;
/** Datasheet joint speed limits of the Panda (rad/s). */
const JOINT_SPEED_LIMIT = [2.175, 2.175, 2.175, 2.175, 2.61, 2.61, 2.61];

export interface DsSettings {
  /** s in (0, 1]. */
  speed: number;
  /** c in metres. */
  clearanceM: number;
  /** o in [0, 1]. */
  orientation: number;
  /** Objects the modulation leaves out (the held one; the grasp target during a pick's fine approach). */
  ignore: ReadonlySet<number>;
  /** The table is left out (drop's approach from above, as the authors do). */
  ignoreTable?: boolean;
}

export interface DsGoal {
  /** The joint attractor q*. */
  q: number[];
  /** The tool pose q* reaches (convergence is judged in task space). */
  pos: Vec3;
  R: number[];
}

export type DsEnd = 'reached' | 'locked' | 'timeout' | 'collision' | 'stopped';

export interface DsRun {
  end: DsEnd;
  durationSecs: number;
  posErrM: number;
  rotErrRad: number;
  /** The first thing hit (end = 'collision'). */
  collidedWith: string | null;
  /** Smallest obstacle distance the modulation saw (m), and what it was. */
  closestM: number;
  closestTo: string | null;
  /** Simulated seconds during which some obstacle was within 2c. */
  modulatedSecs: number;
  /** Each obstacle that came within 2c, by label: the smallest distance it reached (m). */
  passed: Record<string, number>;
  /** Why `stop` ended it (end = 'stopped'). */
  stoppedBy: string | null;
}

export interface DsHooks {
  /** Collisions the contact monitor has reported in this call so far (the run stops when it grows). */
  collisions(): readonly { b: string }[];
  /** Called after every physics step; a reason ends the run ('stopped'). */
  afterStep?(): string | null;
}

/** Runs the modulated DS from the current state to `goal`. Steps physics through the arm's runner. */
export function runJointDs(ctrl: ArmController, field: ObstacleField, goal: DsGoal, s: DsSettings, hooks: DsHooks): DsRun {
  const runner = ctrl.runner;
  const state = runner.state;
  const arm = ctrl.arm;
  const dt = runner.dt;
  const n = 7;
  const ranges = arm.layout.jointRanges;
  const lead = arm.layout.servoLeadSecs;
  const gain = DS_GAIN_PER_S * s.speed;
  const range = MODULATION_ONSET * s.clearanceM;
  const alpha = Math.min(1, dt / DS_VELOCITY_LAG_SECS);
  const vCmd = new Float64Array(n);
  const vOut = new Float64Array(n);
  const qRef = state.armQ(ctrl.armIndex);
  const t0 = state.timeSecs;
  const collisions0 = hooks.collisions().length;
  const out: DsRun = { end: 'timeout', durationSecs: 0, posErrM: Infinity, rotErrRad: Infinity, collidedWith: null, closestM: Infinity, closestTo: null, modulatedSecs: 0, passed: {}, stoppedBy: null };
  const qd = new Float64Array(n);
  const J = { pos: new Float64Array(21), rot: new Float64Array(21) };
  const jac = () => field.toolJacobian(state, ctrl.armIndex, J);
  for (;;) {
    const elapsed = state.timeSecs - t0;
    const q = state.armQ(ctrl.armIndex);
    // Linear DS toward q*.
    for (let j = 0; j < n; j++) qd[j] = gain * (goal.q[j]! - q[j]!);
    // Orientation: scale the part of the velocity that tilts the tool.
    const J = jac();
    if (s.orientation > 0) keepTilt(qd, J, s.orientation);
    // Joint speed limits (uniform scaling keeps the direction).
    let over = 1;
    for (let j = 0; j < n; j++) over = Math.max(over, Math.abs(qd[j]!) / JOINT_SPEED_LIMIT[j]!);
    // Follow with a lag.
    for (let j = 0; j < n; j++) vCmd[j] = vCmd[j]! + alpha * (qd[j]! / over - vCmd[j]!);
    // The modulated command (the lag's state stays unmodulated, so the tangential gain is not applied twice).
    vOut.set(vCmd);
    // Obstacle modulation, on the velocity actually commanded: applied before the lag, a fast motion would carry
    // on toward an obstacle for about a lag's worth of travel (5 cm at 0.5 m/s), more than a clearance of 2 cm.
    if (range > 0) {
      const obstacles = field.near(state, ctrl.armIndex, { rangeM: range, ignore: s.ignore, ignoreTable: s.ignoreTable });
      if (obstacles.length > 0) {
        out.modulatedSecs += dt;
        if (obstacles[0]!.distanceM < out.closestM) {
          out.closestM = obstacles[0]!.distanceM;
          out.closestTo = obstacles[0]!.label;
        }
        for (const o of obstacles) out.passed[o.label] = Math.min(out.passed[o.label] ?? Infinity, o.distanceM);
        modulate(vOut, obstacles, s.clearanceM);
        holdOff(vOut, obstacles, s.clearanceM);
        let over2 = 1;
        for (let j = 0; j < n; j++) over2 = Math.max(over2, Math.abs(vOut[j]!) / JOINT_SPEED_LIMIT[j]!);
        for (let j = 0; j < n; j++) vOut[j] = vOut[j]! / over2;
      }
    }
    // Integrate a reference that never runs more than 0.02 rad ahead of the joints.
    const ctrlArr = state.data.ctrl as Float64Array;
    for (let j = 0; j < n; j++) {
      qRef[j] = Math.max(q[j]! - 0.02, Math.min(q[j]! + 0.02, qRef[j]! + vOut[j]! * dt));
      ctrlArr[arm.ctrlAdr[j]!] = Math.max(ranges[j]![0], Math.min(ranges[j]![1], qRef[j]! + lead[j]! * vOut[j]!));
    }
    runner.step();
    // Collision: the controller stops where it is.
    const hit = hooks.collisions();
    if (hit.length > collisions0) {
      out.end = 'collision';
      out.collidedWith = hit[collisions0]!.b;
      break;
    }
    const reason = hooks.afterStep?.() ?? null;
    if (reason) {
      out.end = 'stopped';
      out.stoppedBy = reason;
      break;
    }
    // Convergence (task space), checked every 5 steps (20 ms).
    if (Math.round((state.timeSecs - t0) / dt) % 5 === 0) {
      runner.forward();
      const c = taskSpaceError(ctrl, goal, jac());
      out.posErrM = c.posErrM;
      out.rotErrRad = c.rotErrRad;
      const still = c.speedMps < CONVERGED_SPEED_MPS && c.omegaRadps < CONVERGED_OMEGA_RADPS;
      if (still && c.posErrM <= CONVERGED_POS_M && c.rotErrRad <= CONVERGED_ROT_RAD) {
        out.end = 'reached';
        break;
      }
      if (still && elapsed >= LOCKED_AFTER_SECS) {
        out.end = 'locked';
        break;
      }
    }
    if (state.timeSecs - t0 >= DS_TIMEOUT_SECS) {
      out.end = 'timeout';
      break;
    }
  }
  // Hold where the arm is.
  const hold = state.data.ctrl as Float64Array;
  const qEnd = state.armQ(ctrl.armIndex);
  for (let j = 0; j < n; j++) hold[arm.ctrlAdr[j]!] = qEnd[j]!;
  runner.forward();
  const c = taskSpaceError(ctrl, goal, jac());
  out.posErrM = c.posErrM;
  out.rotErrRad = c.rotErrRad;
  out.durationSecs = Math.round((state.timeSecs - t0) * 1e6) / 1e6;
  return out;
}

/**
 * Huber-style modulation as in the authors' controller: obstacles within 2c, weights (c/d)^4 normalised to sum at
 * most 1, r = sum of weight * unit direction toward the obstacle; qd <- E diag(lambda_r, lambda_e, ...) E^T qd with
 * E's first column r/|r|, i.e. lambda_e qd + (lambda_r - lambda_e) (e . qd) e.
 */
export function modulate(qd: Float64Array, obstacles: readonly { distanceM: number; grad: Float64Array }[], clearanceM: number): { r: number; lambdaR: number; lambdaE: number } {
  const n = qd.length;
  const w = obstacles.map((o) => (clearanceM / Math.max(1e-4, o.distanceM)) ** 4);
  const sum = Math.min(w.reduce((a, b) => a + b, 0), 1000 ** 4);
  const norm = Math.max(1, sum);
  const r = new Float64Array(n);
  obstacles.forEach((o, i) => {
    const len = Math.hypot(...o.grad) || 1;
    // Toward the obstacle: the distance decreases along -grad.
    for (let j = 0; j < n; j++) r[j] = r[j]! - (w[i]! / norm) * (o.grad[j]! / len);
  });
  const amp = Math.hypot(...r);
  if (amp < 1e-12) return { r: 0, lambdaR: 1, lambdaE: 1 };
  let lambdaR = amp < 2 ? Math.cos((Math.PI / 2) * amp) : -1;
  let dot = 0;
  for (let j = 0; j < n; j++) dot += r[j]! * qd[j]!;
  if (dot < 0 && amp > 1) lambdaR = -lambdaR;
  // Moving away is not slowed (Huber et al.'s tail-effect removal). The authors' weights keep |r| <= 1, where
  // their sign flip never applies, so an arm within c of something could not back away from it.
  if (dot < 0) lambdaR = Math.max(lambdaR, 1);
  const lambdaE = amp < 1 ? 1 + Math.sin((Math.PI / 2) * amp) : 2 * Math.sin(Math.PI / (2 * amp));
  const along = dot / amp;
  for (let j = 0; j < n; j++) qd[j] = lambdaE * qd[j]! + (lambdaR - lambdaE) * along * (r[j]! / amp);
  return { r: amp, lambdaR, lambdaE };
}

/**
 * A guard after the modulation: no link closer than c to an obstacle moves further toward it. The authors'
 * normalised weights let obstacles on opposite sides of the arm cancel (a hand between a lamp shade above and a
 * shelf beside it gets |r| about 0.7, so it keeps half its speed toward both, and lambda_e nearly doubles the rest);
 * a single obstacle is already held at c by the modulation. The approaching component along each gradient is
 * removed in turn, a few sweeps so that removing one does not restore another.
 */
export function holdOff(qd: Float64Array, obstacles: readonly { distanceM: number; grad: Float64Array }[], clearanceM: number): number {
  const close = obstacles.filter((o) => o.distanceM < clearanceM);
  let removed = 0;
  for (let sweep = 0; sweep < 3; sweep++) {
    let changed = false;
    for (const o of close) {
      let gg = 0;
      let gq = 0;
      for (let j = 0; j < qd.length; j++) {
        gg += o.grad[j]! * o.grad[j]!;
        gq += o.grad[j]! * qd[j]!;
      }
      // d(distance)/dt = grad . qd; negative means closing in.
      if (gg < 1e-12 || gq >= 0) continue;
      for (let j = 0; j < qd.length; j++) qd[j] = qd[j]! - (gq / gg) * o.grad[j]!;
      removed += -gq / Math.sqrt(gg);
      changed = true;
    }
    if (!changed) break;
  }
  return removed;
}

/**
 * Scales by (1 - o) the part of qd that rotates the tool about the world's x and y axes: qd - o J_r^T (J_r J_r^T)^-1
 * J_r qd, J_r the two horizontal rows of the tool's rotational Jacobian. (The authors use two rows of their
 * end-effector-frame Jacobian; for the tilt of a held object the world's horizontal axes are what matter.)
 */
export function keepTilt(qd: Float64Array, J: { rot: Float64Array }, o: number): void {
  const n = qd.length;
  const a = J.rot.subarray(0, n);
  const b = J.rot.subarray(n, 2 * n);
  let aa = 0;
  let ab = 0;
  let bb = 0;
  let aq = 0;
  let bq = 0;
  for (let j = 0; j < n; j++) {
    aa += a[j]! * a[j]!;
    ab += a[j]! * b[j]!;
    bb += b[j]! * b[j]!;
    aq += a[j]! * qd[j]!;
    bq += b[j]! * qd[j]!;
  }
  const det = aa * bb - ab * ab;
  if (Math.abs(det) < 1e-12) return;
  const x = (bb * aq - ab * bq) / det;
  const y = (aa * bq - ab * aq) / det;
  for (let j = 0; j < n; j++) qd[j] = qd[j]! - o * (a[j]! * x + b[j]! * y);
}

/** Tool error against the goal and the tool's linear and angular speed. */
function taskSpaceError(ctrl: ArmController, goal: DsGoal, J: { pos: Float64Array; rot: Float64Array }): { posErrM: number; rotErrRad: number; speedMps: number; omegaRadps: number } {
  const state = ctrl.runner.state;
  const site = ctrl.arm.eeSite;
  const p = state.data.site_xpos as Float64Array;
  const M = state.data.site_xmat as Float64Array;
  const posErrM = Math.hypot(p[3 * site]! - goal.pos[0], p[3 * site + 1]! - goal.pos[1], p[3 * site + 2]! - goal.pos[2]);
  let tr = 0;
  for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) tr += M[9 * site + 3 * i + k]! * goal.R[3 * i + k]!;
  const rotErrRad = Math.acos(Math.max(-1, Math.min(1, (tr - 1) / 2)));
  const v = state.data.qvel as Float64Array;
  const dofs = ctrl.arm.dofAdr;
  let vx = 0, vy = 0, vz = 0, wx = 0, wy = 0, wz = 0;
  for (let j = 0; j < 7; j++) {
    const qd = v[dofs[j]!]!;
    vx += J.pos[j]! * qd;
    vy += J.pos[7 + j]! * qd;
    vz += J.pos[14 + j]! * qd;
    wx += J.rot[j]! * qd;
    wy += J.rot[7 + j]! * qd;
    wz += J.rot[14 + j]! * qd;
  }
  return { posErrM, rotErrRad, speedMps: Math.hypot(vx, vy, vz), omegaRadps: Math.hypot(wx, wy, wz) };
}

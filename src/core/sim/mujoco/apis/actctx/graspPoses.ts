// Where Action Contextualization's skills put the tool: grasp and pre-grasp poses for a 'top' or 'side' grasp
// of an object, and the release pose over a location (container floor or surface top).
import { wrapAngle } from '../../math3.js';
import type { ToolTarget } from '../../robot/ik.js';
import { sideGraspMat } from '../../robot/skillMotion.js';
import type { Vec3 } from '../../scene/sceneSpec.js';
import type { RobotApiContext } from '../robotApi.js';
import type { LocationSpec } from '../../tasks/taskDefinition.js';

export type GraspKind = 'top' | 'side';

/** Distance of the pre-grasp pose from the grasp pose: above it for top grasps... */
export const PREGRASP_M = 0.1;
/** ...and back along the approach for side grasps (the hand turns there, so it keeps farther out). */
export const SIDE_PREGRASP_M = 0.16;
/** How far a suction cup presses into the top face it picks. */
const SUCTION_PRESS_M = 0.002;
/** The finger pads reach this far below the tool centre point. */
const PAD_BELOW_TCP_M = 0.014;

export interface GraspPlan {
  grasp: ToolTarget;
  pre: ToolTarget;
  /** Where the tool goes after closing (fly-off), in order: straight up, or for a side grasp back out then up. */
  lift: ToolTarget[];
}

function yawOf(q: readonly number[]): number {
  const [w, x, y, z] = q as [number, number, number, number];
  return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
}

/** Folds a yaw into the wrist's comfortable range [-pi/2, pi/2] (the gripper is symmetric under a half turn). */
function foldYaw(y: number): number {
  let a = wrapAngle(y);
  if (a > Math.PI / 2) a -= Math.PI;
  if (a < -Math.PI / 2) a += Math.PI;
  return a;
}

/** The arm carries a multi-finger hand (the iiwa's Allegro): grasps are the hand's, below. */
export function hasHand(ctx: RobotApiContext, arm = 0): boolean {
  return ctx.scene.arms[arm]!.gripper.kind === 'hand';
}

/**
 * The hand level, pointing along `yawRad` (away from the base): the authors' grasp orientations (euler xyz [0, 90,
 * yaw] for 'top', [90, 0, 90 + yaw] for 'side'). Top: the palm faces down (hand x down); side: the palm faces left of
 * the approach (hand x = the horizontal perpendicular), the fingers stacked up (hand y up).
 */
export function handLevelMat(yawRad: number, kind: GraspKind): number[] {
  const c = Math.cos(yawRad);
  const s = Math.sin(yawRad);
  // Columns: hand x, y, z in the world (row-major R: R[3 * row + col]).
  const z = [c, s, 0];
  const x = kind === 'top' ? [0, 0, -1] : [-s, c, 0];
  const y = [z[1]! * x[2]! - z[2]! * x[1]!, z[2]! * x[0]! - z[0]! * x[2]!, z[0]! * x[1]! - z[1]! * x[0]!];
  return [x[0]!, y[0]!, z[0]!, x[1]!, y[1]!, z[1]!, x[2]!, y[2]!, z[2]!];
}

/**
 * Where the grasped object's centre sits in the hand frame (x out of the palm, y across it, z along the fingers), m,
 * in the authors' grasp poses: 'top' with the hand level with the object's top (x = the object's half height; the
 * authors' hand base is at the object's top, approach_top_dst 0), 'side' at the object's centre height (theirs:
 * its centre of mass). Both put the object in front of the palm under the fingers' first links, where the curling
 * fingers and the thumb meet it (the authors' offsets approach_ee_offset_top 0.18 and approach_ee_offset_side 0.14
 * behind the object put their hand's base about as far back). These poses are lower than the open hand can come:
 * its thumb hangs below the palm (allegroHand.ts), so the avoidance holds it obstacle_clearance over the table, and
 * the clearance decides how high the hand closes.
 */
export const HAND_GRASP_IN_HAND: Record<GraspKind, { y: number; z: number }> = { top: { y: -0.02, z: 0.11 }, side: { y: 0, z: 0.14 } };
/** Side grasps: the object's centre this far out in front of the palm (hand x). */
export const HAND_SIDE_DEPTH_M = 0.07;
/** Side grasps: the hand's axis (level with the wrist) no lower than this over the table. */
export const HAND_SIDE_MIN_Z_M = 0.07;

function handGraspPlan(ctx: RobotApiContext, object: number, kind: GraspKind, arm: number): GraspPlan {
  const spec = ctx.scene.built.spec.objects[object]!;
  const pose = ctx.state.objectPose(object);
  const base = ctx.scene.arms[arm]!.layout.spec.basePos;
  const yaw = Math.atan2(pose.pos[1] - base[1], pose.pos[0] - base[0]);
  const R = handLevelMat(yaw, kind);
  const o = HAND_GRASP_IN_HAND[kind];
  const x = kind === 'top' ? spec.size[2] / 2 : HAND_SIDE_DEPTH_M;
  const at = (c: readonly number[]): Vec3 => [0, 1, 2].map((r) => c[r]! - (R[3 * r]! * x + R[3 * r + 1]! * o.y + R[3 * r + 2]! * o.z)) as Vec3;
  const grasp: ToolTarget = { pos: at(pose.pos), yawRad: yaw, R };
  // A level hand at the side of a low thing would lay the wrist (link radius 6 cm) on the table: no lower than that.
  if (kind === 'side') grasp.pos[2] = Math.max(grasp.pos[2], ctx.scene.built.spec.table.topZ + HAND_SIDE_MIN_Z_M);
  const up = (h: number): ToolTarget => ({ ...grasp, pos: [grasp.pos[0], grasp.pos[1], grasp.pos[2] + h] });
  return { grasp, pre: up(0.1), lift: [up(0.2)] };
}

export function graspPlan(ctx: RobotApiContext, object: number, kind: GraspKind, arm = 0): GraspPlan {
  if (hasHand(ctx, arm)) return handGraspPlan(ctx, object, kind, arm);
  const spec = ctx.scene.built.spec.objects[object]!;
  const pose = ctx.state.objectPose(object);
  const [cx, cy, cz] = pose.pos;
  const top = cz + spec.size[2] / 2;
  const tableZ = ctx.scene.built.spec.table.topZ;
  const base = ctx.scene.arms[arm]!.layout.spec.basePos;
  const dx = cx - base[0];
  const dy = cy - base[1];
  const n = Math.hypot(dx, dy) || 1;
  if (kind === 'side') {
    const dir: [number, number] = [dx / n, dy / n];
    const R = sideGraspMat(dir);
    // High enough that the wrist clears the table.
    const z = Math.max(cz, tableZ + 0.06);
    const grasp: ToolTarget = { pos: [cx, cy, z], yawRad: 0, R };
    return {
      grasp,
      pre: { ...grasp, pos: [cx - dir[0] * SIDE_PREGRASP_M, cy - dir[1] * SIDE_PREGRASP_M, z] },
      lift: [
        { ...grasp, pos: [cx - dir[0] * SIDE_PREGRASP_M, cy - dir[1] * SIDE_PREGRASP_M, z + 0.01] },
        { ...grasp, pos: [cx - dir[0] * SIDE_PREGRASP_M, cy - dir[1] * SIDE_PREGRASP_M, z + 0.06] },
      ],
    };
  }
  // Top: pads along the object's longer side (fingers close across the shorter one); round things across the
  // line from the base. Tall things are gripped 3 cm below their top; the pads stay clear of the table. Long
  // things (a wrench, a bar) are gripped 4 cm in from the end nearer the robot, leaving the other end free.
  const round = spec.shape === 'cylinder' || spec.shape === 'sphere' || (spec.shape === 'compound' && Math.abs(spec.size[0] - spec.size[1]) < 1e-6);
  const objYaw = yawOf(pose.quat);
  const yaw = round ? Math.atan2(dy, dx) : objYaw + (spec.size[0] >= spec.size[1] ? 0 : Math.PI / 2);
  const z = Math.max(Math.min(cz, top - 0.03), tableZ + PAD_BELOW_TCP_M + 0.006);
  let gx = cx;
  let gy = cy;
  const long = Math.max(spec.size[0], spec.size[1]);
  if (!round && long >= 0.14 && long > 2.5 * Math.min(spec.size[0], spec.size[1])) {
    const ax = spec.size[0] >= spec.size[1] ? objYaw : objYaw + Math.PI / 2;
    const off = long / 2 - 0.04;
    const ends: [number, number][] = [
      [cx + Math.cos(ax) * off, cy + Math.sin(ax) * off],
      [cx - Math.cos(ax) * off, cy - Math.sin(ax) * off],
    ];
    // Held by another arm (a handover): the end away from that hand; otherwise the end nearer this robot.
    const holder = ctx.state.grasps.findIndex((g, k) => k !== arm && g?.object === object);
    const ref = holder >= 0 ? ctx.state.tcp(holder).pos : base;
    const d0 = Math.hypot(ends[0]![0] - ref[0], ends[0]![1] - ref[1]);
    const d1 = Math.hypot(ends[1]![0] - ref[0], ends[1]![1] - ref[1]);
    [gx, gy] = (d0 <= d1) === (holder < 0) ? ends[0]! : ends[1]!;
  }
  // A suction cup presses on the top face (2 mm in, so the cup surely touches it) instead of closing around it.
  const zTool = ctx.scene.arms[arm]!.gripper.kind === 'suction' ? top - SUCTION_PRESS_M : z;
  const grasp: ToolTarget = { pos: [gx, gy, zTool], yawRad: foldYaw(yaw) };
  return { grasp, pre: { ...grasp, pos: [gx, gy, zTool + PREGRASP_M] }, lift: [{ ...grasp, pos: [gx, gy, zTool + 0.15] }] };
}

/**
 * Point an object is set down at (world frame): on a container's floor or a surface's top, at the spot of a
 * 3 x 3 grid over its inner area that is farthest from everything already there (so a second glass does not
 * land on the first), or nearest the robot when it is empty; a `single` location always at its centre. `carried`
 * is the held object, ignored.
 */
export function locationPoint(ctx: RobotApiContext, loc: LocationSpec, location: number, carried = -1, arm = 0): Vec3 {
  const spec = ctx.scene.built.spec.objects[location]!;
  const pose = ctx.state.objectPose(location);
  if (spec.mount?.kind !== 'fixed') throw new Error(`location '${loc.name}' must be a fixed object`);
  const [x, y, z] = pose.pos;
  const yaw = yawOf(pose.quat);
  const wall = loc.kind === 'container' ? (loc.wallM ?? 0.01) : 0;
  const surfaceZ = loc.kind === 'container' ? z - spec.size[2] / 2 + wall : z + spec.size[2] / 2;
  const others = ctx.scene.objects
    .map((_, i) => i)
    .filter((i) => i !== location && i !== carried && ctx.scene.objects[i]!.kind === 'free')
    .map((i) => ctx.state.objectPose(i).pos)
    .filter((p) => Math.abs(p[0] - x) < spec.size[0] / 2 && Math.abs(p[1] - y) < spec.size[1] / 2 && p[2] > surfaceZ - 0.01 && p[2] < surfaceZ + 0.3);
  // A single spot: its centre. Empty: the spot nearest the robot's base; otherwise the one farthest from what is there.
  if (loc.single) return [x, y, surfaceZ];
  const base = ctx.scene.arms[arm]!.layout.spec.basePos;
  const score = (p: Vec3) => (others.length === 0 ? -Math.hypot(p[0] - base[0], p[1] - base[1]) : Math.min(...others.map((o) => Math.hypot(o[0] - p[0], o[1] - p[1]))));
  let best: Vec3 = [x, y, surfaceZ];
  let bestGap = -Infinity;
  for (const fx of [-0.25, 0, 0.25])
    for (const fy of [-0.25, 0, 0.25]) {
      const lx = fx * (spec.size[0] - 2 * wall);
      const ly = fy * (spec.size[1] - 2 * wall);
      const p: Vec3 = [x + lx * Math.cos(yaw) - ly * Math.sin(yaw), y + lx * Math.sin(yaw) + ly * Math.cos(yaw), surfaceZ];
      const gap = score(p);
      if (gap > bestGap + 1e-9) {
        bestGap = gap;
        best = p;
      }
    }
  return best;
}

// LM Trajectory Generators' action space (Kwon et al.): detect_object(name) prints position, dimensions and yaw
// of every matching object or part; execute_trajectory(trajectory) follows a dense list of [x, y, z, yaw] poses
// (gripper pointing down), or [x, y, z, yaw, gripper] poses whose fifth element (1 open, 0 closed) opens or closes
// the gripper where it changes (the paper's binary-gripper and numeric modes); open_gripper() / close_gripper()
// take no object name; task_completed() ends the attempt (the engine handles it). Poses run open loop and best
// effort: an unreachable pose moves the arm as close as IK gets and the list goes on (the paper's position
// controller never refused a pose). The notes each call prints (grasp results, collisions, shortfalls, yaw flips)
// are execution feedback the paper's model never read: the trajgen loop drops them unless the
// api.execution_feedback ablation is on (EXECUTION_FEEDBACK_LINE in the catalog names them).
import { LMTG_API } from '../../../apis/catalog.js';
import { fmtVec, REACH_TOL_M, type ArmController } from '../robot/armController.js';
import type { ToolTarget } from '../robot/ik.js';
import { callShapeError, isRealNumber, pyRepr, str } from './args.js';
import { DetectorModel, type DetectionRecord } from '../../../perception/detector.js';
import { detectObjects, formatDetection, type Detection } from './objectLookup.js';
import { heldObjects, okResult, settleObjects, watchCollisions, type RobotApi, type RobotApiContext, type SimCallResult } from './robotApi.js';

/** Longest trajectory accepted in one call. */
export const MAX_POSES = 5000;

const FUNCTIONS = LMTG_API;

const ARM = 0;

export const lmtgApi: RobotApi = {
  id: 'lmtg',
  description: 'LM Trajectory Generators API: detect_object plus dense [x, y, z, yaw] end-effector trajectories.',
  functions: FUNCTIONS,
  measured: new Set(['execute_trajectory', 'open_gripper', 'close_gripper']),
  call(ctx, fn, args) {
    const shape = callShapeError(FUNCTIONS, fn, args);
    if (shape) return { ok: false, error: shape };
    switch (fn) {
      case 'detect_object':
        return detect(ctx, args[0]);
      case 'execute_trajectory':
        return follow(ctx, args[0]);
      case 'open_gripper': {
        const w = watchCollisions(ctx, heldObjects(ctx), () => {
          ctx.arms[ARM]!.open();
          settleObjects(ctx, ARM);
        });
        return okResult(w.warnings, w.collisions);
      }
      case 'close_gripper':
        return close(ctx);
      default:
        return { ok: true };
    }
  },
};

function detect(ctx: RobotApiContext, query: unknown): SimCallResult {
  const q = str('detect_object', 'object_or_object_part', query);
  if (!q.ok) return q;
  const found = detectObjects(ctx.scene, ctx.state, q.value);
  if (found.length === 0) {
    // A detector that finds nothing says so and no more: the paper's LangSAM never listed what else the image held.
    return { ok: true, output: `detect_object: nothing matches ${pyRepr(q.value)}` };
  }
  const records = estimate(ctx, found);
  const printed = found.map((d, i): Detection => ({ ...d, ...records[i]!.estimate }));
  return { ok: true, output: printed.map(formatDetection).join('\n'), detections: records };
}

/**
 * What the detector reports for each found box: the truth itself with ground-truth perception, else the seeded
 * detector model's estimate (calibration, noise, part segmentation failures). The call counter lives in the API's
 * episode memory, so a restored snapshot answers its next detect_object as the original run did.
 */
function estimate(ctx: RobotApiContext, found: Detection[]): DetectionRecord[] {
  const truth = (d: Detection) => ({ pos: [...d.pos] as Detection['pos'], size: [...d.size] as Detection['size'], yawRad: d.yawRad });
  if (ctx.perception?.mode !== 'estimated') return found.map((d) => ({ label: d.label, truth: truth(d), estimate: truth(d) }));
  const call = typeof ctx.memory['detectCalls'] === 'number' ? ctx.memory['detectCalls'] : 0;
  ctx.memory['detectCalls'] = call + 1;
  return new DetectorModel(ctx.perception.seed).detect(
    found.map((d) => ({ label: d.label, ...truth(d), ...(d.whole ? { object: d.whole } : {}) })),
    call,
  );
}

/** Accepts [x, y, z, yaw] lists, [x, y, z, yaw, gripper] lists (1 open, 0 closed; `gripper` holds them) or dicts. */
export function parsePoses(fn: string, v: unknown): { ok: true; value: ToolTarget[]; gripper?: (0 | 1)[] } | { ok: false; error: string } {
  if (!Array.isArray(v)) return { ok: false, error: `${fn}() expects trajectory as a list of [x, y, z, yaw] poses, got ${pyRepr(v)}` };
  if (v.length === 0) return { ok: false, error: `${fn}() got an empty trajectory` };
  if (v.every(isRealNumber)) return { ok: false, error: `${fn}() expects trajectory as a list of [x, y, z, yaw] poses, got ${pyRepr(v)} (one pose is written [[x, y, z, yaw]])` };
  if (v.length > MAX_POSES) return { ok: false, error: `${fn}() got ${v.length} poses; at most ${MAX_POSES} per call` };
  const out: ToolTarget[] = [];
  const gripper: (0 | 1)[] = [];
  for (let i = 0; i < v.length; i++) {
    let p = v[i];
    if (p && typeof p === 'object' && !Array.isArray(p)) {
      const d = p as Record<string, unknown>;
      p = [d['x'], d['y'], d['z'], d['yaw'] ?? 0];
    }
    if (!Array.isArray(p) || (p.length !== 4 && p.length !== 5) || !p.every(isRealNumber)) {
      return { ok: false, error: `${fn}() expects every pose as [x, y, z, yaw]; pose ${i} is ${pyRepr(v[i])}` };
    }
    if (!p.every(Number.isFinite)) return { ok: false, error: `${fn}() expects finite numbers; pose ${i} is ${pyRepr(v[i])}` };
    if (p.length === 5) {
      if (p[4] !== 0 && p[4] !== 1) return { ok: false, error: `${fn}() expects the fifth pose element (gripper state) to be 1 (open) or 0 (closed); pose ${i} is ${pyRepr(v[i])}` };
      gripper.push(p[4] as 0 | 1);
    }
    out.push({ pos: [p[0]!, p[1]!, p[2]!], yawRad: p[3]! });
  }
  if (gripper.length > 0 && gripper.length !== out.length) return { ok: false, error: `${fn}() expects every pose to have the same length (4, or 5 with the gripper state)` };
  return { ok: true, value: out, ...(gripper.length > 0 ? { gripper } : {}) };
}

function follow(ctx: RobotApiContext, trajectory: unknown): SimCallResult {
  const poses = parsePoses('execute_trajectory', trajectory);
  if (!poses.ok) return poses;
  if (poses.gripper) return followWithGripper(ctx, poses.value, poses.gripper);
  const w = watchCollisions(ctx, heldObjects(ctx), () => ctx.arms[ARM]!.followPoses(poses.value));
  return okResult([...w.warnings, ...motionNotes(w.value, poses.value, 0)], w.collisions);
}

/** The follower's notes on one list: yaw flips, the first pose not reached, the distance short of the last. */
function motionNotes(out: ReturnType<ArmController['followPoses']>, poses: ToolTarget[], offset: number): string[] {
  const lines: string[] = [];
  if (out.yawFlips > 0) lines.push(`execute_trajectory: ${out.yawFlips} pose(s) were executed a half turn away in yaw (the same grasp for the symmetric gripper; the wrist cannot turn further)`);
  if (out.shortfall) {
    const p = poses[out.shortfall.index]!;
    lines.push(`execute_trajectory: pose ${offset + out.shortfall.index} [${[...p.pos, p.yawRad].map((x) => x.toFixed(4)).join(', ')}] ${out.shortfall.reason}; the arm went as close as it could`);
  }
  const last = poses[poses.length - 1]!;
  if (out.posErrM > REACH_TOL_M) lines.push(`execute_trajectory: stopped ${out.posErrM.toFixed(4)} m from the last pose ${fmtVec(last.pos)}, at ${fmtVec(out.reached.pos)}`);
  return lines;
}

/** Segments between gripper-state changes, each followed and then the gripper set to the next segment's state. */
function followWithGripper(ctx: RobotApiContext, poses: ToolTarget[], gripper: (0 | 1)[]): SimCallResult {
  const lines: string[] = [];
  const collisions: NonNullable<Extract<SimCallResult, { ok: true }>['collisions']> = [];
  // Open: nothing held and the fingers near their 0.08 m opening.
  const isOpen = () => !ctx.state.grasps[ARM] && ctx.state.fingerWidth(ARM) > 0.07;
  let from = 0;
  const setGripper = (state: 0 | 1): void => {
    const r = state === 1 ? lmtgApi.call(ctx, 'open_gripper', []) : close(ctx);
    if (r.ok) {
      if (r.output) lines.push(r.output);
      if (r.collisions) collisions.push(...r.collisions);
    }
  };
  // The first pose's state applies before moving when it differs from the gripper's.
  if ((gripper[0] === 1) !== isOpen()) setGripper(gripper[0]!);
  for (let i = 1; i <= poses.length; i++) {
    if (i < poses.length && gripper[i] === gripper[i - 1]) continue;
    const seg = poses.slice(from, i);
    const w = watchCollisions(ctx, heldObjects(ctx), () => ctx.arms[ARM]!.followPoses(seg));
    lines.push(...w.warnings, ...motionNotes(w.value, seg, from));
    collisions.push(...w.collisions);
    if (i < poses.length) setGripper(gripper[i]!);
    from = i;
  }
  return okResult(lines, collisions);
}

function close(ctx: RobotApiContext): SimCallResult {
  const held = ctx.state.grasps[ARM];
  if (held) return { ok: true, output: `close_gripper: already holding ${ctx.scene.objects[held.object]!.name}` };
  // Whatever ends up between the pads may be grasped: any contact while closing is not a collision.
  const allowed = heldObjects(ctx);
  ctx.scene.objects.forEach((_, i) => allowed[ARM]!.add(i));
  const w = watchCollisions(ctx, allowed, () => ctx.arms[ARM]!.closeAny());
  const g = w.value;
  const lines = [...w.warnings];
  lines.push(g.grasped ? `close_gripper: grasped ${ctx.scene.objects[g.object]!.name}` : 'close_gripper: nothing grasped');
  return okResult(lines, w.collisions);
}

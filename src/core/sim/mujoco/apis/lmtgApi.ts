// LM Trajectory Generators' action space (Kwon et al.): detect_object(name) prints position, dimensions and yaw
// of every matching object or part; execute_trajectory(trajectory) follows a dense list of [x, y, z, yaw] poses
// (gripper pointing down); open_gripper() / close_gripper() take no object name; task_completed() and
// task_failed() end the episode (the engine handles them).
import { LMTG_API } from '../../../apis/catalog.js';
import { fmtVec, REACH_TOL_M } from '../robot/armController.js';
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
    return { ok: true, output: `detect_object: nothing matches ${pyRepr(q.value)}; the scene has: ${ctx.scene.objects.map((o) => o.name).join(', ')}` };
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

/** Accepts [x, y, z, yaw] lists (a 5th gripper value, as in the paper's numeric mode, is ignored) or dicts. */
export function parsePoses(fn: string, v: unknown): { ok: true; value: ToolTarget[] } | { ok: false; error: string } {
  if (!Array.isArray(v)) return { ok: false, error: `${fn}() expects trajectory as a list of [x, y, z, yaw] poses, got ${pyRepr(v)}` };
  if (v.length === 0) return { ok: false, error: `${fn}() got an empty trajectory` };
  if (v.every(isRealNumber)) return { ok: false, error: `${fn}() expects trajectory as a list of [x, y, z, yaw] poses, got ${pyRepr(v)} (one pose is written [[x, y, z, yaw]])` };
  if (v.length > MAX_POSES) return { ok: false, error: `${fn}() got ${v.length} poses; at most ${MAX_POSES} per call` };
  const out: ToolTarget[] = [];
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
    out.push({ pos: [p[0]!, p[1]!, p[2]!], yawRad: p[3]! });
  }
  return { ok: true, value: out };
}

function follow(ctx: RobotApiContext, trajectory: unknown): SimCallResult {
  const poses = parsePoses('execute_trajectory', trajectory);
  if (!poses.ok) return poses;
  const w = watchCollisions(ctx, heldObjects(ctx), () => ctx.arms[ARM]!.followPoses(poses.value, 'execute_trajectory'));
  const out = w.value;
  if (!out.ok) return { ok: false, error: out.error, motionFailed: true };
  const lines = [...w.warnings];
  if (out.yawFlips > 0) lines.push(`execute_trajectory: ${out.yawFlips} pose(s) were executed a half turn away in yaw (the same grasp for the symmetric gripper; the wrist cannot turn further)`);
  const last = poses.value[poses.value.length - 1]!;
  if (out.posErrM > REACH_TOL_M) lines.push(`execute_trajectory: stopped ${out.posErrM.toFixed(4)} m from the last pose ${fmtVec(last.pos)}, at ${fmtVec(out.reached.pos)}`);
  return okResult(lines, w.collisions);
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

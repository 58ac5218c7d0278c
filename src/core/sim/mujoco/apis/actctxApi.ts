// Action Contextualization's interface (Tables I-III of the paper): skills approach/pick/place/drop with their
// positional argument orders, and the checks the evaluation plans call. Labels are object names; locations
// come from the task. Checks return values (bool, or a label for collision_free).
import type { ApiFunctionSpec } from '../../simulator.js';
import { callShapeError, finiteNumber, pyRepr, str } from './args.js';
import { canGrasp, canReach, collisionFree, holding, motionHealth, timeout, atLocation } from './actctx/checks.js';
import { approach, drop, pick, place } from './actctx/skills.js';
import type { GraspKind } from './actctx/graspPoses.js';
import type { RobotApi, RobotApiContext, SimCallResult } from './robotApi.js';
import type { LocationSpec } from '../tasks/taskDefinition.js';

const SPEED = { name: 'speed', type: 'float' as const };
const CLEAR = { name: 'obstacle_clearance', type: 'float' as const };

const FUNCTIONS: ApiFunctionSpec[] = [
  {
    name: 'approach',
    params: [{ name: 'object_to_grasp', type: 'str' }, SPEED, CLEAR, { name: 'grasp', type: 'str' }],
    signature: 'approach(object_to_grasp: str, speed: float, obstacle_clearance: float, grasp: str) -> None',
    doc: "Moves the gripper close to object_to_grasp (0.1 m away, above it for grasp='top', beside it for 'side') so that it is within reach.",
  },
  {
    name: 'pick',
    params: [{ name: 'object_to_grasp', type: 'str' }, SPEED, CLEAR, { name: 'grasp', type: 'str' }],
    signature: 'pick(object_to_grasp: str, speed: float, obstacle_clearance: float, grasp: str) -> None',
    doc: 'Grasps object_to_grasp (from the top or the side) and lifts it, if it is close enough.',
  },
  {
    name: 'place',
    params: [{ name: 'location', type: 'str' }, { name: 'orientation', type: 'float' }, SPEED, CLEAR],
    signature: 'place(location: str, orientation: float, speed: float, obstacle_clearance: float) -> None',
    doc: 'Puts the grasped object down at the location and releases it. orientation in [0, 1]: how strictly to keep the object as it is on the way.',
  },
  {
    name: 'drop',
    params: [{ name: 'location', type: 'str' }, SPEED, CLEAR],
    signature: 'drop(location: str, speed: float, obstacle_clearance: float) -> None',
    doc: 'Releases the grasped object over the location.',
  },
  { name: 'can_grasp', params: [{ name: 'object', type: 'str' }, { name: 'grasp', type: 'str', optional: true }], signature: "can_grasp(object: str, grasp: str = 'top') -> bool", doc: 'True if the gripper is close to the object and the grasp pose is reachable and free.' },
  { name: 'holding', params: [], signature: 'holding() -> bool', doc: 'True if the gripper holds an object.' },
  { name: 'at_location', params: [{ name: 'object', type: 'str' }, { name: 'location', type: 'str' }], signature: 'at_location(object: str, location: str) -> bool', doc: 'True if the object is in (or on) the location.' },
  { name: 'collision_free', params: [], signature: 'collision_free() -> str', doc: "The label of what the robot collided with in the preceding action, or '' if nothing." },
  { name: 'timeout', params: [], signature: 'timeout() -> bool', doc: `True if the preceding action finished within its time limit.` },
  { name: 'check_motion_health', params: [], signature: 'check_motion_health() -> bool', doc: 'True if the preceding action\'s motion score M_T (dexterity + clearance) is positive.' },
  { name: 'can_reach', params: [{ name: 'goal', type: 'str' }, { name: 'grasp', type: 'str', optional: true }], signature: "can_reach(goal: str, grasp: str = 'top') -> bool", doc: 'True if an inverse-kinematics solution exists for the goal (an object to grasp or a location).' },
  { name: 'task_completed', params: [], signature: 'task_completed() -> None', doc: 'Call when the plan has been carried out.' },
];


type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function objectArg(ctx: RobotApiContext, fn: string, param: string, v: unknown): Parsed<number> {
  const s = str(fn, param, v);
  if (!s.ok) return s;
  const i = ctx.scene.objects.findIndex((o) => o.name === s.value);
  if (i < 0) return { ok: false, error: `${fn}: no object labelled ${pyRepr(s.value)}; labels: ${ctx.scene.objects.map((o) => o.name).join(', ')}` };
  return { ok: true, value: i };
}

function locationArg(ctx: RobotApiContext, fn: string, v: unknown): Parsed<{ loc: LocationSpec; index: number }> {
  const s = str(fn, 'location', v);
  if (!s.ok) return s;
  const locs = ctx.task?.locations ?? [];
  const loc = locs.find((l) => l.name === s.value);
  const index = ctx.scene.objects.findIndex((o) => o.name === s.value);
  if (!loc || index < 0) return { ok: false, error: `${fn}: no location labelled ${pyRepr(s.value)}; locations: ${locs.map((l) => l.name).join(', ') || 'none in this task'}` };
  return { ok: true, value: { loc, index } };
}

function graspArg(fn: string, v: unknown): Parsed<GraspKind> {
  if (v === undefined) return { ok: true, value: 'top' };
  if (v !== 'top' && v !== 'side') return { ok: false, error: `${fn}() expects grasp as 'top' or 'side', got ${pyRepr(v)}` };
  return { ok: true, value: v };
}

function unit(fn: string, param: string, v: unknown, lo: number, hi: number, what: string): Parsed<number> {
  const n = finiteNumber(fn, param, what, v);
  if (!n.ok) return n;
  if (n.value < lo || n.value > hi) return { ok: false, error: `${fn}() expects ${param} in [${lo}, ${hi}] (${what}), got ${pyRepr(v)}` };
  return n;
}

/** Python-style rendering of the call for output lines. */
function callText(fn: string, args: unknown[]): string {
  return `${fn}(${args.map(pyRepr).join(', ')})`;
}

export const actctxApi: RobotApi = {
  id: 'actctx',
  description: 'Action Contextualization skills (approach/pick/place/drop with speed, obstacle_clearance, grasp, orientation) and checks.',
  functions: FUNCTIONS,
  measured: new Set(['approach', 'pick', 'place', 'drop']),
  call(ctx, fn, args): SimCallResult {
    const shape = callShapeError(FUNCTIONS, fn, args);
    if (shape) return { ok: false, error: shape };
    const call = callText(fn, args);
    const speedClear = (si: number): Parsed<{ speed: number; clearance: number }> => {
      const sp = unit(fn, 'speed', args[si], 0, 1, 'fraction of full speed');
      if (!sp.ok) return sp;
      if (sp.value === 0) return { ok: false, error: `${fn}() expects speed > 0` };
      const c = unit(fn, 'obstacle_clearance', args[si + 1], 0, 0.3, 'metres');
      if (!c.ok) return c;
      return { ok: true, value: { speed: sp.value, clearance: c.value } };
    };
    switch (fn) {
      case 'approach':
      case 'pick': {
        const o = objectArg(ctx, fn, 'object_to_grasp', args[0]);
        if (!o.ok) return o;
        const p = speedClear(1);
        if (!p.ok) return p;
        const g = graspArg(fn, args[3]);
        if (!g.ok) return g;
        return fn === 'approach' ? approach(ctx, o.value, p.value, g.value, call) : pick(ctx, o.value, p.value, g.value, call);
      }
      case 'place': {
        const l = locationArg(ctx, fn, args[0]);
        if (!l.ok) return l;
        const or = unit(fn, 'orientation', args[1], 0, 1, 'how strictly to keep the orientation');
        if (!or.ok) return or;
        const p = speedClear(2);
        if (!p.ok) return p;
        return place(ctx, l.value.loc, l.value.index, or.value, p.value, call);
      }
      case 'drop': {
        const l = locationArg(ctx, fn, args[0]);
        if (!l.ok) return l;
        const p = speedClear(1);
        if (!p.ok) return p;
        return drop(ctx, l.value.loc, l.value.index, p.value, call);
      }
      case 'can_grasp': {
        const o = objectArg(ctx, fn, 'object', args[0]);
        if (!o.ok) return o;
        const g = graspArg(fn, args[1]);
        if (!g.ok) return g;
        return canGrasp(ctx, o.value, g.value, call);
      }
      case 'holding':
        return holding(ctx, call);
      case 'at_location': {
        const o = objectArg(ctx, fn, 'object', args[0]);
        if (!o.ok) return o;
        const l = locationArg(ctx, fn, args[1]);
        if (!l.ok) return l;
        return atLocation(ctx, o.value, l.value.loc, l.value.index, call);
      }
      case 'collision_free':
        return collisionFree(ctx, call);
      case 'timeout':
        return timeout(ctx, call);
      case 'check_motion_health':
        return motionHealth(ctx, call);
      case 'can_reach': {
        const g = graspArg(fn, args[1]);
        if (!g.ok) return g;
        const s = str(fn, 'goal', args[0]);
        if (!s.ok) return s;
        const loc = (ctx.task?.locations ?? []).find((l) => l.name === s.value);
        if (loc) return canReach(ctx, { loc, index: ctx.scene.objects.findIndex((o) => o.name === loc.name) }, g.value, call);
        const o = objectArg(ctx, fn, 'goal', args[0]);
        if (!o.ok) return o;
        return canReach(ctx, { object: o.value }, g.value, call);
      }
      default:
        return { ok: true };
    }
  },
};

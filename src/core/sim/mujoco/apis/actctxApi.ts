// Action Contextualization's interface (Tables I-III of the paper): skills approach/pick/place/drop with their
// positional argument orders, and the checks the evaluation plans call. Labels are object names; locations
// come from the task. Checks return values (bool, or a label for collision_free).
import { ACTCTX_API } from '../../../apis/catalog.js';
import { callShapeError, finiteNumber, pyRepr, str } from './args.js';
import { canGrasp, canReach, collisionFree, holding, motionHealth, timeout, atLocation } from './actctx/checks.js';
import { approach, drop, pick, place } from './actctx/skills.js';
import type { GraspKind } from './actctx/graspPoses.js';
import type { RobotApi, RobotApiContext, SimCallResult } from './robotApi.js';
import type { LocationSpec } from '../tasks/taskDefinition.js';

const FUNCTIONS = ACTCTX_API;


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
        if (args[1] === 'robot') return atLocation(ctx, o.value, 'robot', -1, call);
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

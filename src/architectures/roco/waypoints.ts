// Where the waypoints given to the multi-arm planner come from (RoCo's Fig. 4): the agents' own PATHs, points on
// the straight line from each gripper to the PATH's end, hard-coded top-down paths (up to a safe height, across,
// down to the PATH's end), or none (the planner searches unseeded). Only PATHs the agents wrote are replaced, with
// as many points: their last point is the agents' goal (a free spot in the bin), and an action without a PATH keeps
// none, since tasks give some verbs their own motions (a tool brought to a cube, a door swung open) that a generic
// path to "above the object" would contradict.
import type { AgentAction, ObjectState } from '../../protocol/trace.js';
import type { Observation } from '../../core/sim/simulator.js';

export type PathSource = 'agents' | 'linear' | 'topdown' | 'none';

type V3 = [number, number, number];

/** Safe travel height of the top-down paths (metres above the table top). */
const TOPDOWN_CLEARANCE_M = 0.3;

const isPath = (x: unknown): x is V3[] => Array.isArray(x) && x.length > 0 && Array.isArray(x[0]);

/** Where a combined PICK <object> PLACE <target> leaves the gripper before its PLACE part: 12 cm above the object. */
function liftPoint(a: AgentAction, objects: readonly ObjectState[]): V3 | null {
  const o = objects.find((x) => x.name === a.args[0]);
  return o ? [o.pos[0], o.pos[1], o.pos[2] + o.size[2] / 2 + 0.12] : null;
}

function lerp(a: V3, b: V3, f: number): V3 {
  return [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2])];
}

const r3 = (p: V3): V3 => [Math.round(p[0] * 1000) / 1000, Math.round(p[1] * 1000) / 1000, Math.round(p[2] * 1000) / 1000];

/** `n` points evenly spaced by length along the polyline `pts` (the last one at its end). */
function along(pts: V3[], n: number): V3[] {
  const seg: number[] = [];
  for (let i = 1; i < pts.length; i++) seg.push(Math.hypot(pts[i]![0] - pts[i - 1]![0], pts[i]![1] - pts[i - 1]![1], pts[i]![2] - pts[i - 1]![2]));
  const total = seg.reduce((s, x) => s + x, 0);
  const out: V3[] = [];
  for (let k = 1; k <= n; k++) {
    let d = (k / n) * total;
    let i = 0;
    while (i < seg.length - 1 && d > seg[i]!) d -= seg[i++]!;
    out.push(r3(lerp(pts[i]!, pts[i + 1]!, seg[i]! > 0 ? Math.min(1, d / seg[i]!) : 1)));
  }
  return out;
}

export function replacePaths(actions: AgentAction[], whole: Observation, source: PathSource): AgentAction[] {
  if (source === 'agents') return actions;
  const tableZ = Math.min(...whole.state.objects.map((o) => o.pos[2] - o.size[2] / 2), 10);
  return actions.map((a) => {
    const own = a.args.find(isPath);
    if (!own) return a;
    const base = a.args.filter((x) => !isPath(x));
    if (source === 'none') return { ...a, args: base };
    const target = own[own.length - 1]!;
    // A combined PICK ... PLACE's PATH belongs to its PLACE part, which starts where the pick lifted the object.
    const combined = a.name === 'PICK' && a.args[1] === 'PLACE';
    const from = combined ? liftPoint(a, whole.state.objects) : (whole.state.robots?.find((r) => r.name === a.agent)?.pos as V3 | undefined);
    if (!from) return a;
    let path: V3[];
    if (source === 'linear') path = along([from, target], own.length);
    else {
      const safe = Math.max(from[2], target[2], tableZ + TOPDOWN_CLEARANCE_M);
      path = along([from, [from[0], from[1], safe], [target[0], target[1], safe], target], own.length);
    }
    return { ...a, args: [...base, path] };
  });
}

// RoCo's plan validation, in its order: (1) parse, (2) task constraints, (3) IK of each goal, (4) collisions of
// all goals together, (5) waypoint validity (each PATH point reachable and collision-free, evenly spaced).
// The first failing check returns the feedback text that goes back to the agents, worded after RoCo's code.
import type { Vec3 } from '../../scene/sceneSpec.js';
import type { RobotApiContext } from '../robotApi.js';
import { parsePlan, type RocoAction } from './planParser.js';
import { objectIndex, rocoGoal, type RocoGoal } from './rocoGoals.js';

export type RocoCheck = 'parse' | 'task constraints' | 'IK' | 'collision' | 'waypoints';

export type PlanVerdict = { ok: true; actions: RocoAction[]; goals: RocoGoal[]; q: (number[] | null)[] } | { ok: false; check: RocoCheck; feedback: string };

/** Spread of step lengths (standard deviation) above which a PATH is not evenly spaced. */
export const PATH_STD_MAX_M = 0.03;
const ZONE_MARGIN_M = 0.02;

const fmt = (p: readonly number[]) => `(${p.map((v) => v.toFixed(2)).join(', ')})`;

function planText(actions: RocoAction[]): string {
  return actions.map((a) => a.line).join('\n');
}

function robotsOf(ctx: RobotApiContext): { name: string; reachX: [number, number] }[] {
  const setup = ctx.task?.multiArm;
  if (setup) return setup.robots;
  return ctx.scene.arms.map((a, i) => ({ name: a.layout.spec.label.trim() || `robot${i + 1}`, reachX: [-Infinity, Infinity] as [number, number] }));
}

export function checkPlan(ctx: RobotApiContext, text: string): PlanVerdict {
  const robots = robotsOf(ctx);
  const names = robots.map((r) => r.name);
  // (1) parse
  const parsed = parsePlan(text, names);
  if (!parsed.ok) {
    return { ok: false, check: 'parse', feedback: `This previous response from [${parsed.robot}] failed to parse!: '${parsed.line}' ${parsed.reason}. Re-format to strictly follow [Action Output Instruction]!` };
  }
  const actions = parsed.actions.sort((a, b) => names.indexOf(a.robot) - names.indexOf(b.robot));
  const header = `[Environment Feedback]:\n- Previous Plan:\n${planText(actions)}\n`;
  const armOf = (robot: string) => names.indexOf(robot);
  // (2) task constraints
  const problems: string[] = [];
  const heldNow = ctx.state.grasps.map((g) => (g ? ctx.scene.objects[g.object]!.name : null));
  for (const a of actions) {
    const arm = armOf(a.robot);
    for (const name of [a.object, a.target].filter((n): n is string => n !== undefined)) {
      if (objectIndex(ctx, name) < 0) problems.push(`${a.robot}: there is no '${name}'`);
    }
    if (problems.length > 0) continue;
    if (a.verb === 'PICK' && heldNow[arm]) problems.push(`${a.robot} must PICK only with an empty gripper, but holds ${heldNow[arm]}`);
    if (a.verb === 'PLACE' && heldNow[arm] !== a.object) problems.push(`${a.robot} can only PLACE what it holds (${heldNow[arm] ?? 'nothing'}), not ${a.object}`);
  }
  if (problems.length === 0) {
    const taken = new Map<string, string>();
    for (const a of actions.filter((x) => x.verb === 'PICK')) {
      if (taken.has(a.object!)) problems.push(`${a.robot} and ${taken.get(a.object!)} both PICK ${a.object}`);
      taken.set(a.object!, a.robot);
    }
  }
  const goals: RocoGoal[] = [];
  if (problems.length === 0) {
    for (const a of actions) {
      const arm = armOf(a.robot);
      const g = rocoGoal(ctx, arm, a, a.verb === 'PLACE' ? objectIndex(ctx, a.object!) : null);
      goals.push(g);
      const [lo, hi] = robots[arm]!.reachX;
      if (a.verb !== 'WAIT' && (g.zonePoint[0] < lo - ZONE_MARGIN_M || g.zonePoint[0] > hi + ZONE_MARGIN_M)) {
        const what = a.verb === 'PICK' ? a.object : a.verb === 'PLACE' ? a.target : fmt(g.zonePoint);
        problems.push(`${a.robot} cannot reach ${what} at x = ${g.zonePoint[0].toFixed(2)}: its reach is x in [${lo.toFixed(2)}, ${hi.toFixed(2)}]`);
      }
    }
  }
  if (problems.length === 0 && ctx.task?.planRules) {
    const rule = ctx.task.planRules(
      actions.map((a) => ({ robot: a.robot, verb: a.verb, ...(a.object ? { object: a.object } : {}), ...(a.target ? { target: a.target } : {}) })),
      viewOf(ctx),
    );
    if (rule) problems.push(rule);
  }
  if (problems.length > 0) return { ok: false, check: 'task constraints', feedback: `${header}Task Constraints:\n faild, ${problems.join('; ')}` };
  // (3) IK of every goal (and the pose above it)
  const q: (number[] | null)[] = ctx.scene.arms.map(() => null);
  const ikFails: string[] = [];
  actions.forEach((a, i) => {
    if (a.verb === 'WAIT') return;
    const arm = armOf(a.robot);
    const ctrl = ctx.arms[arm]!;
    for (const t of [goals[i]!.above, goals[i]!.target]) {
      if (!t) continue;
      const s = ctrl.solveTarget(t);
      if (!s.sol.converged) ikFails.push(`${a.robot}'s goal ${fmt(t.pos)}`);
      else if (t === goals[i]!.target) q[arm] = s.sol.q;
    }
  });
  if (ikFails.length > 0) return { ok: false, check: 'IK', feedback: `${header}- Goal Step:\n - IK failed: on ${ikFails.join(', ')}` };
  // (4) collisions of all goal configurations together
  const allowed = ctx.scene.arms.map(() => new Set<number>());
  actions.forEach((a) => {
    const arm = armOf(a.robot);
    if (a.object) allowed[arm]!.add(objectIndex(ctx, a.object));
    if (a.target && a.verb === 'PLACE') allowed[arm]!.add(objectIndex(ctx, a.target));
  });
  const hits = ctx.checker.collisions(ctx.state, q, allowed);
  if (hits.length > 0) {
    return { ok: false, check: 'collision', feedback: `${header}- Goal Step ${goalsText(actions, goals)}:\n - Collision detected: collided object pairs: ${hits.map((h) => `${h.a.trim()}-${h.b.trim()}`).join(', ')}` };
  }
  // (5) waypoints
  for (const [i, a] of actions.entries()) {
    if (a.path.length === 0) continue;
    const arm = armOf(a.robot);
    const ctrl = ctx.arms[arm]!;
    const yaw = ctx.state.tcp(arm).yawRad;
    for (const p of a.path) {
      const s = ctrl.solveTarget({ pos: p, yawRad: yaw });
      if (!s.sol.converged) return { ok: false, check: 'waypoints', feedback: `${header}- Waypoint Step ${a.robot} ${fmt(p)}:\n - IK failed: on ${a.robot}'s waypoint ${fmt(p)}` };
      const c = ctx.checker.collisions(
        ctx.state,
        ctx.scene.arms.map((_, k) => (k === arm ? s.sol.q : null)),
        allowed,
      );
      if (c.length > 0) return { ok: false, check: 'waypoints', feedback: `${header}- Waypoint Step ${a.robot} ${fmt(p)}:\n - Collision detected: collided object pairs: ${c.map((h) => `${h.a.trim()}-${h.b.trim()}`).join(', ')}` };
    }
    const spacing = evenness([ctx.state.tcp(arm).pos, ...a.path, goals[i]!.above?.pos ?? goals[i]!.target.pos]);
    if (spacing) return { ok: false, check: 'waypoints', feedback: `${header}You must make ${a.robot}'s path more evenly spaced: ${spacing}` };
  }
  return { ok: true, actions, goals, q };
}

function goalsText(actions: RocoAction[], goals: RocoGoal[]): string {
  return actions.map((a, i) => `${a.robot} ${fmt(goals[i]!.target.pos)}`).join('; ');
}

/** Null when the steps are evenly spaced; else which step is off and the spread. */
export function evenness(points: Vec3[]): string | null {
  const d: number[] = [];
  for (let i = 1; i < points.length; i++) d.push(Math.hypot(points[i]![0] - points[i - 1]![0], points[i]![1] - points[i - 1]![1], points[i]![2] - points[i - 1]![2]));
  if (d.length < 2) return null;
  const mean = d.reduce((s, x) => s + x, 0) / d.length;
  const std = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / d.length);
  if (std <= PATH_STD_MAX_M) return null;
  let worst = 0;
  d.forEach((x, i) => Math.abs(x - mean) > Math.abs(d[worst]! - mean) && (worst = i));
  const w = d[worst]!;
  return `Distance between ${fmt(points[worst]!)}-${fmt(points[worst + 1]!)} is ${w.toFixed(3)}, too ${w > mean ? 'high' : 'low'}; Overall Distance std: ${std.toFixed(3)}`;
}

function viewOf(ctx: RobotApiContext) {
  return {
    objects: ctx.scene.objects.map((o, i) => {
      const pose = ctx.state.objectPose(i);
      const sp = ctx.state.objectSpeed(i);
      return { name: o.name, pos: pose.pos, quat: pose.quat, size: [...ctx.scene.built.spec.objects[i]!.size] as Vec3, linearSpeed: sp.linear, angularSpeed: sp.angular };
    }),
    grasped: ctx.scene.arms.map((_, a) => ctx.state.graspedName(a)),
    tableTopZ: ctx.scene.built.spec.table.topZ,
    ...(ctx.goal ? { goal: ctx.goal } : {}),
  };
}

// RoCo's plan validation, in its order: (1) parse, (2) task constraints, (3) IK of each goal, (4) collisions of
// all goals together, (5) waypoint validity (each PATH step of all robots together reachable and collision-free,
// evenly spaced). The first failing check returns the feedback text that goes back to the agents, worded after
// RoCo's code; every check that ran is listed with its verdict. A plan that passes carries what the executor
// needs: the goals, each robot's approach configuration and the joint configurations of the PATH steps (the
// multi-arm planner's seeds), so what was checked is what runs.
import type { Vec3 } from '../../scene/sceneSpec.js';
import type { RobotApiContext } from '../robotApi.js';
import { parsePlan, type ExtraVerb, type RocoAction } from './planParser.js';
import { approachOf, objectIndex, rocoGoal, type RocoGoal } from './rocoGoals.js';

export type RocoCheck = 'parse' | 'task constraints' | 'IK' | 'collision' | 'waypoints';
export const ROCO_CHECKS: readonly RocoCheck[] = ['parse', 'task constraints', 'IK', 'collision', 'waypoints'];

export interface CheckVerdict {
  name: RocoCheck;
  ok: boolean;
  /** The feedback text of a failed check. */
  feedback?: string;
}

export interface CheckedPlan {
  ok: true;
  actions: RocoAction[];
  goals: RocoGoal[];
  /** Per arm: the configuration at its approach pose (its current one when it has none). */
  approachQ: number[][];
  /** Per arm: the yaw its approach was solved with (a half turn from the asked one when only that is reachable). */
  approachYaw: number[];
  /** Joint configurations of all arms at each PATH step (the multi-arm planner's seeds). */
  seeds: number[][][];
  checks: CheckVerdict[];
}

export type PlanVerdict = CheckedPlan | { ok: false; check: RocoCheck; feedback: string; checks: CheckVerdict[] };

/** Spread of step lengths (standard deviation) above which a PATH is not evenly spaced. */
export const PATH_STD_MAX_M = 0.03;
const ZONE_MARGIN_M = 0.02;
/** A PATH point this close to where the robot is, or to its approach pose, is that pose (RoCo's paths include both). */
const SAME_POINT_M = 0.03;

const fmt = (p: readonly number[]) => `(${p.map((v) => v.toFixed(2)).join(', ')})`;
const dist3 = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

function planText(actions: RocoAction[]): string {
  return actions.map((a) => a.line).join('\n');
}

export function robotsOf(ctx: RobotApiContext): { name: string; reachX: [number, number] }[] {
  const setup = ctx.task?.multiArm;
  if (setup) return setup.robots;
  return ctx.scene.arms.map((a, i) => ({ name: a.layout.spec.label.trim() || `robot${i + 1}`, reachX: [-Infinity, Infinity] as [number, number] }));
}

export function extraVerbs(ctx: RobotApiContext): Record<string, ExtraVerb> {
  return Object.fromEntries(Object.entries(ctx.task?.multiArm?.verbs ?? {}).map(([k, v]) => [k, { args: v.args }]));
}

/** A robot's PATH without the points that are its start or its approach pose. */
export function innerPath(path: Vec3[], start: Vec3, approach: Vec3 | null): Vec3[] {
  return path.filter((p, i) => !(i === 0 && dist3(p, start) < SAME_POINT_M) && !(i === path.length - 1 && approach && dist3(p, approach) < SAME_POINT_M));
}

export function checkPlan(ctx: RobotApiContext, text: string): PlanVerdict {
  const robots = robotsOf(ctx);
  const names = robots.map((r) => r.name);
  const setup = ctx.task?.multiArm;
  const checks: CheckVerdict[] = [];
  const fail = (check: RocoCheck, feedback: string): PlanVerdict => {
    checks.push({ name: check, ok: false, feedback });
    return { ok: false, check, feedback, checks };
  };
  const pass = (check: RocoCheck) => checks.push({ name: check, ok: true });
  // (1) parse
  const parsed = parsePlan(text, names, extraVerbs(ctx));
  let parseError: { robot: string; line: string; reason: string } | null = parsed.ok ? null : parsed;
  // A task's required PATH (and its number of points) is a rule of the agents' output format, checked where their
  // text is parsed (RoCo's LLMResponseParser); here a plan without PATHs runs with the planner's own motion.
  if (parsed.ok) {
    const disabled = parsed.actions.find((a) => (setup?.without as string[] | undefined)?.includes(a.verb));
    if (disabled) parseError = { robot: disabled.robot, line: disabled.line, reason: `this task has no ${disabled.verb} action` };
  }
  if (parseError || !parsed.ok) {
    const e = parseError!;
    return fail('parse', `This previous response from [${e.robot}] failed to parse!: '${e.line}' ${e.reason}. Re-format to strictly follow [Action Output Instruction]!`);
  }
  pass('parse');
  const actions = parsed.actions.sort((a, b) => names.indexOf(a.robot) - names.indexOf(b.robot));
  const header = `[Environment Feedback]:\n- Previous Plan:\n${planText(actions)}\n`;
  const armOf = (robot: string) => names.indexOf(robot);
  // (2) task constraints
  const problems: string[] = [];
  const heldNow = ctx.state.grasps.map((g) => (g ? ctx.scene.objects[g.object]!.name : null));
  for (const a of actions) {
    const arm = armOf(a.robot);
    for (const name of [a.object, a.target, a.then?.target].filter((n): n is string => n !== undefined)) {
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
      const g = adoptPathEnd(rocoGoal(ctx, arm, a, a.verb === 'PLACE' ? objectIndex(ctx, a.object!) : null), a.path);
      goals.push(g);
      const [lo, hi] = robots[arm]!.reachX;
      const reach = setup?.robots[arm]?.reachText ? `it can only reach ${setup.robots[arm]!.reachText}` : `its reach is x in [${lo.toFixed(2)}, ${hi.toFixed(2)}]`;
      const outside = (x: number) => x < lo - ZONE_MARGIN_M || x > hi + ZONE_MARGIN_M;
      if (a.verb !== 'WAIT' && outside(g.zonePoint[0])) {
        const what = a.object ?? a.target ?? fmt(g.zonePoint);
        const shown = a.verb === 'PLACE' ? a.target : what;
        problems.push(`${a.robot} cannot reach ${shown} at x = ${g.zonePoint[0].toFixed(2)}: ${reach}`);
      }
      if (a.then) {
        // The PLACE part, as it will be once the PICK has run (the object in hand).
        const later = rocoGoal(ctx, arm, a.then, objectIndex(ctx, a.then.object!));
        if (outside(later.zonePoint[0])) problems.push(`${a.robot} cannot reach ${a.then.target} at x = ${later.zonePoint[0].toFixed(2)}: ${reach}`);
      }
    }
  }
  if (problems.length === 0 && ctx.task?.planRules) {
    const rule = ctx.task.planRules(
      actions.flatMap((a) => [a, ...(a.then ? [a.then] : [])]).map((a) => ({ robot: a.robot, verb: a.verb, ...(a.object ? { object: a.object } : {}), ...(a.target ? { target: a.target } : {}), ...(a.point ? { point: a.point } : {}) })),
      viewOf(ctx),
    );
    if (rule) problems.push(rule);
  }
  if (problems.length > 0) return fail('task constraints', `${header}Task Constraints:\n faild, ${problems.join('; ')}`);
  pass('task constraints');
  // (3) IK of every goal (the approach pose and the pose the main motion ends at)
  const qNow = ctx.scene.arms.map((_, a) => ctx.state.armQ(a));
  const approachQ = qNow.map((q) => [...q]);
  const approachYaw = ctx.scene.arms.map((_, a) => ctx.state.tcp(a).yawRad);
  const goalQ: (number[] | null)[] = ctx.scene.arms.map(() => null);
  const ikFails: string[] = [];
  actions.forEach((a, i) => {
    if (a.verb === 'WAIT') return;
    const arm = armOf(a.robot);
    const ctrl = ctx.arms[arm]!;
    const g = goals[i]!;
    const ap = approachOf(g);
    if (ap) {
      const s = ctrl.solveTarget(ap);
      if (!s.sol.converged) ikFails.push(`${a.robot}'s goal ${fmt(ap.pos)}`);
      else {
        approachQ[arm] = s.sol.q;
        approachYaw[arm] = s.yawRad;
      }
    }
    if (g.target !== ap) {
      const s = ctrl.solveTarget(g.target);
      if (!s.sol.converged) ikFails.push(`${a.robot}'s goal ${fmt(g.target.pos)}`);
      else goalQ[arm] = s.sol.q;
    } else goalQ[arm] = approachQ[arm]!;
  });
  // The PLACE parts of combined actions: their goals as they will be once the objects are in hand.
  const laterQ: (number[] | null)[] = ctx.scene.arms.map(() => null);
  const laterGoals: { a: RocoAction; g: RocoGoal }[] = [];
  actions.forEach((a) => {
    if (!a.then) return;
    const arm = armOf(a.robot);
    const g = rocoGoal(ctx, arm, a.then, objectIndex(ctx, a.then.object!));
    laterGoals.push({ a, g });
    const s = ctx.arms[arm]!.solveTarget(g.target);
    if (!s.sol.converged) ikFails.push(`${a.robot}'s goal ${fmt(g.target.pos)}`);
    else laterQ[arm] = s.sol.q;
  });
  if (ikFails.length > 0) return fail('IK', `${header}- Goal Step:\n - IK failed: on ${ikFails.join(', ')}`);
  pass('IK');
  // (4) collisions of all goal configurations together
  const allowed = allowedSets(ctx, actions, armOf);
  const hits = ctx.checker.collisions(ctx.state, goalQ, allowed);
  if (hits.length > 0) {
    return fail('collision', `${header}- Goal Step ${goalsText(actions, goals)}:\n - Collision detected: collided object pairs: ${hits.map((h) => `${h.a.trim()}-${h.b.trim()}`).join(', ')}`);
  }
  if (laterGoals.length > 0) {
    // Robots placing in the same round must not meet at their targets either (the others stay where they ended).
    const q2 = goalQ.map((q, arm) => laterQ[arm] ?? q);
    const hits2 = ctx.checker.collisions(ctx.state, q2, allowed);
    if (hits2.length > 0) {
      return fail('collision', `${header}- Goal Step ${laterGoals.map(({ a, g }) => `${a.robot} ${fmt(g.target.pos)}`).join('; ')}:\n - Collision detected: collided object pairs: ${hits2.map((h) => `${h.a.trim()}-${h.b.trim()}`).join(', ')}`);
    }
  }
  pass('collision');
  // (5) waypoints: every PATH step of all robots together, then each path's spacing
  const inner = actions.map((a, i) => {
    const ap = approachOf(goals[i]!);
    return innerPath(a.path, ctx.state.tcp(armOf(a.robot)).pos, ap ? ap.pos : null);
  });
  const withPath = actions.map((a, i) => ({ a, i })).filter(({ i }) => inner[i]!.length > 0);
  // RoCo's rule is on the PATHs as written: dropping a point that repeats a robot's start or approach must not turn
  // two four-point PATHs into a mismatch the agents cannot see (or, with replaced waypoints, fix).
  const lengths = new Set(withPath.map(({ a }) => a.path.length));
  if (lengths.size > 1) {
    return fail('waypoints', `${header}All PATHs must have the same number of steps: ${withPath.map(({ a }) => `${a.robot} has ${a.path.length}`).join(', ')}`);
  }
  const steps = Math.max(0, ...withPath.map(({ i }) => inner[i]!.length));
  const seeds: number[][][] = [];
  const warm = qNow.map((q) => [...q]);
  for (let k = 0; k < steps; k++) {
    const qs = qNow.map((q0, arm) => q0.map((v, j) => v + ((k + 1) / (steps + 1)) * (approachQ[arm]![j]! - v)));
    const where: string[] = [];
    for (const { a, i } of withPath) {
      const arm = armOf(a.robot);
      // A path one point shorter after the trim keeps a point for two steps (it still ends on its last one).
      const own = inner[i]!;
      const p = own[Math.min(own.length - 1, Math.floor((k * own.length) / steps))]!;
      where.push(`${a.robot} ${fmt(p)}`);
      const sol = ctx.arms[arm]!.ik.solve(warm[arm]!, { pos: p, yawRad: approachYaw[arm]! }, { rest: ctx.arms[arm]!.homeQ });
      const fallback = sol.converged ? sol : ctx.arms[arm]!.solveTarget({ pos: p, yawRad: approachYaw[arm]! }).sol;
      if (!fallback.converged) return fail('waypoints', `${header}- Waypoint Step ${a.robot} ${fmt(p)}:\n - IK failed: on ${a.robot}'s waypoint ${fmt(p)}`);
      qs[arm] = fallback.q;
      warm[arm] = fallback.q;
    }
    const c = ctx.checker.collisions(ctx.state, qs, allowed);
    if (c.length > 0) return fail('waypoints', `${header}- Waypoint Step ${where.join('; ')}:\n - Collision detected: collided object pairs: ${c.map((h) => `${h.a.trim()}-${h.b.trim()}`).join(', ')}`);
    seeds.push(qs);
  }
  const stdMax = setup?.pathStdMaxM ?? PATH_STD_MAX_M;
  for (const { a, i } of withPath) {
    const arm = armOf(a.robot);
    const ap = approachOf(goals[i]!);
    const spacing = evenness([ctx.state.tcp(arm).pos, ...inner[i]!, ...(ap ? [ap.pos] : [])], stdMax);
    if (spacing) return fail('waypoints', `${header}You must make ${a.robot}'s path more evenly spaced: ${spacing}`);
  }
  pass('waypoints');
  return { ok: true, actions, goals, approachQ, approachYaw, seeds, checks };
}

/**
 * A PATH that ends straight above the action's target (within 3 cm across, 3 to 30 cm higher) ends the approach
 * there: the agent's last waypoint is where the straight descent starts, as in RoCo, where paths end atop the
 * target. Otherwise the approach ends at the default 10 cm above.
 */
function adoptPathEnd(g: RocoGoal, path: Vec3[]): RocoGoal {
  const last = path[path.length - 1];
  if (!last || !g.above || g.contact.length === 0) return g;
  const t = g.target.pos;
  const dz = last[2] - t[2];
  if (Math.hypot(last[0] - t[0], last[1] - t[1]) > 0.03 || dz < 0.03 || dz > 0.3) return g;
  return { ...g, above: { ...g.above, pos: [t[0], t[1], last[2]] } };
}

/** What each arm may touch while the plan runs: what its action is about and everything held. */
export function allowedSets(ctx: RobotApiContext, actions: RocoAction[], armOf: (robot: string) => number): Set<number>[] {
  const allowed = ctx.scene.arms.map(() => new Set<number>());
  actions.forEach((a) => {
    const arm = armOf(a.robot);
    if (a.object && objectIndex(ctx, a.object) >= 0) allowed[arm]!.add(objectIndex(ctx, a.object));
    if (a.target && a.verb === 'PLACE' && objectIndex(ctx, a.target) >= 0) allowed[arm]!.add(objectIndex(ctx, a.target));
  });
  for (const set of allowed) ctx.state.grasps.forEach((g) => g && set.add(g.object));
  // What rests on or in a held thing (cubes in a dustpan) travels with it.
  const sensors = ctx.state.data.sensordata as Float64Array;
  // Every arm may touch such cargo: pushing a cube into a dustpan that already holds one nudges it further in.
  ctx.state.grasps.forEach((g) => {
    if (!g) return;
    for (const { sensor, adr } of ctx.scene.sensors) {
      if (sensor.kind !== 'object' || sensors[adr]! <= 0) continue;
      const cargo = sensor.other === g.object ? sensor.object : sensor.object === g.object && sensor.other >= 0 ? sensor.other : -1;
      if (cargo >= 0) for (const set of allowed) set.add(cargo);
    }
  });
  return allowed;
}

function goalsText(actions: RocoAction[], goals: RocoGoal[]): string {
  return actions.map((a, i) => `${a.robot} ${fmt(goals[i]!.target.pos)}`).join('; ');
}

/** Null when the steps are evenly spaced; else which step is off and the spread. */
export function evenness(points: Vec3[], stdMaxM = PATH_STD_MAX_M): string | null {
  const d: number[] = [];
  for (let i = 1; i < points.length; i++) d.push(dist3(points[i]!, points[i - 1]!));
  if (d.length < 2) return null;
  const mean = d.reduce((s, x) => s + x, 0) / d.length;
  const std = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / d.length);
  if (std <= stdMaxM) return null;
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
      const slideM = ctx.state.slidePos(i);
      const angleRad = ctx.state.hingeAngle(i);
      return { name: o.name, pos: pose.pos, quat: pose.quat, size: [...ctx.scene.built.spec.objects[i]!.size] as Vec3, linearSpeed: sp.linear, angularSpeed: sp.angular, ...(slideM === null ? {} : { slideM }), ...(angleRad === null ? {} : { angleRad }) };
    }),
    grasped: ctx.scene.arms.map((_, a) => ctx.state.graspedName(a)),
    tableTopZ: ctx.scene.built.spec.table.topZ,
    ...(ctx.goal ? { goal: ctx.goal } : {}),
  };
}

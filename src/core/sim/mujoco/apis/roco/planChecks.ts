// RoCo's plan validation, in its order: (1) parse, (2) task constraints, (3) IK of each goal, (4) collisions of
// all goals together, (5) waypoint validity (each PATH step of all robots together reachable and collision-free,
// evenly spaced; the PATHs of combined PICK … PLACE actions too, from where the PICKs leave the arms, so a bad
// one is refused before the PICK runs). The first failing check returns the feedback text that goes back to the
// agents, worded after RoCo's code; every check that ran is listed with its verdict. A plan that passes carries what the executor
// needs: the goals, each robot's approach configuration and the joint configurations of the PATH steps (the
// multi-arm planner's seeds), so what was checked is what runs.
import { pairsText } from '../../robot/configChecker.js';
import type { IkSolution, ToolTarget } from '../../robot/ik.js';
import type { Vec3 } from '../../scene/sceneSpec.js';
import type { GraspState } from '../../simState.js';
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

/**
 * Spread of step lengths (standard deviation, metres) above which a PATH is not evenly spaced: RoCo's
 * `waypoint_std_threshold` (1.0 in its base environment; Pack Grocery 0.19 and Move Rope 0.3 set their own).
 */
export const PATH_STD_MAX_M = 1.0;
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
    const g = adoptPathEnd(rocoGoal(ctx, arm, a.then, objectIndex(ctx, a.then.object!)), a.then.path);
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
    return fail('collision', `${header}- Goal Step ${goalsText(actions, goals)}:\n - Collision detected: collided object pairs: ${pairsText(hits)}`);
  }
  if (laterGoals.length > 0) {
    // Robots placing in the same round must not meet at their targets either (the others stay where they ended).
    const q2 = goalQ.map((q, arm) => laterQ[arm] ?? q);
    const hits2 = ctx.checker.collisions(ctx.state, q2, allowed);
    if (hits2.length > 0) {
      return fail('collision', `${header}- Goal Step ${laterGoals.map(({ a, g }) => `${a.robot} ${fmt(g.target.pos)}`).join('; ')}:\n - Collision detected: collided object pairs: ${pairsText(hits2)}`);
    }
  }
  pass('collision');
  // (5) waypoints: the PATHs of the robots that move first, then those of the PLACE parts of combined actions
  const stdMax = setup?.pathStdMaxM ?? PATH_STD_MAX_M;
  const moves = actions.map((a, i) => ({ robot: a.robot, arm: armOf(a.robot), path: a.path, start: ctx.state.tcp(armOf(a.robot)).pos, approach: approachOf(goals[i]!)?.pos ?? null, target: goals[i]!.target.pos }));
  const first = checkWaypoints(ctx, { startQ: qNow, approachQ, approachYaw, moves }, allowed, stdMax);
  if (!first.ok) return fail('waypoints', header + first.feedback);
  if (laterGoals.some(({ a }) => a.then!.path.length > 0)) {
    const later = placeStage(ctx, actions, goals, goalQ, laterGoals, laterQ, approachYaw, armOf);
    const w = checkWaypoints(ctx, later.stage, later.allowed, stdMax);
    if (!w.ok) return fail('waypoints', header + w.feedback);
  }
  pass('waypoints');
  return { ok: true, actions, goals, approachQ, approachYaw, seeds: first.seeds, checks };
}

/** A stage of a plan as the waypoint check sees it: each arm's start and approach configuration, the PATHs. */
interface WaypointStage {
  startQ: number[][];
  approachQ: number[][];
  approachYaw: number[];
  moves: { robot: string; arm: number; path: Vec3[]; start: Vec3; approach: Vec3 | null; target: Vec3 }[];
  /** What the arms hold during the stage, when not what they hold now. */
  grasps?: (GraspState | null)[];
}

/**
 * RoCo's waypoint validity for one stage: PATHs of equal length, each step of all robots together IK-solvable and
 * collision-free (robots without a PATH interpolated from start to approach), each PATH evenly spaced. Returns the
 * step configurations (the multi-arm planner's seeds) or the failure's feedback.
 */
function checkWaypoints(ctx: RobotApiContext, stage: WaypointStage, allowed: Set<number>[], stdMax: number): { ok: true; seeds: number[][][] } | { ok: false; feedback: string } {
  const withPath = stage.moves.map((m) => ({ m, own: innerPath(m.path, m.start, m.approach) })).filter(({ own }) => own.length > 0);
  // RoCo's rule is on the PATHs as written: dropping a point that repeats a robot's start or approach must not turn
  // two four-point PATHs into a mismatch the agents cannot see (or, with replaced waypoints, fix).
  const lengths = new Set(withPath.map(({ m }) => m.path.length));
  if (lengths.size > 1) return { ok: false, feedback: `All PATHs must have the same number of steps: ${withPath.map(({ m }) => `${m.robot} has ${m.path.length}`).join(', ')}` };
  const steps = Math.max(0, ...withPath.map(({ own }) => own.length));
  const seeds: number[][][] = [];
  const warm = stage.startQ.map((q) => [...q]);
  for (let k = 0; k < steps; k++) {
    const qs = stage.startQ.map((q0, arm) => q0.map((v, j) => v + ((k + 1) / (steps + 1)) * (stage.approachQ[arm]![j]! - v)));
    const where: string[] = [];
    for (const { m, own } of withPath) {
      // A path one point shorter after the trim keeps a point for two steps (it still ends on its last one).
      const p = own[Math.min(own.length - 1, Math.floor((k * own.length) / steps))]!;
      where.push(`${m.robot} ${fmt(p)}`);
      const sol = solveNear(ctx, m.arm, warm[m.arm]!, { pos: p, yawRad: stage.approachYaw[m.arm]! });
      if (!sol.converged) return { ok: false, feedback: `- Waypoint Step ${m.robot} ${fmt(p)}:\n - IK failed: on ${m.robot}'s waypoint ${fmt(p)}` };
      qs[m.arm] = sol.q;
      warm[m.arm] = sol.q;
    }
    const c = ctx.checker.collisions(ctx.state, qs, allowed, stage.grasps);
    if (c.length > 0) return { ok: false, feedback: `- Waypoint Step ${where.join('; ')}:\n - Collision detected: collided object pairs: ${pairsText(c)}` };
    seeds.push(qs);
  }
  // Evenness as RoCo's code measures it: the gripper, the PATH as written, the action's target.
  for (const { m } of withPath) {
    const spacing = evenness([m.start, ...m.path, m.target], stdMax);
    if (spacing) return { ok: false, feedback: `You must make ${m.robot}'s path more evenly spaced:\n${spacing}` };
  }
  return { ok: true, seeds };
}

/** IK from a nearby configuration (the previous step's), else from the controller's usual seeds. */
function solveNear(ctx: RobotApiContext, arm: number, warm: number[], target: ToolTarget): IkSolution {
  const ctrl = ctx.arms[arm]!;
  const sol = ctrl.ik.solve(warm, target, { rest: ctrl.homeQ });
  return sol.converged ? sol : ctrl.solveTarget(target).sol;
}

/**
 * The stage the PLACE parts of combined actions run in, as the executor runs it once the first stage is done:
 * each placing robot starts where its PICK lifted the object, holding it, and goes to its place approach; every
 * other robot stays where its own action ended (at its goal if that end pose has no IK solution), holding what it
 * holds now (a PLACE's object is taken where that hand ends, above where the object will lie).
 */
function placeStage(
  ctx: RobotApiContext,
  actions: RocoAction[],
  goals: RocoGoal[],
  goalQ: (number[] | null)[],
  laterGoals: { a: RocoAction; g: RocoGoal }[],
  laterQ: (number[] | null)[],
  approachYaw: number[],
  armOf: (robot: string) => number,
): { stage: WaypointStage; allowed: Set<number>[] } {
  const startQ = ctx.scene.arms.map((_, a) => ctx.state.armQ(a));
  const grasps = [...ctx.state.grasps];
  const yawed = (arm: number, t: ToolTarget): ToolTarget => (t.R ? t : { ...t, yawRad: approachYaw[arm]! });
  actions.forEach((a, i) => {
    const arm = armOf(a.robot);
    const q = goalQ[arm];
    if (!q) return;
    const end = goals[i]!.depart.at(-1);
    const sol = end ? solveNear(ctx, arm, q, yawed(arm, end)) : null;
    startQ[arm] = sol?.converged ? sol.q : q;
    const obj = goals[i]!.graspObject;
    if (obj !== undefined) {
      // The object goes with the hand that picks it (a handover's giver lets go).
      grasps.forEach((g, k) => g?.object === obj && (grasps[k] = null));
      grasps[arm] = ctx.checker.graspAt(ctx.state, arm, q, obj);
    }
  });
  const approachQ = startQ.map((q) => [...q]);
  const moves = laterGoals.map(({ a, g }) => {
    const arm = armOf(a.robot);
    const i = actions.indexOf(a);
    const ap = approachOf(g) ?? g.target;
    const sol = solveNear(ctx, arm, laterQ[arm] ?? startQ[arm]!, yawed(arm, ap));
    approachQ[arm] = sol.converged ? sol.q : (laterQ[arm] ?? startQ[arm]!);
    const lift = goals[i]!.depart.at(-1) ?? goals[i]!.target;
    return { robot: a.robot, arm, path: a.then!.path, start: lift.pos, approach: ap.pos, target: g.target.pos };
  });
  const allowed = allowedSets(ctx, actions.flatMap((a) => (a.then ? [a, a.then] : [a])), armOf, grasps);
  return { stage: { startQ, approachQ, approachYaw, moves, grasps }, allowed };
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
export function allowedSets(ctx: RobotApiContext, actions: RocoAction[], armOf: (robot: string) => number, grasps: readonly (GraspState | null)[] = ctx.state.grasps): Set<number>[] {
  const allowed = ctx.scene.arms.map(() => new Set<number>());
  actions.forEach((a) => {
    const arm = armOf(a.robot);
    if (a.object && objectIndex(ctx, a.object) >= 0) allowed[arm]!.add(objectIndex(ctx, a.object));
    if (a.target && a.verb === 'PLACE' && objectIndex(ctx, a.target) >= 0) allowed[arm]!.add(objectIndex(ctx, a.target));
  });
  for (const set of allowed) grasps.forEach((g) => g && set.add(g.object));
  // What rests on or in a held thing (cubes in a dustpan) travels with it.
  const sensors = ctx.state.data.sensordata as Float64Array;
  // Every arm may touch such cargo: pushing a cube into a dustpan that already holds one nudges it further in.
  grasps.forEach((g) => {
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

/**
 * Null when the steps are evenly spaced; else RoCo's text (feedback.py): the longest step "too high", the shortest
 * "too low", and the standard deviation of the step lengths, which must not exceed `stdMaxM`.
 */
export function evenness(points: Vec3[], stdMaxM = PATH_STD_MAX_M): string | null {
  const d: number[] = [];
  for (let i = 1; i < points.length; i++) d.push(dist3(points[i]!, points[i - 1]!));
  if (d.length < 2) return null;
  const mean = d.reduce((s, x) => s + x, 0) / d.length;
  const std = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / d.length);
  if (std <= stdMaxM) return null;
  const hi = d.indexOf(Math.max(...d));
  const lo = d.indexOf(Math.min(...d));
  const pair = (i: number) => `${fmt(points[i]!)}-${fmt(points[i + 1]!)}`;
  return `  Distance between ${pair(hi)} is ${d[hi]!.toFixed(2)}, too high\n  Distance between ${pair(lo)} is ${d[lo]!.toFixed(2)}, too low\n  Overall Distance std: ${std.toFixed(2)}`;
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

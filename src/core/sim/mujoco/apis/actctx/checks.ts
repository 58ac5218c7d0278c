// Action Contextualization's checks (Table III and Appendix A of the paper), evaluated on ground truth. Each
// returns a value (bool, or the collided label for collision_free) and prints `check(args) -> value`.
import { inside, localOf, type ViewObject } from '../../tasks/checks.js';
import type { LocationSpec } from '../../tasks/taskDefinition.js';
import type { RobotApiContext, SimCallResult } from '../robotApi.js';
import { graspPlan, locationPoint, type GraspKind } from './graspPoses.js';
import { SKILL_TIMEOUT_SECS, type LastSkill } from './skills.js';

const ARM = 0;
/** can_grasp: the gripper must be this close to the object (after approach it is ~0.1 m away). */
export const GRASP_RANGE_M = 0.2;

function py(v: boolean | string): string {
  return typeof v === 'boolean' ? (v ? 'True' : 'False') : `'${v}'`;
}

export function checkResult(call: string, value: boolean | string, why?: string): SimCallResult {
  return { ok: true, value, output: `${call} -> ${py(value)}${why ? ` (${why})` : ''}` };
}

function view(ctx: RobotApiContext, i: number): ViewObject {
  const pose = ctx.state.objectPose(i);
  const speed = ctx.state.objectSpeed(i);
  return { name: ctx.scene.objects[i]!.name, pos: pose.pos, quat: pose.quat, size: [...ctx.scene.built.spec.objects[i]!.size] as [number, number, number], linearSpeed: speed.linear, angularSpeed: speed.angular };
}

/** Whether the grasp pose is reachable (IK) and free of collisions other than with the object itself. */
function graspFeasible(ctx: RobotApiContext, object: number, grasp: GraspKind): { ok: boolean; why: string } {
  const plan = graspPlan(ctx, object, grasp);
  const arm = ctx.arms[ARM]!;
  const sol = arm.ik.solve(ctx.state.armQ(ARM), plan.grasp, { rest: arm.homeQ });
  const sol2 = sol.converged ? sol : arm.ik.solve(arm.homeQ, plan.grasp, { rest: arm.homeQ });
  if (!sol2.converged) return { ok: false, why: `no IK solution for a ${grasp} grasp` };
  const allowed = ctx.scene.arms.map(() => new Set<number>());
  allowed[ARM]!.add(object);
  const hits = ctx.checker.collisions(ctx.state, ctx.scene.arms.map((_, a) => (a === ARM ? sol2.q : null)), allowed);
  if (hits.length > 0) return { ok: false, why: `the ${grasp} grasp pose would hit ${hits.map((h) => `${h.a}/${h.b}`).join(', ')}` };
  return { ok: true, why: '' };
}

export function canGrasp(ctx: RobotApiContext, object: number, grasp: GraspKind, call: string): SimCallResult {
  const g = ctx.state.grasps[ARM];
  if (g && g.object === object) return checkResult(call, true, 'holding it');
  if (g) return checkResult(call, false, `holding ${ctx.scene.objects[g.object]!.name}`);
  const tcp = ctx.state.tcp(ARM).pos;
  const o = ctx.state.objectPose(object).pos;
  const d = Math.hypot(tcp[0] - o[0], tcp[1] - o[1], tcp[2] - o[2]);
  if (d > GRASP_RANGE_M) return checkResult(call, false, `the gripper is ${d.toFixed(3)} m away`);
  const f = graspFeasible(ctx, object, grasp);
  return checkResult(call, f.ok, f.ok ? undefined : f.why);
}

export function holding(ctx: RobotApiContext, call: string): SimCallResult {
  const g = ctx.state.grasps[ARM];
  return checkResult(call, g !== null && g !== undefined, g ? ctx.scene.objects[g.object]!.name : undefined);
}

export function atLocation(ctx: RobotApiContext, object: number, loc: LocationSpec, locIndex: number, call: string): SimCallResult {
  return checkResult(call, objectAtLocation(view(ctx, object), view(ctx, locIndex), loc));
}

/** In a container (inside its walls, below its rim) or resting on a surface's top (within its footprint). */
export function objectAtLocation(o: ViewObject, place: ViewObject, loc: LocationSpec): boolean {
  if (loc.kind === 'container') return inside(o, place, loc.wallM ?? 0.01);
  const l = localOf(o.pos, place);
  const top = place.size[2] / 2;
  return Math.abs(l[0]) <= place.size[0] / 2 && Math.abs(l[1]) <= place.size[1] / 2 && Math.abs(l[2] - o.size[2] / 2 - top) < 0.02;
}

function last(ctx: RobotApiContext): LastSkill | null {
  return (ctx.memory['last'] as LastSkill | undefined) ?? null;
}

export function collisionFree(ctx: RobotApiContext, call: string): SimCallResult {
  const l = last(ctx);
  return checkResult(call, l?.collided[0] ?? '', l && l.collided.length > 1 ? `also ${l.collided.slice(1).join(', ')}` : undefined);
}

export function timeout(ctx: RobotApiContext, call: string): SimCallResult {
  const l = last(ctx);
  const ok = !l || l.durationSecs <= SKILL_TIMEOUT_SECS;
  return checkResult(call, ok, l ? `${l.action} took ${l.durationSecs.toFixed(2)} s of ${SKILL_TIMEOUT_SECS} s` : 'no action yet');
}

export function motionHealth(ctx: RobotApiContext, call: string): SimCallResult {
  const m = ctx.actionMetrics[ctx.actionMetrics.length - 1];
  if (!m) return checkResult(call, false, 'no action yet');
  const ok = m.mT > 0 && Number.isFinite(m.mT);
  return checkResult(call, ok, `motion score ${m.mT.toFixed(4)} = M_I ${m.mI.toFixed(4)} + M_E ${m.mE.toFixed(4)}`);
}

export function canReach(ctx: RobotApiContext, goal: { object: number } | { loc: LocationSpec; index: number }, grasp: GraspKind, call: string): SimCallResult {
  const arm = ctx.arms[ARM]!;
  let target;
  if ('object' in goal) target = graspPlan(ctx, goal.object, grasp).grasp;
  else {
    const p = locationPoint(ctx, goal.loc, goal.index);
    target = { pos: [p[0], p[1], p[2] + 0.15] as [number, number, number], yawRad: 0 };
  }
  const sol = arm.ik.solve(arm.homeQ, target, { rest: arm.homeQ });
  return checkResult(call, sol.converged, sol.converged ? undefined : `IK residual ${sol.posErrM.toFixed(3)} m`);
}

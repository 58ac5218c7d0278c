// RoCo's action interface (Mandi et al.): one EXECUTE block per round with an action per robot (PICK, PLACE/PUT,
// MOVE, WAIT, optional PATH of (x, y, z) waypoints). The plan is validated by five ordered checks (parse, task
// constraints, IK, collision, waypoints); a failing check returns RoCo-style feedback text and nothing moves.
import { ROCO_API } from '../../../apis/catalog.js';
import { arityError, str } from './args.js';
import { checkPlan } from './roco/planChecks.js';
import { executePlan } from './roco/planExecutor.js';
import { objectIndex } from './roco/rocoGoals.js';
import { okResult, watchCollisions, type RobotApi, type RobotApiContext, type SimCallResult } from './robotApi.js';

const FUNCTIONS = ROCO_API;

function robots(ctx: RobotApiContext): string[] {
  return ctx.task?.multiArm?.robots.map((r) => r.name) ?? ctx.scene.arms.map((a, i) => a.layout.spec.label.trim() || `robot${i + 1}`);
}

function run(ctx: RobotApiContext, fn: string, text: string, execute: boolean): SimCallResult {
  const verdict = checkPlan(ctx, text);
  if (!verdict.ok) {
    ctx.memory['lastCheck'] = verdict.check;
    return { ok: true, value: false, output: `This proposed plan failed: ${verdict.feedback}`, unmeasured: true };
  }
  ctx.memory['lastCheck'] = 'passed';
  if (!execute) return { ok: true, value: true, output: `${fn}: the plan passed all checks (parse, task constraints, IK, collision, waypoints)` };
  if (verdict.actions.every((a) => a.verb === 'WAIT')) return { ok: true, value: true, output: verdict.actions.map((a) => `${a.robot} waited`).join('\n'), unmeasured: true };
  const names = robots(ctx);
  // Each robot may touch what its action is about.
  const allowed = ctx.scene.arms.map(() => new Set<number>());
  verdict.actions.forEach((a) => {
    const arm = names.indexOf(a.robot);
    if (a.object) allowed[arm]!.add(objectIndex(ctx, a.object));
    ctx.state.grasps.forEach((g) => g && allowed[arm]!.add(g.object));
  });
  const w = watchCollisions(ctx, allowed, () => executePlan(ctx, verdict.actions, verdict.goals, names, allowed));
  return { ...okResult([...w.value, ...w.warnings], w.collisions), value: true };
}

export const rocoApi: RobotApi = {
  id: 'roco',
  description: 'RoCo multi-robot actions (PICK, PLACE, MOVE, WAIT with optional PATH) validated by five ordered checks.',
  functions: FUNCTIONS,
  measured: new Set(['execute_plan']),
  call(ctx, fn, args) {
    if (fn !== 'execute_plan' && fn !== 'check_plan') return { ok: false, error: `unknown robot API function '${fn}'; available: execute_plan, check_plan` };
    const arity = arityError(fn, ['plan'], args);
    if (arity) return { ok: false, error: arity };
    const text = str(fn, 'plan', args[0]);
    if (!text.ok) return text;
    return run(ctx, fn, text.value, fn === 'execute_plan');
  },
};

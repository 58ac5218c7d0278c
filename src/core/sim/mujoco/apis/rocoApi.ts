// RoCo's action interface (Mandi et al.): one EXECUTE block per round with an action per robot (PICK, PLACE/PUT,
// MOVE, WAIT, optional PATH of (x, y, z) waypoints). The plan is validated by five ordered checks (parse, task
// constraints, IK, collision, waypoints); a failing check returns RoCo-style feedback text and nothing moves.
import { ROCO_API } from '../../../apis/catalog.js';
import { arityError, str } from './args.js';
import { executeJointly } from './roco/jointExecutor.js';
import { allowedSets, checkPlan, ROCO_CHECKS } from './roco/planChecks.js';
import type { RocoAction } from './roco/planParser.js';
import { settleObjects, watchCollisions, type RobotApi, type RobotApiContext, type SimCallResult } from './robotApi.js';

const FUNCTIONS = ROCO_API;

function robots(ctx: RobotApiContext): string[] {
  return ctx.task?.multiArm?.robots.map((r) => r.name) ?? ctx.scene.arms.map((a, i) => a.layout.spec.label.trim() || `robot${i + 1}`);
}

function run(ctx: RobotApiContext, fn: string, text: string, execute: boolean): SimCallResult {
  const verdict = checkPlan(ctx, text);
  // Checks that did not run (an earlier one failed) are listed as skipped, so every plan shows all five.
  const ran = new Set(verdict.checks.map((c) => c.name));
  const checks = [...verdict.checks.map((c) => ({ name: c.name, ok: c.ok, ...(c.feedback ? { message: c.feedback } : {}) })), ...ROCO_CHECKS.filter((c) => !ran.has(c)).map((name) => ({ name, ok: false, skipped: true }))];
  if (!verdict.ok) {
    ctx.memory['lastCheck'] = verdict.check;
    return { ok: true, value: false, output: `This proposed plan failed: ${verdict.feedback}`, unmeasured: true, checks };
  }
  ctx.memory['lastCheck'] = 'passed';
  if (!execute) return { ok: true, value: true, output: `${fn}: the plan passed all checks (parse, task constraints, IK, collision, waypoints)`, checks };
  if (verdict.actions.every((a) => a.verb === 'WAIT')) {
    // Nobody moves, but time passes: what is still moving (a dropped rope) comes to rest before the success check.
    const t0 = ctx.state.timeSecs;
    settleObjects(ctx, 0);
    const waited = verdict.actions.map((a) => `${a.robot} waited`);
    return { ok: true, value: true, output: [...waited, `the world settled for ${(ctx.state.timeSecs - t0).toFixed(2)} s`].join('\n'), unmeasured: true, checks };
  }
  const names = robots(ctx);
  const allowed = allowedSets(ctx, verdict.actions, (r) => names.indexOf(r));
  const w = watchCollisions(ctx, allowed, () => {
    const first = executeJointly(ctx, verdict, names, allowed);
    const later = verdict.actions.filter((a) => a.then && !first.errors.some((e) => e.startsWith(`${a.robot} `)));
    if (first.planFailed || later.length === 0) return first;
    // The PLACE parts of combined actions (their PATHs passed with the plan), checked again in the state the PICKs
    // really left (the others wait).
    const placeLine = (t: RocoAction) => `NAME ${t.robot} ACTION PLACE ${t.object} ${t.target}${t.path.length > 0 ? ` PATH [${t.path.map((p) => `(${p.join(', ')})`).join(', ')}]` : ''}`;
    const text = `EXECUTE\n${names.map((n) => { const t = later.find((a) => a.robot === n)?.then; return t ? placeLine(t) : `NAME ${n} ACTION WAIT`; }).join('\n')}`;
    const second = checkPlan(ctx, text);
    if (second.ok) {
      const more = executeJointly(ctx, second, names, allowedSets(ctx, second.actions, (r) => names.indexOf(r)));
      return { ...first, log: [...first.log, ...more.log], errors: [...first.errors, ...more.errors] };
    }
    // Together they cannot place (the PICKs left the arms in each other's way): one after another, or say why not.
    const log = [...first.log];
    const errors = [...first.errors];
    for (const a of later) {
      const alone = checkPlan(ctx, `EXECUTE\n${names.map((n) => (n === a.robot ? placeLine(a.then!) : `NAME ${n} ACTION WAIT`)).join('\n')}`);
      if (!alone.ok) {
        errors.push(`${a.robot} (PLACE part): ${alone.feedback.split('\n').pop()!.trim()}`);
        continue;
      }
      const more = executeJointly(ctx, alone, names, allowedSets(ctx, alone.actions, (r) => names.indexOf(r)));
      log.push(...more.log);
      errors.push(...more.errors);
    }
    return { ...first, log, errors };
  });
  const x = w.value;
  if (x.planFailed) return { ok: true, value: false, output: `This plan failed to execute: ${x.errors.join('; ')}`, unmeasured: true, checks, executed: false };
  const lines = [...x.log, ...x.errors.map((e) => `failed: ${e}`), ...w.warnings];
  return {
    ok: true,
    value: x.errors.length === 0,
    ...(lines.length > 0 ? { output: lines.join('\n') } : {}),
    ...(w.collisions.length > 0 ? { collisions: w.collisions } : {}),
    checks,
    executed: true,
    ...(x.motion ? { motion: x.motion } : {}),
    robotErrors: Object.fromEntries(names.map((n) => [n, x.errors.filter((e) => e.startsWith(`${n} `) || e.startsWith(`${n}:`))]).filter(([, e]) => (e as string[]).length > 0)),
  };
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

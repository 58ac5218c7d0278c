// The Action Contextualization loop (Sec. III and IV-D of the paper, the authors' code for the counters):
//   context -> task plan (Prompt 1) -> evaluation plan (Prompt 2) -> simulate: reset to the start, run each action
//   and its checks; at the first failed check, a failure report asks for a retune of that action (Prompts 3-5);
//   a retune after which the plan fails no later than before counts against retunesPerAction; when they run out,
//   a replan (Prompt 6) and a new evaluation plan (Prompt 7); every answer goes through the syntax
//   check-and-repair loop. All calls of a run share one growing conversation. planRuns runs start from the same
//   simulator snapshot; a run whose answer stays unreadable drops out (the paper: bad plans drop out of the
//   selection); the validated plan with the highest Q among the others is kept and the simulator ends where it
//   left it.
// Departures from the authors' code (on purpose): the parameter history also records the executions after a
// replan (their code skips them, Sec. 4.5 of the digest), and Prompt 2 names the label lists it means.
import type { ChatMessage } from '../../protocol/trace.js';
import { limitFlag, limitNumber } from '../../core/architecture/limits.js';
import type { ArchOutcome, EpisodeContext } from '../../core/architecture/types.js';
import { labelList, sceneContext, spatialRelationsOn, type SceneContext } from './context.js';
import { floatRepr, pyRepr, strRepr } from './pyLiteral.js';
import {
  MANDATORY_CHECKS_ABLATION,
  paramNames,
  parseEvaluationPlan,
  parseReplan,
  parseRetune,
  parseTaskPlan,
  planRepr,
  SKILLS,
  stepRepr,
  tupleOf,
  type CheckCall,
  type EvalEntry,
  type Parsed,
  type PlanStep,
} from './plan.js';

const ROBOT = 'robot';
/** The score of an action that never moved (the authors' sentinel). */
const NO_MOTION = -2;

export interface StepRecord {
  index: number;
  action: string;
  /** The object or location it acts on. */
  label: string;
  /** Arguments as Python writes them, and without the label. */
  args: string;
  rest: string;
  named: Record<string, string>;
  ok: boolean;
  output?: string;
  error?: string;
  metrics?: { mI: number; mE: number; mT: number; dBarM?: number; minClearanceM: number; durationSecs: number };
  checks: { name: string; args: string; expected: string; observed: string; ok: boolean }[];
}

/** One simulated execution of a plan (what the views show as a row group of the plan table). */
export interface Attempt {
  run: number;
  /** P0, R1, R2, ... P1, R1, ... (the paper's Fig. 5 labels). */
  label: string;
  kind: 'plan' | 'retune' | 'replan' | 'improve';
  success: boolean;
  failedIndex: number | null;
  failureReason: string | null;
  /** Q of this execution: mean M_T over the actions it ran. */
  q: number | null;
  simSecs: number;
  steps: StepRecord[];
  /** For a retune: the action changed and its arguments before and after. */
  change?: { index: number; action: string; before: string; after: string };
}

interface HistoryEntry {
  ok: boolean;
  action: string;
  label: string;
  rest: string;
  score: number;
}

interface RunResult {
  run: number;
  success: boolean;
  q: number | null;
  retunes: number;
  replans: number;
  executions: number;
  endSnapshot?: string;
  plan: PlanStep[];
  /** Set when an answer stayed unreadable after its repairs: the run ended there and is left out of the selection. */
  formatFailure?: string;
}

class StopRun extends Error {
  constructor(
    readonly reason: 'format_failure' | 'cancelled',
    message: string,
  ) {
    super(message);
  }
}

function score(m: StepRecord['metrics']): number {
  return m ? m.mT : NO_MOTION;
}

function mean(xs: number[]): number | null {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}

/** Python's repr of a check's return value. */
function valueRepr(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return strRepr(v);
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : floatRepr(v);
  return String(v);
}

/** One failed check as the failure report words it. */
function fragment(c: StepRecord['checks'][number]): string {
  switch (c.name) {
    case 'collision_free':
      return `collision_free() the robot collided with ${c.observed.replace(/^'|'$/g, '')} |`;
    case 'timeout':
      return 'timeout() the action took too long |';
    case 'check_motion_health':
      return 'check_motion_health() the motion was unsafe for the robot |';
    default:
      return `${c.name}(${c.args.replace(/^\(|,?\)$/g, '')}) returned ${c.observed}, expected ${c.expected} |`;
  }
}

export async function runActctx(ctx: EpisodeContext): Promise<ArchOutcome> {
  const lim = {
    retunes: limitNumber(ctx.limits, 'retunesPerAction'),
    replans: limitNumber(ctx.limits, 'maxReplans'),
    runs: limitNumber(ctx.limits, 'planRuns'),
    afterSuccess: limitFlag(ctx.limits, 'retuneAfterSuccess'),
    taskRepairs: limitNumber(ctx.limits, 'taskPlanRepairs'),
    evalRepairs: limitNumber(ctx.limits, 'evaluationPlanRepairs'),
    retuneRepairs: limitNumber(ctx.limits, 'retuneRepairs'),
    replanRepairs: limitNumber(ctx.limits, 'replanRepairs'),
    lengthChange: limitNumber(ctx.limits, 'replanLengthChange'),
  };
  const scene = sceneContext(ctx.initial.state, spatialRelationsOn(ctx.ablations));
  const labels = { objects: scene.objects, locations: scene.locations };
  const skills = ctx.api.filter((f) => (SKILLS as readonly string[]).includes(f.name)).map((f) => ({ signature: f.signature, doc: f.doc }));
  const checks = ctx.api.filter((f) => f.name !== 'task_completed' && !(SKILLS as readonly string[]).includes(f.name)).map((f) => ({ signature: f.signature, doc: f.doc }));
  const start = await ctx.snapshot('start');
  let repairs = 0;
  // Prompt blocks the loop also acts on: without the request for the mandatory checks, the reader demands none; without
  // scores in the feedback, the history lines carry none either.
  const on = (id: string) => ctx.ablations[id] !== false;
  const mandatory = on(MANDATORY_CHECKS_ABLATION);
  const scores = { retune: on('retune.score_in_feedback'), replan: on('replan.score_in_feedback'), improve: true };

  /** The failed action of an execution, as the retune and replan prompts (3-6) report it. */
  const failureOf = (r: Attempt) => {
    const index = r.failedIndex!;
    const step = r.steps.find((s) => s.index === index)!;
    const vars = { failure_index: index, failed_action: step.action, current_arguments: step.args, motion_score: floatRepr(score(step.metrics)), failure_reason: r.failureReason };
    return { index, action: step.action, vars };
  };

  /** One run: its own conversation, from the start snapshot, to a validated plan or the end of its budgets. */
  const oneRun = async (run: number): Promise<RunResult> => {
    let conversation: ChatMessage[] = [];
    const history: HistoryEntry[] = [];
    let executions = 0;
    /** The run's last execution (its result, or what a run cut short by a format failure got to). */
    let latest: Attempt | undefined;

    const ask = async (role: string, vars: Record<string, unknown>) => {
      if (ctx.signal.aborted) throw new StopRun('cancelled', 'cancelled');
      const turn = ctx.nextTurn();
      // Each run is an independent sample (IV-D): run k's requests are sample k - 1, so a cache or a seeded model
      // does not hand every run the first run's answers; run 1 is the same request as a single-run episode.
      const r = await ctx.callRole(role, vars, conversation, run > 1 ? { sample: run - 1 } : {});
      if (!r.ok) throw new StopRun('cancelled', r.message);
      const sent = r.sent?.filter((m) => m.role !== 'system') ?? [...conversation, { role: 'user' as const, content: `(the ${role} request)` }];
      conversation = [...sent, { role: 'assistant', content: r.text }];
      await ctx.say(role, r.text);
      return { ...r, turn };
    };

    /** Asks `role`, parses, and sends repairs until the answer reads or `limit` repairs were spent. */
    const obtain = async <T>(role: string, vars: Record<string, unknown>, parse: (text: string) => Parsed<T>, limit: number, kind: string, show: (v: T) => unknown): Promise<T> => {
      let r = await ask(role, vars);
      let asked = role;
      for (let n = 0; ; n++) {
        const p = parse(r.text);
        if (p.ok) {
          await ctx.parsed(asked, r.callId, r.turn, { ok: true, kind, value: show(p.value) });
          return p.value;
        }
        await ctx.parsed(asked, r.callId, r.turn, { ok: false, kind, error: p.error });
        if (n >= limit) throw new StopRun('format_failure', `the ${kind} could not be read after ${limit} repair${limit === 1 ? '' : 's'}: ${p.error}`);
        repairs++;
        asked = 'repair';
        r = await ask('repair', { problem: p.error });
      }
    };

    const taskPlan = (text: string) => parseTaskPlan(text, labels);
    const showPlan = (p: PlanStep[]) => ({ code: planRepr(p), steps: p.map((s) => ({ index: s.index, action: s.action, args: pyRepr(tupleOf(s.args)) })) });
    const showEval = (e: EvalEntry[]) => e.map((x) => ({ index: x.index, checks: x.checks.map((c) => ({ name: c.name, args: pyRepr(tupleOf(c.args)), expected: valueRepr(c.expected) })) }));
    const evaluationPlan = async (plan: PlanStep[]) =>
      obtain('evaluation_plan', { checks, objects: labelList(scene.objects), locations: labelList(scene.locations) }, (t) => parseEvaluationPlan(t, plan, labels, mandatory), lim.evalRepairs, 'evaluation_plan', showEval);

    const record = (a: Attempt) => {
      const failed = a.failedIndex;
      for (const s of a.steps) {
        const ok = failed === null || s.index < failed;
        const entry: HistoryEntry = { ok, action: s.action, label: s.label, rest: s.rest, score: score(s.metrics) };
        // Identical entries are kept once (the authors' code de-duplicates on arguments and score).
        if (!history.some((h) => h.ok === entry.ok && h.action === entry.action && h.label === entry.label && h.rest === entry.rest && h.score === entry.score)) history.push(entry);
      }
    };
    const lines = (ok: boolean, withScore: boolean, action?: string) =>
      history.filter((h) => h.ok === ok && (action === undefined || h.action === action)).map((h) => `${ok ? 'SUCCESS' : 'FAILURE'}: ${h.action}: ${h.label} ${h.rest}${withScore ? ` | score = ${floatRepr(h.score)}` : ''}`);

    /** Resets to the start and runs the plan with its checks; stops at the first failed check. */
    const execute = async (plan: PlanStep[], evalPlan: EvalEntry[], label: string, kind: Attempt['kind'], change?: Attempt['change']): Promise<Attempt> => {
      await ctx.restore(start);
      ctx.nextRound();
      const turn = ctx.nextTurn();
      executions++;
      const steps: StepRecord[] = [];
      let failedIndex: number | null = null;
      let reason: string | null = null;
      let simSecs = 0;
      for (const [k, step] of plan.entries()) {
        if (ctx.signal.aborted) throw new StopRun('cancelled', 'cancelled');
        ctx.nextStep();
        const res = await ctx.act(ROBOT, { name: step.action, args: step.values });
        const m = res.metrics;
        const names = paramNames(step.action);
        const rec: StepRecord = {
          index: step.index,
          action: step.action,
          label: String(step.values[0] ?? ''),
          args: pyRepr(tupleOf(step.args)),
          rest: pyRepr(tupleOf(step.args.slice(1))),
          named: Object.fromEntries(step.args.map((a, i) => [names[i] ?? `arg${i}`, pyRepr(a)])),
          ok: res.ok,
          ...(res.output ? { output: res.output } : {}),
          ...(res.error ? { error: res.error } : {}),
          ...(m ? { metrics: { mI: m.mI, mE: m.mE, mT: m.mT, ...(m.dBarM !== undefined ? { dBarM: m.dBarM } : {}), minClearanceM: m.minClearanceM, durationSecs: m.durationSecs } } : {}),
          checks: [],
        };
        if (m) simSecs += m.durationSecs;
        steps.push(rec);
        const entry = evalPlan[k]!;
        if (!res.ok) {
          failedIndex = step.index;
          reason = `${step.action}() could not run: ${res.error} |`;
          break;
        }
        for (const c of entry.checks) rec.checks.push(await runCheck(c, turn, step.index, label, run));
        const bad = rec.checks.filter((c) => !c.ok);
        if (bad.length > 0) {
          failedIndex = step.index;
          reason = bad.map(fragment).join(' ');
          break;
        }
      }
      const q = mean(steps.map((s) => score(s.metrics)));
      const attempt: Attempt = { run, label, kind, success: failedIndex === null, failedIndex, failureReason: reason ? `The action failed because of: ${reason}.` : null, q, simSecs: Math.round(simSecs * 1e3) / 1e3, steps, ...(change ? { change } : {}) };
      await ctx.emit({
        type: 'check',
        turn,
        name: 'plan_execution',
        ok: attempt.success,
        message: `run ${run} ${label}: ${attempt.success ? 'every check passed' : `action ${failedIndex} (${steps[steps.length - 1]!.action}) failed: ${reason}`}; Q = ${q === null ? 'n/a' : q.toFixed(4)}`,
        actctx: attempt,
      } as never);
      await ctx.say(
        'simulation',
        [
          `${label} (run ${run}): ${attempt.success ? 'every check passed' : `failed at action ${failedIndex}`}`,
          ...steps.map((s) => `  ${s.index} ${s.action}${s.args}  M_T = ${s.metrics ? s.metrics.mT.toFixed(4) : 'n/a'}${s.checks.some((c) => !c.ok) ? `  FAILED: ${s.checks.filter((c) => !c.ok).map((c) => `${c.name} -> ${c.observed} (expected ${c.expected})`).join(', ')}` : ''}`),
          `  Q = ${q === null ? 'n/a' : q.toFixed(4)}`,
        ].join('\n'),
      );
      record(attempt);
      latest = attempt;
      return attempt;
    };

    const runCheck = async (c: CheckCall, turn: number, index: number, label: string, runNo: number) => {
      const r = await ctx.act(ROBOT, { name: c.name, args: c.values });
      const observed = r.ok ? r.value : `error: ${r.error}`;
      const ok = r.ok && observed === c.expected;
      const out = { name: c.name, args: pyRepr(tupleOf(c.args)), expected: valueRepr(c.expected), observed: valueRepr(observed), ok };
      if (!ok) await ctx.emit({ type: 'check', turn, name: c.name, ok: false, message: `run ${runNo} ${label}, action ${index}: ${c.name}${out.args === '()' ? '()' : out.args.replace(/,\)$/, ')')} returned ${out.observed}, expected ${out.expected}`, planIndex: index } as never);
      return out;
    };

    let plan: PlanStep[] = [];
    let retunes = 0;
    let replans = 0;
    let formatFailure: string | undefined;
    try {
      // Prompt 1 and Prompt 2.
      plan = await obtain('task_plan', { scene_description: scene.description, objects: labelList(scene.objects), locations: labelList(scene.locations), actions: skills, task: ctx.task.instruction }, taskPlan, lim.taskRepairs, 'task_plan', showPlan);
      let evalPlan = await evaluationPlan(plan);
      let planNo = 0;
      let inPlan = 0;
      let result = await execute(plan, evalPlan, 'P0', 'plan');
      for (;;) {
        // Retunes at the failure point (and, with retuneAfterSuccess, to raise the score of a plan that works).
        let used = 0;
        while (used < lim.retunes && (!result.success || lim.afterSuccess)) {
          const failing = !result.success;
          let next: PlanStep;
          if (failing) {
            const f = failureOf(result);
            next = await obtain(
              'retune',
              { ...f.vars, past_failures: lines(false, scores.retune, f.action), past_successes: lines(true, scores.retune, f.action) },
              (t) => parseRetune(t, plan, labels, f.index),
              lim.retuneRepairs,
              'retune',
              (s) => ({ code: `task_plan[${s.index}] = ${stepRepr(s)}` }),
            );
          } else {
            next = await obtain(
              'improve',
              { total_time: result.simSecs.toFixed(2), average_score: floatRepr(result.q ?? NO_MOTION), past_failures: lines(false, scores.improve), past_successes: lines(true, scores.improve) },
              (t) => parseRetune(t, plan, labels, undefined),
              lim.retuneRepairs,
              'retune',
              (s) => ({ code: `task_plan[${s.index}] = ${stepRepr(s)}` }),
            );
          }
          const before = plan.find((s) => s.index === next.index)!;
          plan = plan.map((s) => (s.index === next.index ? next : s));
          retunes++;
          inPlan++;
          const prev = result;
          result = await execute(plan, evalPlan, `R${inPlan}`, failing ? 'retune' : 'improve', { index: next.index, action: next.action, before: pyRepr(tupleOf(before.args)), after: pyRepr(tupleOf(next.args)) });
          // The authors' counter: a retune that moves the failure later does not use up the budget.
          const progressed = failing && !result.success && result.failedIndex! > prev.failedIndex!;
          if (!progressed) used++;
        }
        if (result.success || replans >= lim.replans) break;
        // Replan (Prompt 6) and a new evaluation plan (Prompt 7).
        const old = plan;
        plan = await obtain(
          'replan',
          { ...failureOf(result).vars, past_failures: lines(false, scores.replan), past_successes: lines(true, scores.replan), max_change: lim.lengthChange },
          (t) => parseReplan(t, old, labels, lim.lengthChange),
          lim.replanRepairs,
          'replan',
          showPlan,
        );
        evalPlan = await evaluationPlan(plan);
        replans++;
        planNo++;
        inPlan = 0;
        result = await execute(plan, evalPlan, `P${planNo}`, 'replan');
      }
    } catch (err) {
      // An answer that stayed unreadable ends this run only; cancelling ends them all.
      if (!(err instanceof StopRun) || err.reason !== 'format_failure') throw err;
      formatFailure = err.message;
    }
    const endSnapshot = lim.runs > 1 && !formatFailure ? await ctx.snapshot(`run ${run} end`) : undefined;
    const success = !formatFailure && latest?.success === true;
    const q = latest?.q ?? null;
    const trials = Math.max(0, executions - 1);
    const out: RunResult = { run, success, q, retunes, replans, executions, plan, ...(endSnapshot ? { endSnapshot } : {}), ...(formatFailure ? { formatFailure } : {}) };
    await ctx.emit({
      type: 'check',
      turn: ctx.turn,
      name: 'plan_run',
      ok: out.success,
      message: `run ${run}: ${formatFailure ? `format failure (${formatFailure}); left out of the selection` : out.success ? 'validated' : 'not validated'}, Q = ${q === null ? 'n/a' : q.toFixed(4)}, ${retunes} retune${retunes === 1 ? '' : 's'}, ${replans} replan${replans === 1 ? '' : 's'}`,
      actctxRun: { run, success, q, retunes, replans, trials, ...(formatFailure ? { formatFailure } : {}) },
    } as never);
    return out;
  };

  const runs: RunResult[] = [];
  try {
    for (let r = 1; r <= lim.runs; r++) runs.push(await oneRun(r));
  } catch (err) {
    if (!(err instanceof StopRun)) throw err;
    return { reason: err.reason, agentClaimedDone: false, message: err.message, metrics: { repairs, runs: runs.length + 1 } };
  }
  const trials = (x: RunResult) => Math.max(0, x.executions - 1);
  const unread = runs.filter((x) => x.formatFailure);
  const usable = runs.filter((x) => !x.formatFailure);
  const common = { trials: runs.reduce((s, x) => s + trials(x), 0), runs: runs.length, formatFailedRuns: unread.length, repairs };
  if (usable.length === 0) {
    const why = runs.length === 1 ? runs[0]!.formatFailure! : `no run gave a readable plan (${runs.map((x) => `run ${x.run}: ${x.formatFailure}`).join('; ')})`;
    return { reason: 'format_failure', agentClaimedDone: false, message: why, metrics: { ...common, validatedRuns: 0 } };
  }
  // The validated run with the highest Q; without one, the highest Q (earlier runs win ties). Runs that ended in a
  // format failure have dropped out.
  const rank = (x: RunResult) => [x.success ? 1 : 0, x.q ?? -Infinity] as const;
  const best = usable.reduce((b, x) => {
    const [s1, q1] = rank(b);
    const [s2, q2] = rank(x);
    return s2 > s1 || (s2 === s1 && q2 > q1) ? x : b;
  });
  if (lim.runs > 1) {
    await ctx.restore(best.endSnapshot!);
    await ctx.emit({
      type: 'check',
      turn: ctx.turn,
      name: 'plan_selection',
      ok: best.success,
      message: `kept run ${best.run} of ${runs.length} (Q = ${best.q === null ? 'n/a' : best.q.toFixed(4)}; ${runs.filter((x) => x.success).length} validated${unread.length ? `; ${unread.length} left out after a format failure` : ''})`,
      actctxSelection: { chosen: best.run, runs: runs.map((x) => ({ run: x.run, success: x.success, q: x.q, trials: trials(x), ...(x.formatFailure ? { formatFailure: true } : {}) })) },
    } as never);
  }
  const metrics = {
    planQuality: best.q ?? NO_MOTION,
    retunes: best.retunes,
    replans: best.replans,
    ...common,
    validatedRuns: runs.filter((x) => x.success).length,
    chosenRun: best.run,
  };
  return best.success
    ? { reason: 'plan_validated', agentClaimedDone: true, message: `run ${best.run}: every check passed (Q = ${(best.q ?? 0).toFixed(4)})`, metrics }
    : { reason: 'budget_exhausted', agentClaimedDone: false, message: `the retunes and replans ran out; the last plan of run ${best.run} still fails a check`, metrics };
}

export type { SceneContext };

// LLaMAR's loop (the paper's Algorithm 2): every high-level step the Planner updates the open subtasks, the Actor
// picks one action per robot (free text, mapped to an admissible action) and updates the shared memory, the robots
// act together in one simulator step, the Corrector explains failures and proposes corrections for the next step,
// and the Verifier moves finished subtasks to the completed list. The episode ends when no subtask is open, at
// the step cap T, or (without a Verifier) when every robot says Done. The released code runs the Planner once
// before the loop and merges Actor and Corrector; this follows the paper.
import type { ChatMessage } from '../../protocol/trace.js';
import { HouseholdExtra } from '../../protocol/household.js';
import { checkerMetrics } from '../../core/metrics/householdMetrics.js';
import type { Observation } from '../../core/sim/simulator.js';
import { limitFlag, limitNumber } from '../../core/architecture/limits.js';
import type { ArchOutcome, EpisodeContext } from '../../core/architecture/types.js';
import type { EpisodeEmbeddings } from '../../core/llm/embeddings.js';
import type { MatcherOptions } from './actionMatcher.js';
import { parseActor, parseCorrector, parsePlanner, parseVerifier, type ActorAnswer, type MatchedAction, type Parsed } from './parse.js';
import { household, inputDict, listOrNone, observationList, stateLine, viewDescription } from './render.js';

class FormatFailure extends Error {}
class Cancelled extends Error {}

interface AgentMemo {
  /** The previous action line the robot reads ("I picked up Tomato_1 in the previous step and was successful."). */
  previous: string;
  /** Phrases of actions that failed since the robot's last success. */
  failures: string[];
  last?: { name: string; args: unknown[]; text: string; ok: boolean };
}

interface StepLog {
  step: number;
  lines: string[];
}

const PHRASE: Record<string, (arg: string, held: string) => string> = {
  Move: (a) => `move ${a.toLowerCase()}`,
  Rotate: (a) => `rotate ${a.toLowerCase()}`,
  LookUp: (a) => `look up ${a} degrees`,
  LookDown: (a) => `look down ${a} degrees`,
  NavigateTo: (a) => `navigate to ${a}`,
  Pickup: (a) => `pick up ${a}`,
  Put: (a, held) => `put the ${held} in my hand on ${a}`,
  Open: (a) => `open ${a}`,
  Close: (a) => `close ${a}`,
  Slice: (a) => `slice ${a}`,
  Clean: (a) => `clean ${a}`,
  ToggleOn: (a) => `turn on ${a}`,
  ToggleOff: (a) => `turn off ${a}`,
  Explore: () => 'explore',
  Idle: () => 'stay idle',
  Done: () => 'declare the task done',
};

/** "Previously, I have tried to pick up Tomato_1, navigate to Fridge_1, but was unsuccessful" (the released code's line). */
function failuresLine(phrases: readonly string[]): string {
  return phrases.length === 0 ? 'None' : `Previously, I have tried to ${phrases.join(', ')}, but was unsuccessful`;
}

export async function runLlamar(ctx: EpisodeContext): Promise<ArchOutcome> {
  const topology = ctx.agent;
  const roles = new Set(
    topology === 'pav'
      ? ['planner', 'actor', 'verifier']
      : topology === 'pac'
        ? ['planner', 'actor', 'corrector']
        : topology === 'actor_only'
          ? ['act']
          : topology === 'react'
            ? ['react']
            : topology === 'central'
              ? ['central']
              : ['planner', 'actor', 'corrector', 'verifier'],
  );
  const agents = [...ctx.agents];
  const maxSteps = limitNumber(ctx.limits, 'maxSteps');
  const maxFormat = limitNumber(ctx.limits, 'maxFormatErrors');
  const withView = limitFlag(ctx.limits, 'viewDescriptions');
  // The run's embedding model, when it has one, matches free-form actions (the paper's matcher); else the lexical one.
  const matcher: MatcherOptions & { embeddings?: EpisodeEmbeddings; signal: AbortSignal } = {
    // Act and ReAct (App. E.2, E.3) list no Explore action: it is admissible there only with their prompt's
    // `explore` block switched on (our addition, default off).
    explore: limitFlag(ctx.limits, 'explore') && (topology === 'actor_only' ? ctx.ablations['act.explore'] === true : topology === 'react' ? ctx.ablations['react.explore'] === true : true),
    exploreArgs: [limitNumber(ctx.limits, 'exploreRounds'), limitNumber(ctx.limits, 'exploreMoves')],
    embeddingThreshold: limitNumber(ctx.limits, 'embeddingThreshold'),
    ...(ctx.embeddings ? { embeddings: ctx.embeddings } : {}),
    signal: ctx.signal,
  };
  const task = ctx.task.instruction;
  const agentNames = agents.length === 1 ? agents[0]! : `${agents.slice(0, -1).join(', ')} and ${agents[agents.length - 1]}`;
  const baseVars = { agent_count: String(agents.length), agent_names: agentNames, agents, robot_word: agents.length === 1 ? 'robot' : 'robots' };

  // Episode state (the paper's M, G_O, G_C, a, a_c, d).
  let memory = '';
  let open: string[] = [];
  let completed: string[] = [];
  let lastSubtask = '';
  let corrections: Record<string, string> = {};
  let failureReason = '';
  const memo: Record<string, AgentMemo> = Object.fromEntries(agents.map((a) => [a, { previous: 'I have not taken any action yet', failures: [] }]));
  const history: StepLog[] = [];
  const counts = { failedActions: 0, formatErrors: 0, corrections: 0, correctionsFollowed: 0, repeatedFailures: 0, prematureDone: 0 };
  let consecutiveFormat = 0;
  let views: Record<string, Observation> = {};
  let whole: Observation = ctx.initial;

  const observeTeam = async (): Promise<void> => {
    const out: Record<string, Observation> = {};
    for (const a of agents) {
      ctx.setAgent(a);
      out[a] = await ctx.observe(a);
    }
    ctx.setAgent(undefined);
    views = out;
    whole = await ctx.observe();
  };

  const known = (): string[] => household(views[agents[0]!] ?? whole).known.map((k) => k.label);
  const agentLines = (a: string, parts: { state?: boolean; previous?: boolean; failures?: boolean }): [string, string][] => {
    const v = views[a]!;
    const out: [string, string][] = [[`${a}'s observation`, observationList(v, a)]];
    if (withView) out.push([`${a}'s view`, viewDescription(v, a)]);
    if (parts.state) out.push([`${a}'s state`, stateLine(v, a)]);
    if (parts.previous) out.push([`${a}'s previous action`, memo[a]!.previous]);
    if (parts.failures) out.push([`${a}'s previous failures`, failuresLine(memo[a]!.failures)]);
    return out;
  };
  const shared = (keys: ('open' | 'completed' | 'subtask' | 'memory' | 'corrections' | 'history' | 'trace')[]): [string, string][] => {
    const out: [string, string][] = [];
    for (const k of keys) {
      if (k === 'open') out.push(["Robots' open subtasks", listOrNone(open)]);
      if (k === 'completed') out.push(["Robots' completed subtasks", listOrNone(completed)]);
      if (k === 'subtask') out.push(["Robots' subtask", lastSubtask || 'None']);
      if (k === 'memory') out.push(["Robots' combined memory", memory || 'None']);
      if (k === 'corrections') {
        out.push(["Robots' failure reasons", failureReason || 'None']);
        out.push(["Robots' corrective actions", agents.some((a) => corrections[a]) ? `{${agents.map((a) => `${a}: ${corrections[a] ?? 'None'}`).join(', ')}}` : 'None']);
      }
      // The Act and ReAct baselines' input (App. E.2-E.3): every step so far, each robot's action and its success.
      if (k === 'trace') out.push(["Robots' history", history.length === 0 ? 'None' : history.map((h) => `step ${h.step}: ${h.lines.join('; ')}`).join(' | ')]);
      if (k === 'history') {
        const recent = history.slice(-8);
        out.push(["Robots' history", recent.length === 0 ? 'None' : recent.map((h) => `step ${h.step}: ${h.lines.join('; ')}`).join(' | ')]);
      }
    }
    return out;
  };

  /**
   * Calls a role and reads its answer; an unusable answer is shown to the role with the reason and asked again
   * (counted). `maxFormatErrors` unusable answers in a row end the episode.
   */
  const ask = async <T>(role: string, input: string, parse: (text: string) => Parsed<T> | Promise<Parsed<T>>, kind: string): Promise<T> => {
    const retry: ChatMessage[] = [];
    // Every role's input describes each robot's view: with vision on, the paper's GPT-4V modules see those frames.
    const images = agents.flatMap((a) => views[a]?.images ?? []);
    for (;;) {
      const turn = ctx.nextTurn();
      const r = await ctx.callRole(role, { ...baseVars, input }, retry, images.length > 0 ? { images } : undefined);
      if (!r.ok) throw new Cancelled();
      const p = await parse(r.text);
      if (p.ok) {
        consecutiveFormat = 0;
        await ctx.parsed(role, r.callId, turn, { ok: true, kind, value: p.value });
        return p.value;
      }
      consecutiveFormat++;
      counts.formatErrors++;
      await ctx.parsed(role, r.callId, turn, { ok: false, kind, error: p.error });
      if (consecutiveFormat >= maxFormat) throw new FormatFailure(`${consecutiveFormat} unusable answers in a row (last, from the ${role}: ${p.error})`);
      retry.push(
        { role: 'assistant', content: r.text },
        { role: 'user', content: `That answer cannot be used: ${p.error}. Answer again with only the dictionary in the format asked for.` },
      );
    }
  };

  const end = async (reason: string, message: string, claimed = false): Promise<ArchOutcome> => ({
    reason,
    message,
    agentClaimedDone: claimed,
    metrics: await metrics(reason),
  });

  const metrics = async (reason: string): Promise<Record<string, number>> => {
    const h = HouseholdExtra.safeParse(whole.state.extra?.household);
    const out: Record<string, number> = { steps: ctx.step, ...counts };
    if (h.success && h.data.checker) {
      const m = checkerMetrics(h.data.checker, agents);
      Object.assign(out, {
        success: m.success ? 1 : 0,
        transportRate: round(m.transportRate),
        coverage: round(m.coverage),
        balance: round(m.balance),
        completedSubtasks: m.completed,
        totalSubtasks: m.total,
        verifierFalseDone: reason === 'subtasks_done' && roles.has('verifier') && !m.success ? 1 : 0,
      });
      for (const [a, n] of Object.entries(m.perAgent)) out[`credit.${a}`] = n;
    }
    return out;
  };

  try {
    await observeTeam();
    for (let t = 1; t <= maxSteps; t++) {
      if (ctx.signal.aborted) return { reason: 'cancelled', agentClaimedDone: false };
      ctx.nextStep();

      // Planner: open subtasks from the task, what the robots see and the memory.
      if (roles.has('planner')) {
        const input = inputDict([['Task', task], ...agents.flatMap((a) => agentLines(a, {})), ...shared(['open', 'completed', 'memory'])]);
        const p = await ask('planner', input, parsePlanner, 'plan');
        open = p.plan.filter((s) => !completed.includes(s));
      }

      // Actor (or the central model): one action per robot and the new memory.
      let answer: ActorAnswer;
      if (roles.has('act') || roles.has('react')) {
        const role = roles.has('act') ? 'act' : 'react';
        const input = inputDict([['Task', task], ...agents.flatMap((a) => agentLines(a, { state: true })), ...shared(['trace'])]);
        answer = await ask(role, input, (text) => parseActor(text, agents, known(), { ...matcher, shape: role, keys: role === 'react' ? ['think', 'action'] : [] }), 'actions');
      } else if (roles.has('central')) {
        const input = inputDict([['Task', task], ...agents.flatMap((a) => agentLines(a, { state: true, previous: true, failures: true })), ...shared(['history', 'memory'])]);
        answer = await ask('central', input, (text) => parseActor(text, agents, known(), { ...matcher, keys: ['reason', 'memory'] }), 'actions');
      } else {
        const extra: ('open' | 'completed' | 'subtask' | 'memory' | 'corrections')[] = roles.has('planner') ? ['open', 'completed', 'subtask', 'memory'] : ['memory'];
        if (roles.has('corrector')) extra.push('corrections');
        const input = inputDict([['Task', task], ...agents.flatMap((a) => agentLines(a, { state: true, previous: true, failures: true })), ...shared(extra)]);
        answer = await ask('actor', input, (text) => parseActor(text, agents, known(), { ...matcher, keys: roles.has('planner') ? ['memory', 'reason', 'subtask'] : ['memory', 'reason'] }), 'actions');
      }
      memory = answer.memory;
      lastSubtask = answer.subtask;
      const chosen: [string, MatchedAction][] = agents.map((a) => [a, answer.actions[a]!]);
      const allDone = chosen.every(([, m]) => m.action.name === 'Done');

      // The joint step: every robot's action in the same simulator step.
      ctx.nextTurn();
      const before = Object.fromEntries(agents.map((a) => [a, household(views[a]!).agents[a]?.holding ?? 'nothing']));
      // Explore is steered by the open subtasks (the paper scores directions against them); without a Planner, the task.
      const hint = open.length > 0 ? open.join('; ') : task;
      const out = await ctx.actJointly(chosen.map(([a, m]) => ({ agent: a, name: m.action.name, args: m.action.name === 'Explore' ? [...m.action.args, hint] : m.action.args })));
      const lines: string[] = [];
      for (const [i, [a, m]] of chosen.entries()) {
        const r = out.results[i]!;
        const prev = memo[a]!.last;
        const feedback = r.ok ? (r.output ?? `I did ${m.action.text} in the previous step and was successful.`) : (r.error ?? `I tried to ${m.action.text} in the previous step but was unsuccessful.`);
        if (!r.ok) {
          counts.failedActions++;
          if (prev && !prev.ok && prev.name === m.action.name && JSON.stringify(prev.args) === JSON.stringify(m.action.args)) counts.repeatedFailures++;
          memo[a]!.failures.push(PHRASE[m.action.name]?.(String(m.action.args[0] ?? ''), before[a]!) ?? m.action.text);
        } else {
          if (prev && !prev.ok && corrections[a] && sameAction(corrections[a]!, m)) counts.correctionsFollowed++;
          memo[a]!.failures = [];
        }
        memo[a]!.previous = feedback;
        memo[a]!.last = { name: m.action.name, args: m.action.args, text: m.action.text, ok: r.ok };
        lines.push(`${a}: ${m.action.text} (${r.ok ? 'successful' : 'unsuccessful'})`);
      }
      history.push({ step: t, lines });
      await observeTeam();

      // Corrector: why actions failed, and what each robot should do about it next step.
      corrections = {};
      failureReason = '';
      if (roles.has('corrector')) {
        const input = inputDict([['Task', task], ...agents.flatMap((a) => agentLines(a, { state: true, previous: true, failures: true })), ...shared(['open', 'completed', 'memory'])]);
        const c = await ask('corrector', input, (text) => parseCorrector(text, agents), 'corrections');
        corrections = c.corrections;
        failureReason = c.failureReason;
        counts.corrections += Object.keys(c.corrections).length;
      }

      // Verifier: which open subtasks are now done (the simulator is never asked).
      if (roles.has('verifier')) {
        const input = inputDict([['Task', task], ...agents.flatMap((a) => agentLines(a, { state: true, previous: true })), ...shared(['open', 'completed', 'memory'])]);
        const v = await ask('verifier', input, parseVerifier, 'completed');
        completed = [...new Set([...completed, ...v.completed])];
        open = open.filter((s) => !completed.includes(s));
        if (roles.has('planner') && open.length === 0 && completed.length > 0) {
          return await end('subtasks_done', `the Verifier closed every subtask after step ${t}`, true);
        }
      } else if (roles.has('planner')) {
        // Without a Verifier (Table 4, P+A+C) the paper uses the simulator's oracle for subtask completion: the
        // checker's finished subtasks become the completed list the Planner and Actor read, as a Verifier's would.
        const h = HouseholdExtra.safeParse(whole.state.extra?.household);
        if (h.success && h.data.checker) {
          completed = [...new Set([...completed, ...h.data.checker.subtasks.filter((s) => s.done).map((s) => s.text)])];
          open = open.filter((s) => !completed.includes(s));
        }
        const check = await ctx.checkSuccess();
        if (check.success) return await end('subtasks_done', `the oracle checker reports the task done after step ${t}`, allDone);
      }

      if (allDone) {
        if (roles.has('verifier') && open.length > 0) {
          // Every robot said Done, but the Verifier still lists open subtasks: the episode goes on, and the robots hear why.
          counts.prematureDone++;
          for (const a of agents) memo[a]!.previous = `I declared the task done in the previous step, but these subtasks are still open: ${listOrNone(open)}.`;
        } else {
          return await end('all_done', `every robot answered Done at step ${t}`, true);
        }
      }
    }
    return await end('step_cap', `stopped at the step cap (${maxSteps} steps)`);
  } catch (err) {
    ctx.setAgent(undefined);
    if (err instanceof Cancelled) return { reason: 'cancelled', agentClaimedDone: false };
    if (err instanceof FormatFailure) return end('format_failure', err.message);
    throw err;
  }
}

function sameAction(correction: string, m: MatchedAction): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9_]+/g, ' ').trim();
  return norm(correction) === norm(m.text) || norm(correction) === norm(m.action.text);
}

const round = (x: number) => Math.round(x * 10000) / 10000;

// RoCo's loop (Mandi et al., Algorithm 1). Each round: every robot observes once; up to K times, a dialog runs
// (robots speak round-robin in the simulator's order, each call its own prompt with the six components; a turn
// ends with PROCEED or EXECUTE, and the dialog ends at an EXECUTE once every robot has spoken, or on any EXECUTE
// in a re-plan, or after M turns with the last speaker told to give the plan); the plan is parsed, checked by the
// simulator's five ordered checks and, if it passes, executed with all robots moving together. A failed check's
// feedback goes into every agent's prompt for the next dialog of the round. After an executed plan the task's
// reward is checked; a positive reward ends the episode. The round's dialog and action join the history.
// Baselines through the same loop: Central Plan (one call plans for all), w/o feedback (one attempt per round,
// twice the rounds), w/o history (a prompt ablation), and the waypoint sources of the paper's Fig. 4.
import type { AgentAction, PendingEvent } from '../../protocol/trace.js';
import type { Observation } from '../../core/sim/simulator.js';
import { limitNumber } from '../../core/architecture/limits.js';
import type { ArchOutcome, EpisodeContext } from '../../core/architecture/types.js';
import { decisionOf, parseExecute, parseFeedback, planLines, type PlanFormat } from './parse.js';
import { actionOptions, capabilityText, exampleBlock, multiArmOf, othersText, renderScene, renderSwitches } from './render.js';
import { replacePaths, type PathSource } from './waypoints.js';

interface Turn {
  agent: string;
  text: string;
}

interface Counters {
  envSteps: number;
  rounds: number;
  attempts: number;
  dialogTurns: number;
  humanTurns: number;
  tokens: number;
  formatFailures: number;
  checkFailures: number;
  executionFailures: number;
  plannerChecks: number;
  rrtPlans: number;
  success: number;
}

const chatText = (turns: Turn[]) => turns.map((t) => `[${t.agent}]:\n${t.text.trim()}`).join('\n');

function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

function pathSourceOf(topology: string): PathSource {
  if (topology === 'dialog_linear_paths') return 'linear';
  if (topology === 'dialog_topdown_paths') return 'topdown';
  if (topology === 'dialog_no_paths') return 'none';
  return 'agents';
}

/** The output format the agents are held to, from the task's action options. */
export function planFormat(obs: Observation, agents: readonly string[]): PlanFormat {
  const m = multiArmOf(obs.state);
  const actions = m?.actions ?? [{ verb: 'PICK', usage: 'PICK <object>' }, { verb: 'PLACE', usage: 'PLACE <object> <target>' }, { verb: 'MOVE', usage: 'MOVE (x, y, z)' }, { verb: 'WAIT', usage: 'WAIT' }];
  return {
    agents,
    verbs: actions.map((a) => a.verb),
    noArgs: actions.filter((a) => !/[<(]/.test(a.usage)).map((a) => a.verb),
    path: m?.path ?? 'optional',
    ...(m?.pathPoints ? { pathPoints: m.pathPoints } : {}),
    ...(obs.state.objects.length > 0 ? { objects: obs.state.objects.map((o) => o.name) } : {}),
  };
}

export async function runRoco(ctx: EpisodeContext): Promise<ArchOutcome> {
  const topology = ctx.agent;
  const central = topology === 'central';
  const noFeedback = topology === 'dialog_no_feedback';
  // The paper gives Dialog w/o Feedback twice the episode length and a single attempt per round.
  const maxRounds = limitNumber(ctx.limits, 'maxRounds') * (noFeedback ? 2 : 1);
  const maxAttempts = noFeedback ? 1 : limitNumber(ctx.limits, 'maxReplans');
  const maxTurns = limitNumber(ctx.limits, 'maxDialogTurns');
  // Unparseable plans in a row that end the episode: K, so that w/o feedback (one attempt per round) is not ended by
  // a single format slip where the dialog would have had K tries.
  const maxUnparsed = limitNumber(ctx.limits, 'maxReplans');
  let unparsedInARow = 0;
  const agents = ctx.agents;
  const pathSource = pathSourceOf(topology);
  const switches = renderSwitches(ctx.ablations);
  const c: Counters = { envSteps: 0, rounds: 0, attempts: 0, dialogTurns: 0, humanTurns: 0, tokens: 0, formatFailures: 0, checkFailures: 0, executionFailures: 0, plannerChecks: 0, rrtPlans: 0, success: 0 };
  const history: string[] = [];
  /** Plans that passed the checks but could not be moved (RoCo feeds them into the next round's prompt). */
  let failedPlans: string[] = [];
  /** W/o feedback: the next round only hears that the last plan failed, not why. */
  let lastPlanFailed = false;

  const outcome = (reason: string, message?: string): ArchOutcome => {
    ctx.setAgent(undefined);
    const metrics: Record<string, number> = {
      ...c,
      replans: Math.max(0, c.attempts - c.rounds),
      replansPerRound: c.rounds > 0 ? Math.round((c.attempts / c.rounds) * 100) / 100 : 0,
    };
    delete metrics['attempts'];
    return { reason, agentClaimedDone: reason === 'reward_positive', ...(message ? { message } : {}), metrics };
  };

  for (let t = 0; t < maxRounds; t++) {
    if (ctx.signal.aborted) return outcome('cancelled');
    const round = ctx.nextRound();
    c.rounds++;
    ctx.setAgent(undefined);
    const whole = await ctx.observe();
    const views: Record<string, Observation> = {};
    if (!central) {
      for (const a of agents) views[a] = await ctx.observe(a);
    }
    const format = planFormat(whole, agents);
    const feedback: string[] = [];
    const previousChat: Turn[] = [];
    let executed = false;
    let roundChat: Turn[] = [];
    let roundAction = 'none: no plan passed the checks';
    const shared = {
      task: ctx.task.instruction,
      actions: actionOptions(whole.state),
      rules: multiArmOf(whole.state)?.rules ?? [],
      strategy: multiArmOf(whole.state)?.strategy ?? [],
      example: exampleBlock(whole.state, agents),
      path_required: format.path === 'required',
      path_points: format.pathPoints ?? 4,
      round_history: history.map((h, i) => `== Round#${i + 1} ==\n${h}`).join('\n'),
      failed_plans: failedPlans.join('\n'),
      last_plan_failed: lastPlanFailed,
    };

    for (let k = 0; k < maxAttempts && !executed; k++) {
      c.attempts++;
      // One dialog (or one central call).
      const turns: Turn[] = [];
      let final: { agent: string; text: string; callId: string; turn: number; role: string } | undefined;
      if (central) {
        ctx.setAgent(undefined);
        const turn = ctx.nextTurn();
        const vars = {
          ...shared,
          agents: listNames(agents),
          // The oracle: every robot's reach and goal (RoCo's code gives the central planner the whole task context).
          robots: multiArmOf(whole.state) ? othersText(whole.state, undefined, switches) : agents.map((a) => capabilityText(whole.state, a, switches).replace(/^You are /, '')),
          observation: renderScene(whole, undefined, switches),
          feedback: noFeedback ? [] : [...feedback],
        };
        const r = await ctx.callRole('central', vars, []);
        if (!r.ok) return outcome('cancelled');
        c.tokens += (r.usage?.promptTokens ?? 0) + (r.usage?.completionTokens ?? 0);
        c.dialogTurns++;
        turns.push({ agent: 'Planner', text: r.text });
        await ctx.say('Planner', r.text);
        final = { agent: 'Planner', text: r.text, callId: r.callId, turn, role: 'central' };
      } else {
        const spoken = new Set<string>();
        let calls = 0;
        dialog: while (calls < maxTurns) {
          for (const agent of agents) {
            const last = calls === maxTurns - 1;
            ctx.setAgent(agent);
            const turn = ctx.nextTurn();
            const view = views[agent]!;
            const observation = ctx.render(view, agent);
            const vars = {
              ...shared,
              agent,
              others: listNames(agents.filter((a) => a !== agent)),
              capability: capabilityText(view.state, agent, switches),
              others_capability: othersText(view.state, agent, switches),
              observation,
              previous_chat: chatText(previousChat),
              feedback: noFeedback ? [] : [...feedback],
              current_chat: chatText(turns),
              last_call: last,
            };
            const r = await ctx.callRole('dialog', vars, [], { agent, humanView: humanView(agent, { ...vars, strategy: ctx.ablations['task.strategy_rules'] === true ? vars.strategy : [] }) });
            if (!r.ok) return outcome('cancelled');
            c.tokens += (r.usage?.promptTokens ?? 0) + (r.usage?.completionTokens ?? 0);
            c.dialogTurns++;
            if (r.human) c.humanTurns++;
            turns.push({ agent, text: r.text });
            await ctx.say(agent, r.text);
            spoken.add(agent);
            calls++;
            const decision = decisionOf(r.text);
            const everyone = agents.every((a) => spoken.has(a));
            // RoCo's protocol: an EXECUTE ends the dialog once every robot has spoken (or in any re-plan).
            const ends = decision === 'EXECUTE' && (everyone || k > 0);
            await ctx.parsed('dialog', r.callId, turn, {
              ok: true,
              kind: 'dialog',
              value: { decision, ...(decision === 'EXECUTE' && !ends ? { early: 'EXECUTE before every robot had spoken; the dialog goes on' } : {}), ...(r.human ? { human: true } : {}) },
            });
            final = { agent, text: r.text, callId: r.callId, turn, role: 'dialog' };
            if (ends || calls >= maxTurns) break dialog;
          }
        }
      }
      ctx.setAgent(undefined);
      previousChat.push(...turns);
      roundChat = [...previousChat];
      const f = final!;
      // (1) parse the final response
      const parsed = parseExecute(f.text, format);
      if (!parsed.ok) {
        c.formatFailures++;
        unparsedInARow++;
        const fb = parseFeedback(f.agent, parsed.line, parsed.reason);
        await ctx.parsed(f.role, f.callId, f.turn, { ok: false, kind: 'plan', error: `${parsed.agent}: ${parsed.reason}` });
        await ctx.emit({ type: 'check', turn: f.turn, name: 'plan: parse', ok: false, message: fb, attempt: k + 1 } as PendingEvent);
        feedback.push(fb);
        lastPlanFailed = true;
        continue;
      }
      unparsedInARow = 0;
      await ctx.parsed(f.role, f.callId, f.turn, { ok: true, kind: 'plan', value: { attempt: k + 1, speaker: f.agent, actions: parsed.actions } });
      const actions: AgentAction[] = replacePaths(parsed.actions, whole, pathSource);
      // (2)-(5) the simulator's checks, then joint execution
      const out = await ctx.actJointly(actions);
      const failedCheck = out.checks.find((x) => !x.ok && !x.skipped);
      // A plan that ran ends the round even if every robot failed its part (RoCo: the next round sees the outcome).
      if (failedCheck || (out.info?.['executed'] !== true && out.results.every((r) => !r.ok))) {
        if (out.info?.['executed'] === false) {
          // Checked but not movable: the round ends; the next round's agents see the plan as failed to execute.
          c.executionFailures++;
          // W/o feedback discards reasons: the plan is shown as failed, without the motion planner's why.
          const why = noFeedback ? '' : `\n(${out.results[0]?.error ?? 'failed to execute'})`;
          failedPlans = [...failedPlans, `${planLines(actions)}${why}`];
          lastPlanFailed = true;
          break;
        }
        c.checkFailures++;
        feedback.push(out.results.find((r) => r.error)?.error ?? `This proposed plan failed: ${failedCheck?.message ?? 'unknown reason'}`);
        lastPlanFailed = true;
        continue;
      }
      executed = true;
      lastPlanFailed = false;
      failedPlans = [];
      roundAction = planLines(actions);
      ctx.nextStep();
      c.envSteps++;
      const motion = out.info?.['motion'] as { kind?: string; checks?: number } | undefined;
      c.plannerChecks += motion?.checks ?? 0;
      if (motion?.kind === 'rrt') c.rrtPlans++;
    }
    history.push(`[Chat History]\n${chatText(roundChat)}\n[Executed Action]\n${roundAction}`);
    if (!executed && unparsedInARow >= maxUnparsed) {
      return outcome('format_failure', `round ${round}: the last ${unparsedInARow} plans in a row failed to parse`);
    }
    if (executed) {
      const s = await ctx.checkSuccess();
      if (s.success) {
        c.success = 1;
        return outcome('reward_positive', `round ${round}: ${s.detail}`);
      }
    }
  }
  return outcome('round_cap', `no positive reward after ${maxRounds} rounds`);
}

/** What a person in a robot's seat is shown: the robot, the scene, the options, feedback and the chat so far. */
function humanView(agent: string, v: { capability: string; observation: string; actions: { n: number; usage: string; doc: string }[]; rules: string[]; strategy: string[]; example: string; feedback: string[]; previous_chat: string; current_chat: string; last_call: boolean; path_required: boolean; path_points: number }): string {
  return [
    `You are in ${agent}'s seat. ${v.capability.replace(/^You are [^,]+, /, 'Your robot is ')}`,
    '',
    v.observation,
    '',
    'Actions: ' + v.actions.map((a) => a.usage).join(' | ') + (v.path_required ? ` (each with PATH [${v.path_points} points])` : ''),
    ...v.rules.map((r) => `- ${r}`),
    ...v.strategy.map((r) => `- ${r}`),
    ...(v.feedback.length > 0 ? ['', '[Environment Feedback]', ...v.feedback] : []),
    ...(v.previous_chat ? ['', '[Previous Chat]', v.previous_chat] : []),
    ...(v.current_chat ? ['', '[Current Chat]', v.current_chat] : []),
    '',
    v.last_call ? 'This is the last turn of the dialog: give the final plan.' : 'End with PROCEED to hand on, or with the final plan once everyone has spoken:',
    v.example,
  ].join('\n');
}


// The MALMM group chat (Singh et al.): a Supervisor picks the next speaker from the whole chat; the Planner plans
// and checks steps; the Coder writes one Python block per step; the Executor runs it and reports the new state.
// The paper's baselines run through the same loop: MA (fixed Planner -> Coder -> Executor cycle), SA (one agent
// that plans and codes, with feedback) and SA without feedback (one pass, no revision).
import type { ChatMessage } from '../../protocol/trace.js';
import { limitNumber } from '../../core/architecture/limits.js';
import type { ArchOutcome, EpisodeContext } from '../../core/architecture/types.js';
import { waypointAddition } from './manifest.js';
import { executorReply, extractPythonBlock, parseRoute, withoutSimNotes, type MalmmSpeaker } from './parse.js';

type Speaker = MalmmSpeaker | 'Supervisor' | 'Agent' | 'User';
interface ChatEntry {
  speaker: Speaker;
  content: string;
}

const ROLE_OF: Record<string, string> = { Planner: 'planner', Coder: 'coder', Agent: 'agent', Supervisor: 'supervisor' };

/** Four decimals, and never "-0.0000". */
function f4(x: number): string {
  return (Math.abs(x) < 5e-5 ? 0 : x).toFixed(4);
}

function fmtVec(v: readonly number[]): string {
  return `[${v.map(f4).join(' ')}]`;
}

/** The shared chat as one role sees it: its own messages as assistant turns, everyone else's as named user turns. */
export function historyFor(speaker: Speaker, chat: ChatEntry[]): ChatMessage[] {
  return chat.map((m) =>
    m.speaker === speaker ? { role: 'assistant' as const, content: m.content } : { role: 'user' as const, content: `${m.speaker}:\n${m.content}`, name: m.speaker },
  );
}

/**
 * The message that opens the group chat. In the paper's log (App. E) it is the filled-in Supervisor prompt, so the
 * Planner and the Coder read both role descriptions before the task and the state; the wording follows
 * supervisor.prompt.
 */
export function openingMessage(ctx: EpisodeContext, from: 'Supervisor' | 'User' = 'Supervisor'): string {
  const ee = ctx.initial.state.ee;
  // MA has no Supervisor: its opening is the task and the state alone.
  const roles =
    from === 'Supervisor'
      ? [
          'A Supervisor oversees two agents, a Planner and a Coder, who together control a robot arm.',
          'PLANNER ROLE: the Planner works out the steps that complete the task. After steps have run, it judges the progress and gives the plan for the steps that remain.',
          'CODER ROLE: the Coder writes code for the plan the Planner gives.',
          '',
        ]
      : [];
  return [
    ...roles,
    `Use the robot arm end effector to "${ctx.task.instruction}" in the environment.`,
    `The end effector is at ${fmtVec(ee.pos)} with yaw ${f4(ee.yawRad)} rad, and the gripper is open.`,
    'Position, orientation, height, width, length and colour of every object:',
    ctx.render(ctx.initial),
  ].join('\n');
}

/**
 * Who opens the chat: MALMM's Supervisor (as in the paper's log), the user for MA (no Supervisor), nobody for SA,
 * whose own prompt ends with the task and the state (the paper's Fig. 6).
 */
function opener(topology: string): 'Supervisor' | 'User' | undefined {
  if (topology === 'malmm') return 'Supervisor';
  if (topology === 'ma') return 'User';
  return undefined;
}

export async function runMalmm(ctx: EpisodeContext): Promise<ArchOutcome> {
  const ws = ctx.workspace;
  const ee = ctx.initial.state.ee;
  const vars: Record<string, Record<string, unknown>> = {
    supervisor: { task: ctx.task.instruction, ee_position: fmtVec(ee.pos), ee_yaw: f4(ee.yawRad), state: ctx.render(ctx.initial) },
    planner: {
      task: ctx.task.instruction,
      table_top_z: f4(ws.tableTopZ),
      x_range: `[${ws.xRange[0]}, ${ws.xRange[1]}]`,
      y_range: `[${ws.yRange[0]}, ${ws.yRange[1]}]`,
      axes: ws.axes,
    },
    coder: { api: ctx.api.map((f) => ({ signature: f.signature, doc: f.doc })) },
  };
  vars.agent = { ...vars.supervisor, ...vars.planner, ...vars.coder };

  const topology = ctx.agent;
  const chat: ChatEntry[] = [];
  const openedBy = opener(topology);
  if (openedBy) {
    chat.push({ speaker: openedBy, content: openingMessage(ctx, openedBy) });
    await ctx.say(openedBy, chat[0].content);
  }

  // The cap counts chat messages (answers and Executor reports), not Supervisor routing calls: see the manifest.
  const maxTurns = limitNumber(ctx.limits, 'maxTurns');
  let messages = 0;
  const stateHeader = waypointAddition(ctx.ablations, 'executor.state_header');
  const simNotes = waypointAddition(ctx.ablations, 'executor.sim_notes');
  const errorDetails = waypointAddition(ctx.ablations, 'executor.error_details');
  // The paper stops on five errors only through the Coder's prompt rule; a hard stop is our guard, off by default.
  const maxErrors = waypointAddition(ctx.ablations, 'loop.consecutive_error_stop') ? limitNumber(ctx.limits, 'maxConsecutiveErrors') : Infinity;
  const singleAgent = topology === 'sa' || topology === 'sa_nofeedback';
  let pendingCode: string | undefined;
  let consecutiveErrors = 0;
  let next: Speaker = singleAgent ? 'Agent' : 'Planner';
  let first = true;

  const route = async (): Promise<Speaker | undefined> => {
    if (topology === 'malmm') {
      const turn = ctx.nextTurn();
      const r = await ctx.callRole('supervisor', vars.supervisor, historyFor('Supervisor', chat));
      if (!r.ok) return undefined;
      const parsed = parseRoute(r.text);
      if (parsed.ok) {
        await ctx.parsed('supervisor', r.callId, turn, { ok: true, kind: 'route', value: parsed.value });
        return parsed.value;
      }
      // An unparseable routing answer falls back to the fixed cycle, and is counted and recorded as a format error.
      consecutiveErrors++;
      const fallback = fixedCycle(chat[chat.length - 1]?.speaker ?? 'User');
      await ctx.parsed('supervisor', r.callId, turn, { ok: false, kind: 'route', error: `${parsed.error}; falling back to ${fallback}` });
      return fallback;
    }
    return fixedCycle(chat[chat.length - 1]?.speaker ?? 'User');
  };

  const fixedCycle = (last: Speaker): Speaker => {
    if (singleAgent) return last === 'Agent' ? 'Executor' : 'Agent';
    if (last === 'Planner') return 'Coder';
    if (last === 'Coder') return 'Executor';
    return 'Planner';
  };

  // The cap counts chat messages (answers and Executor reports), not the Supervisor's routing calls, so it does not
  // favour a topology without a router; a routing call is not made when no message is left for the speaker it picks.
  const capped = () => ({ reason: 'turn_cap' as const, agentClaimedDone: false, message: `stopped at the turn cap of ${maxTurns} chat message${maxTurns === 1 ? '' : 's'}` });
  while (!ctx.signal.aborted) {
    if (messages >= maxTurns) return capped();
    if (!first || topology === 'malmm') {
      const r = await route();
      if (r === undefined) return { reason: 'cancelled', agentClaimedDone: false };
      next = r;
    }
    first = false;
    messages++;
    const turn = ctx.nextTurn();

    if (next === 'Executor') {
      let reply: string;
      if (pendingCode === undefined) {
        consecutiveErrors++;
        await ctx.emit({ type: 'check', turn, name: 'pending_code', ok: false, message: 'Executor was called without a new code block' });
        reply = executorReply({ ok: false, exitCode: 1, stdout: '', error: { type: 'ExecutorError', message: 'there is no new Python block from the Coder to run' } }, '', { stateHeader, errorDetails });
      } else {
        const role = singleAgent ? 'agent' : 'coder';
        const run = await ctx.executeCode(role, pendingCode);
        pendingCode = undefined;
        consecutiveErrors = run.result.ok ? 0 : consecutiveErrors + 1;
        const shown = simNotes ? run.result : { ...run.result, stdout: withoutSimNotes(run.result.stdout) };
        reply = executorReply(shown, ctx.render(run.observation), { stateHeader, errorDetails });
        if ((run.completed || run.failed) && !reply.includes('Stopping the process')) reply += '\nStopping the process.....';
        chat.push({ speaker: 'Executor', content: reply });
        await ctx.say('Executor', reply);
        if (run.completed) return { reason: 'task_completed', agentClaimedDone: true };
        if (run.failed) return { reason: 'task_failed', agentClaimedDone: false, message: 'the agent called task_failed()' };
        if (topology === 'sa_nofeedback') {
          return { reason: 'single_pass_done', agentClaimedDone: false, message: 'SA without feedback ran its single pass' };
        }
        if (consecutiveErrors >= maxErrors) {
          return { reason: 'max_consecutive_errors', agentClaimedDone: false, message: `${consecutiveErrors} consecutive errors` };
        }
        continue;
      }
      chat.push({ speaker: 'Executor', content: reply });
      await ctx.say('Executor', reply);
    } else {
      const role = ROLE_OF[next];
      const r = await ctx.callRole(role, vars[role], historyFor(next, chat));
      if (!r.ok) return { reason: 'cancelled', agentClaimedDone: false };
      chat.push({ speaker: next, content: r.text });
      await ctx.say(next, r.text);
      if (next === 'Planner') {
        await ctx.parsed(role, r.callId, turn, { ok: true, kind: 'plan', value: r.text });
      } else {
        const code = extractPythonBlock(r.text);
        if (code.ok) {
          pendingCode = code.value;
          await ctx.parsed(role, r.callId, turn, { ok: true, kind: 'code', value: code.value });
        } else {
          consecutiveErrors++;
          await ctx.parsed(role, r.callId, turn, { ok: false, kind: 'code', error: `${next}: ${code.error}` });
        }
      }
    }
    if (consecutiveErrors >= maxErrors) {
      return { reason: 'max_consecutive_errors', agentClaimedDone: false, message: `${consecutiveErrors} consecutive errors` };
    }
  }
  return { reason: 'cancelled', agentClaimedDone: false };
}

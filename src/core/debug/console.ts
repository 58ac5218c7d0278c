// Debug console commands beside expressions: `observe`, `state`, `render prompt`, `send <answer>`, `help`.
// Each reads the trace at the debugger's position; `render prompt` also reads the prompt file as it is now, and
// `send` hands a typed answer to the next model call (a person in a robot's seat, as in RoCo's real-world runs).
import type { EventOf } from '../../protocol/trace.js';
import { parsePromptFile, PromptError, renderPrompt } from '../prompt/render.js';
import type { EventLog } from './eventLog.js';
import type { PromptTextStore } from './fork.js';
import type { FrameInfo } from './frames.js';

export interface ConsoleResult {
  value: unknown;
  /** Text to print instead of the value (multi-line command output). */
  text?: string;
}

export interface ConsoleContext {
  log: EventLog;
  index: number;
  frame?: FrameInfo;
  live: boolean;
  store: PromptTextStore;
  send(answer: string): void;
  nextCallDescription(): string;
}

export const CONSOLE_HELP = [
  'Commands:',
  '  observe          the observation text at this position (the agent’s own view when it has one)',
  '  state            objects, robots and the gripper at this position',
  '  render prompt    this turn’s prompt rendered from the file as it is now (what Restart Frame would send)',
  '  send <answer>    answer the next model call with this text instead of the model (live episodes)',
  '  help             this list',
  'Anything else is an expression: turn, role, agent, state.objects.<name>.z, messages[0].content,',
  '  consecutiveErrors, metrics.codeErrors, fn, args[0], len(x), dist(a, b), contains(s, "x"), ...',
].join('\n');

function f3(x: number): string {
  return (Math.abs(x) < 5e-4 ? 0 : x).toFixed(3);
}

export async function runConsoleCommand(raw: string, c: ConsoleContext): Promise<ConsoleResult | undefined> {
  const text = raw.trim();
  const word = text.split(/\s+/, 1)[0] ?? '';
  switch (word) {
    case 'help':
      return text === 'help' ? { value: CONSOLE_HELP, text: CONSOLE_HELP } : undefined;
    case 'observe': {
      if (text !== 'observe') return undefined;
      const e = c.log.at(c.index);
      const obs = c.log.observationAt(c.index, e?.agent);
      if (!obs) return { value: null, text: 'no observation yet' };
      const body = obs.rendered ?? obs.text;
      return { value: body, text: `observation of turn ${obs.turn}${obs.agent ? ` (${obs.agent}, ${obs.view ?? 'view'})` : ''}:\n${body}` };
    }
    case 'state': {
      if (text !== 'state') return undefined;
      const e = c.log.at(c.index);
      const world = c.log.stateAt(c.index, e?.agent);
      if (!world) return { value: null, text: 'no state yet' };
      const s = world.state;
      const lines = [
        `end effector [${s.ee.pos.map(f3).join(', ')}] yaw ${f3(s.ee.yawRad)} · gripper ${s.gripperOpen ? 'open' : 'closed'} · holding ${s.grasped ?? 'nothing'}`,
        ...s.objects.map((o) => `  ${o.name.padEnd(18)} [${o.pos.map(f3).join(', ')}] yaw ${f3(o.euler[2])}`),
        ...(s.robots ?? []).map((r) => `  robot ${r.name}: [${r.pos.map(f3).join(', ')}] holding ${r.holding ?? 'nothing'}`),
        ...(world.contacts.length ? [`  contacts: ${world.contacts.map(([a, b]) => `${a}-${b}`).join(', ')}`] : []),
      ];
      return { value: s, text: lines.join('\n') };
    }
    case 'render': {
      if (!/^render\s+prompt$/.test(text)) return undefined;
      return renderNow(c);
    }
    case 'send': {
      if (!/^send(\s|$)/.test(text)) return undefined;
      const answer = raw.replace(/^\s*send\s?/, '');
      if (!c.live) return { value: null, text: 'send works while a live episode runs (a recorded run has its answers)' };
      if (answer.trim() === '') return { value: null, text: 'usage: send <the answer the model should give>' };
      c.send(answer);
      return { value: answer, text: `the next model call (${c.nextCallDescription()}) will get your ${answer.length}-character answer; it is recorded as typed by a person` };
    }
    default:
      return undefined;
  }
}

/** The turn's role prompt rendered from the file on disk now, with the variables and history the turn had. */
async function renderNow(c: ConsoleContext): Promise<ConsoleResult> {
  const rc = c.frame?.roleCallIndex ?? c.log.roleCallOfTurn(c.index);
  const call = rc >= 0 ? (c.log.at(rc) as EventOf<'role_call'>) : undefined;
  if (!call) return { value: null, text: 'no role turn at this position' };
  const now = await c.store.current(call.promptPath);
  if (!now) return { value: null, text: `cannot read ${call.promptPath}` };
  const ablations = c.log.start?.ablations ?? {};
  try {
    // The turn's history is what its messages hold beyond the template's own: render the text it used without
    // history, and take the messages in between.
    const used = (call.promptSha256 && c.store.textOf(call.promptSha256)) || now.text;
    const bare = await renderPrompt(parsePromptFile(call.promptPath, used), { variables: call.variables, history: [], ablations });
    const history = spliceHistory(call.messages, bare.messages);
    const fresh = await renderPrompt(parsePromptFile(call.promptPath, now.text), { variables: call.variables, history, ablations });
    const same = fresh.messages.length === call.messages.length && fresh.messages.every((m, k) => m.role === call.messages[k]!.role && m.content === call.messages[k]!.content);
    const changed = fresh.messages.flatMap((m, k) => (call.messages[k]?.content === m.content && call.messages[k]?.role === m.role ? [] : [k]));
    const header = same
      ? `${call.role} · turn ${call.turn}: the file renders exactly what ${call.promptSha256 === now.sha ? 'this turn sent' : 'this turn sent (the file changed, but not in what this turn renders)'}`
      : `${call.role} · turn ${call.turn}: the file as it is now renders ${fresh.messages.length} messages; message${changed.length > 1 ? 's' : ''} ${changed.join(', ')} differ from what this turn sent (Restart Frame sends these)`;
    const body = fresh.messages.map((m, k) => `--- ${k} · ${m.role}${changed.includes(k) ? ' (changed)' : ''} ---\n${m.content}`).join('\n');
    return { value: fresh.messages, text: `${header}\n${body}` };
  } catch (err) {
    if (err instanceof PromptError) return { value: null, text: `the prompt does not render now: ${err.message}` };
    throw err;
  }
}

/** The messages of `sent` that the template without history (`bare`) does not account for. */
export function spliceHistory<T extends { role: string; content: string }>(sent: readonly T[], bare: readonly { role: string; content: string }[]): T[] {
  const eq = (a: { role: string; content: string }, b: { role: string; content: string }) => a.role === b.role && a.content === b.content;
  let p = 0;
  while (p < sent.length && p < bare.length && eq(sent[p]!, bare[p]!)) p++;
  let s = 0;
  while (s < bare.length - p && s < sent.length - p && eq(sent[sent.length - 1 - s]!, bare[bare.length - 1 - s]!)) s++;
  return sent.slice(p, sent.length - s);
}

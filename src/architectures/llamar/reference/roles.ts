// LLaMAR's reference policies (scripted, NOT an LLM) for the Planner, Actor, Corrector, Verifier and the central
// single-model baseline. They read the request like a model would (the input dict and the memory they wrote) and
// answer in each module's dict format. The `reference-flawed` profile makes the mistakes the paper reports, each
// seeded from a hash of the conversation and the request seed: picking up out of reach (skipping NavigateTo),
// putting into a closed fridge (skipping Open), declaring Done too early, and repeating a failed action when no
// correction is offered.
import type { ChatMessage } from '../../../protocol/trace.js';
import type { PolicyContext } from '../../../core/llm/reference/policy.js';
import { coin, outcomeOf, readInput, typeOf, writeNotes } from './reading.js';
import { jobKey, nextAction, picture, plannedSubtasks, type Job } from './state.js';

const py = (v: unknown): string => JSON.stringify(v);
const dict = (entries: [string, unknown][]): string => `{${entries.map(([k, v]) => `${py(k)}: ${py(v)}`).join(', ')}}`;

function cannot(why: string, agents: readonly string[]): string {
  return dict([
    ['memory', ''],
    ['reason', `The reference policy (scripted, not an LLM) cannot do this: ${why}.`],
    ['subtask', 'None'],
    ...agents.map((a): [string, unknown] => [`${a}'s action`, 'stay idle']),
  ]);
}

// ---- Actor and the central planner ------------------------------------------------------------------------------

export function actorPolicy(messages: ChatMessage[], ctx: PolicyContext, central = false): string {
  const input = readInput(messages);
  if (!input) return cannot('no input dict ("{Task: ...}") in the request', []);
  const names = input.agents.map((a) => a.name);
  const p = picture(input);
  if (!p) return cannot(`it does not understand the task "${input.task}"`, names);
  const flawed = ctx.profile === 'reference-flawed';
  // The dice read the episode's messages, not the system prompt: a reworded prompt keeps the flawed profile's mistakes.
  const key = messages.filter((m) => m.role !== 'system').map((m) => m.content).join('\n');
  const chance = (kind: string, agent: string) => coin(ctx.seed ?? 0, key, kind, agent);

  // Who does what: robots keep their job; a robot holding an item does that item's job; free robots take the next.
  const jobs = p.jobs;
  const taken = new Set<string>();
  const assigned: Record<string, Job | 'search' | undefined> = {};
  for (const a of names) {
    const held = p.holding[a];
    const j = held ? jobs.find((x) => x.kind === 'transport' && x.item === held) : undefined;
    if (j) {
      assigned[a] = j;
      taken.add(jobKey(j));
    }
  }
  for (const a of names) {
    if (assigned[a]) continue;
    const prev = p.notes.jobs[a];
    const keep = prev ? jobs.find((x) => jobKey(x) === prev && !taken.has(prev)) : undefined;
    if (keep) {
      assigned[a] = keep;
      taken.add(jobKey(keep));
    }
  }
  for (const a of names) {
    if (assigned[a] || p.holding[a]) continue;
    // A robot that is not holding anything takes the next free job; a transport into the same receptacle as
    // another robot's is fine, opening it twice in one step is not (see below).
    const next = jobs.find((x) => !taken.has(jobKey(x)) && !(x.kind === 'transport' && Object.values(p.holding).includes(x.item)));
    if (next) {
      assigned[a] = next;
      taken.add(jobKey(next));
    } else if (p.searching) assigned[a] = 'search';
  }

  const everythingDone = jobs.length === 0 && !p.searching && names.every((a) => !p.holding[a]);
  const actions: Record<string, string> = {};
  const reasons: string[] = [];
  for (const a of names) {
    const correction = input.corrections[a];
    const job = assigned[a];
    if (everythingDone) {
      actions[a] = 'Done';
      continue;
    }
    if (correction) {
      actions[a] = correction;
      reasons.push(`${a} follows the correction "${correction}"`);
      continue;
    }
    if (job === 'search') {
      actions[a] = 'explore';
      reasons.push(`${a} explores to find ${p.missing.length ? p.missing.join(', ') : 'more of what the task needs'}`);
      continue;
    }
    if (!job) {
      actions[a] = 'stay idle';
      reasons.push(`${a} has nothing to do while the others finish`);
      continue;
    }
    const n = nextAction(p, a, job);
    const target = /^navigate to object (\S+)$/.exec(n.action)?.[1];
    if (target && (p.notes.stuck[target] ?? 0) >= 2) {
      // Twice blocked on the way there: go somewhere else first, then try again.
      p.notes.stuck[target] = 0;
      actions[a] = 'explore';
      reasons.push(`${a} could not get to ${target} twice and explores to approach it another way`);
      continue;
    }
    actions[a] = n.action;
    reasons.push(`${a} ${n.action.startsWith('navigate') ? `walks ${n.why}` : `will ${n.why}`}`);
  }

  // Two robots must not act on the same object in one step: the later one waits.
  const claimed = new Map<string, string>();
  for (const a of names) {
    const m = /^(open|close|pick up|toggle|slice|clean) object (\S+)/.exec(actions[a]!);
    if (!m) continue;
    const id = m[2]!;
    if (claimed.has(id)) {
      actions[a] = 'stay idle';
      reasons.push(`${a} waits because ${claimed.get(id)} is using ${id}`);
    } else claimed.set(id, a);
  }

  // reference-flawed: LLaMAR's reported mistakes, seeded.
  if (flawed && !everythingDone) {
    const anyDone = p.notes.done.length > 0;
    if (anyDone && chance('done-early', '') < 0.08) {
      for (const a of names) actions[a] = 'Done';
      reasons.push('the robots believe the task is finished');
    } else {
      for (const a of names) {
        // A robot with a correction follows it (the Corrector's point); the mistakes below are its own choices.
        if (input.corrections[a]) continue;
        const prev = input.agents.find((x) => x.name === a)!;
        const o = outcomeOf(prev.previous);
        if (!o.ok && o.verb !== 'none' && o.verb !== 'declared' && chance('repeat', a) < 0.85) {
          const again = phraseFor(o);
          if (again) {
            actions[a] = again;
            continue;
          }
        }
        const m = /^navigate to object (\S+)$/.exec(actions[a]!);
        const job = assigned[a];
        if (m && job && job !== 'search' && job.kind === 'transport' && job.item === m[1] && !p.holding[a] && prev.observation.includes(m[1]!) && chance('skip-nav', a) < 0.45) {
          actions[a] = `pick up object ${m[1]}`;
          continue;
        }
        const o2 = /^open object (\S+)$/.exec(actions[a]!);
        if (o2 && job && job !== 'search' && job.kind === 'transport' && typeOf(o2[1]!) === 'Fridge' && p.holding[a] && chance('skip-open', a) < 0.5) {
          actions[a] = `put object on ${o2[1]}`;
        }
      }
    }
  }

  for (const a of names) {
    const j = assigned[a];
    if (j && j !== 'search') p.notes.jobs[a] = jobKey(j);
    else if (j === 'search') p.notes.jobs[a] = 'search';
    else delete p.notes.jobs[a];
  }
  const failed = input.agents.filter((a) => !outcomeOf(a.previous).ok && outcomeOf(a.previous).verb !== 'none');
  const entries: [string, unknown][] = [];
  if (!central) entries.push(['failure reason', failed.length === 0 ? 'None' : failed.map((a) => `${a.name}'s last action failed (${a.previous.replace(/^I /, '')})`).join(' ')]);
  entries.push(['memory', writeNotes(p.notes)]);
  entries.push(['reason', everythingDone ? 'Every part of the task is done.' : reasons.join('; ') || 'The robots continue.']);
  if (!central) entries.push(['subtask', names.map((a) => `${a}: ${assigned[a] === 'search' ? 'search' : assigned[a] ? jobKey(assigned[a] as Job) : 'none'}`).join('; ')]);
  for (const a of names) entries.push([`${a}'s action`, actions[a]]);
  return dict(entries);
}

/** A trace line's action ("navigate to object Bread_1 (successful)") as the released code's previous-action line. */
function traceLine(text: string, held: string | undefined): string {
  const m = /^(.*) \((successful|unsuccessful)\)$/.exec(text.trim());
  if (!m) return 'I have not taken any action yet';
  const [what, ok] = [m[1]!, m[2] === 'successful'];
  const id = /([A-Z][A-Za-z]*_\d+)/.exec(what)?.[1] ?? '';
  const did = /^navigate/.test(what) ? `navigate to ${id}`
    : /^pick up/.test(what) ? `pick up ${id}`
    : /^put/.test(what) ? `put the ${held ?? 'object'} in my hand on ${id}`
    : /^(open|close|slice|clean) object/.test(what) ? `${what.split(' ')[0]} ${id}`
    : /^toggle object .* on$/.test(what) ? `turn on ${id}`
    : /^toggle object .* off$/.test(what) ? `turn off ${id}`
    : /^explore/.test(what) ? 'explore'
    : /^stay idle/.test(what) ? 'was idle'
    : what;
  return did === 'was idle' ? 'I was idle in the previous step' : ok ? `I did ${did} and was successful` : `I tried to ${did} but was unsuccessful`;
}

/**
 * The baselines' requests have a trace of the steps but no memory: the policy replays the trace into the notes it
 * would have kept (where each robot went, what it opened and put where) and reads the request with them.
 */
function withNotesFromTrace(messages: ChatMessage[]): ChatMessage[] {
  const input = readInput(messages);
  if (!input || !input.history || input.history === 'None') return messages;
  const steps = input.history.split(' | ').map((step) => {
    const byRobot: Record<string, string> = {};
    for (const part of step.replace(/^step \d+: /, '').split('; ')) {
      const m = /^([A-Z][A-Za-z]*): (.*)$/.exec(part);
      if (m) byRobot[m[1]!] = m[2]!;
    }
    return byRobot;
  });
  const held: Record<string, string | undefined> = {};
  const lines = steps.map((byRobot) =>
    Object.fromEntries(
      input.agents.map((a) => {
        const t = byRobot[a.name] ?? '';
        const line = traceLine(t, held[a.name]);
        if (/^pick up .*\(successful\)$/.test(t)) held[a.name] = /([A-Z][A-Za-z]*_\d+)/.exec(t)?.[1];
        if (/^put .*\(successful\)$/.test(t)) held[a.name] = undefined;
        return [a.name, line];
      }),
    ),
  );
  let memory = '';
  for (const byRobot of lines.slice(0, -1)) {
    const p = picture({ ...input, memory, agents: input.agents.map((a) => ({ ...a, observation: [], view: new Map(), previous: byRobot[a.name]! })) });
    if (!p) return messages;
    memory = writeNotes(p.notes);
  }
  const last = lines[lines.length - 1]!;
  const dictMsg = [...messages].reverse().find((m) => m.role === 'user' && m.content.trimStart().startsWith('{Task:'))!;
  const extra = [...input.agents.map((a) => `${a.name}'s previous action: ${last[a.name]}`), `Robots' combined memory: ${memory || 'None'}`];
  const content = dictMsg.content.trim().replace(/\}$/, `,\n${extra.join(',\n')}}`);
  return messages.map((m) => (m === dictMsg ? { ...m, content } : m));
}

/**
 * The Act and ReAct baselines (App. E.2-E.3): the same choice of actions, written in the baseline's shape. Their
 * requests carry no memory, so the policy's notes start empty every step and it goes by what the robots see now.
 */
export function baselinePolicy(messages: ChatMessage[], ctx: PolicyContext, shape: 'act' | 'react'): string {
  const answer = JSON.parse(actorPolicy(withNotesFromTrace(messages), ctx, true)) as Record<string, unknown>;
  const actions: Record<string, unknown> = Object.fromEntries(Object.entries(answer).filter(([k]) => k.endsWith("'s action")).map(([k, v]) => [k.slice(0, -"'s action".length), v]));
  // App. E.2/E.3 list no Explore: without it in the prompt's list, search with the listed moves instead (turn, then
  // walk ahead twice), as a model reading that list would.
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
  if (!/"explore"/.test(system)) {
    const step = (messages.filter((m) => m.role === 'user').at(-1)?.content.match(/step \d+:/g) ?? []).length;
    for (const [a, v] of Object.entries(actions)) if (v === 'explore') actions[a] = step % 3 === 0 ? 'rotate in Right direction' : 'move in Ahead direction';
  }
  return shape === 'act' ? py(actions) : dict([['Think', answer.reason], ['Action', actions]]);
}

function phraseFor(o: ReturnType<typeof outcomeOf>): string | undefined {
  if (!o.target) return undefined;
  const map: Record<string, string> = {
    navigate: `navigate to object ${o.target}`,
    pickup: `pick up object ${o.target}`,
    put: `put object on ${o.target}`,
    open: `open object ${o.target}`,
    close: `close object ${o.target}`,
    slice: `slice object ${o.target}`,
    clean: `clean object ${o.target}`,
    on: `toggle object ${o.target} on`,
    off: `toggle object ${o.target} off`,
  };
  return map[o.verb];
}

// ---- Planner ----------------------------------------------------------------------------------------------------

export function plannerPolicy(messages: ChatMessage[]): string {
  const input = readInput(messages);
  if (!input) return dict([['reason', 'The reference policy (scripted, not an LLM) found no input dict.'], ['plan', []]]);
  const p = picture(input);
  if (!p) return dict([['reason', `The reference policy (scripted, not an LLM) does not understand the task "${input.task}".`], ['plan', [`carry out: ${input.task}`]]]);
  // Keep what is open; add what the task needs that is neither open nor completed (nor already done).
  const plan = input.open.filter((s) => !input.completed.includes(s));
  const added: string[] = [];
  for (const s of plannedSubtasks(p)) {
    if (plan.includes(s.text) || input.completed.includes(s.text) || s.done(p)) continue;
    plan.push(s.text);
    added.push(s.text);
  }
  const reason = added.length > 0 ? `From the task and what the robots have seen: ${added.join('; ')}.` : 'The open subtasks still fit what the robots see.';
  return dict([['reason', reason], ['plan', plan]]);
}

// ---- Verifier ---------------------------------------------------------------------------------------------------

export function verifierPolicy(messages: ChatMessage[]): string {
  const input = readInput(messages);
  if (!input) return dict([['reason', 'The reference policy (scripted, not an LLM) found no input dict.'], ['completed subtasks', []]]);
  const p = picture(input);
  const known = p ? plannedSubtasks(p) : [];
  const done = [...input.completed];
  const why: string[] = [];
  for (const s of input.open) {
    if (done.includes(s) || !p) continue;
    const evidence = known.find((k) => k.text === s)?.done(p);
    if (evidence) {
      done.push(s);
      why.push(`"${s}": ${evidence}`);
    }
  }
  return dict([['reason', why.length > 0 ? why.join('; ') : 'No open subtask was finished in this step.'], ['completed subtasks', done]]);
}

// ---- Corrector --------------------------------------------------------------------------------------------------

export function correctorPolicy(messages: ChatMessage[]): string {
  const input = readInput(messages);
  if (!input) return dict([['failure reason', 'The reference policy (scripted, not an LLM) found no input dict.'], ['corrective actions', 'None']]);
  const p = picture(input);
  const reasons: string[] = [];
  const fixes: Record<string, string> = {};
  /** Robots asked to step aside for another one (a door that could not swing open through them). */
  const stepAside: string[] = [];
  const nearestOther = (a: (typeof input.agents)[number]) =>
    input.agents
      .filter((x) => x.name !== a.name && x.xy && a.xy)
      .map((x) => ({ x, d: Math.hypot(x.xy![0] - a.xy![0], x.xy![1] - a.xy![1]) }))
      .sort((u, v) => u.d - v.d)[0];
  for (const a of input.agents) {
    const o = outcomeOf(a.previous);
    if (o.ok || o.verb === 'none' || o.verb === 'declared') {
      fixes[a.name] ??= 'None';
      continue;
    }
    const t = o.target;
    const at = p?.notes.at[a.name];
    const state = t ? (p?.viewState(t) ?? []) : [];
    const other = input.agents.find((x) => x.name !== a.name && t !== undefined && x.holding === t);
    let fix = 'None';
    let why = '';
    switch (o.verb) {
      case 'pickup':
        if (other) [fix, why] = ['stay idle', `${t} is held by ${other.name}`];
        else if (a.holding) [fix, why] = ['None', `${a.name} already holds ${a.holding} and can hold only one object`];
        else [fix, why] = [`navigate to object ${t}`, `${t} is too far away or out of view; ${a.name} must navigate to it first`];
        break;
      case 'put':
        if (t && /^(Fridge|Cabinet|Drawer|Microwave)_/.test(t) && !state.includes('open') && !p?.notes.open.includes(t)) [fix, why] = [`open object ${t}`, `${t} is closed; it must be opened before putting ${o.held} in`];
        else if (t && at === t) {
          const alt = p?.alternative(t);
          [fix, why] = alt ? [`navigate to object ${alt}`, `${a.name} stood at ${t} and could not put ${o.held} there: it must be full; ${alt} is another place for it`] : ['explore', `${t} must be full and no other place like it has been seen; look for one`];
        } else [fix, why] = [`navigate to object ${t}`, `${t} is out of reach; ${a.name} must go to it first`];
        break;
      case 'open':
      case 'close':
        if (state.includes(o.verb === 'open' ? 'open' : 'closed')) [fix, why] = ['None', `${t} is already ${o.verb === 'open' ? 'open' : 'closed'} (perhaps another robot did it in the same step)`];
        else if (at !== t) [fix, why] = [`navigate to object ${t}`, `${t} is out of reach`];
        else if (o.verb === 'open') {
          // At the object and it stays shut: something stands where its door swings. The nearest robot steps aside.
          const n = nearestOther(a);
          if (n && n.d <= 1.5) {
            [fix, why] = ['stay idle', `${t}'s door cannot swing open: ${n.x.name} is probably standing in front of it and should step back`];
            stepAside.push(n.x.name);
          } else [fix, why] = ['move in Back direction', `${t}'s door cannot swing open with ${a.name} standing in its way`];
        } else [fix, why] = ['stay idle', `another robot was using ${t} in the same step`];
        break;
      case 'navigate':
        if (o.navFailure === 'unknown') [fix, why] = ['explore', `${t} has not been seen or no longer exists; the robots must look around`];
        else if (o.navFailure === 'blocked') [fix, why] = ['stay idle', `another robot is standing where ${a.name} needs to be to reach ${t}; wait for it to move`];
        else if (o.navFailure === 'interrupted') [fix, why] = [`navigate to object ${t}`, `${a.name} was stopped on the way to ${t} (another robot or an open door stepped into the path); go again`];
        else [fix, why] = ['rotate in Right direction', `there is no clear path to ${t}; turn and try another way`];
        break;
      case 'on':
      case 'off':
        if (at === t) [fix, why] = ['None', `${t} is probably already ${o.verb}`];
        else [fix, why] = [`navigate to object ${t}`, `${t} is out of reach`];
        break;
      case 'slice':
      case 'clean':
        if (other) [fix, why] = ['stay idle', `${t} is held by ${other.name}`];
        else [fix, why] = [`navigate to object ${t}`, `${t} is out of reach`];
        break;
      case 'move':
        [fix, why] = ['rotate in Right direction', 'something blocks the way ahead'];
        break;
      default:
        [fix, why] = ['None', 'the cause is unclear'];
    }
    fixes[a.name] = fix;
    reasons.push(`${a.name}: ${why}.`);
  }
  for (const name of stepAside) if (!fixes[name] || fixes[name] === 'None') fixes[name] = 'move in Back direction';
  return dict([
    ['failure reason', reasons.length > 0 ? reasons.join(' ') : 'None'],
    ['corrective actions', fixes],
  ]);
}

// The reference model as the failure inspector's judge (role sweep/judge; scripted, NOT an LLM): it reads the
// transcript in the user message, as a model would, finds the first turn that shows trouble and names a label from
// the list in the system prompt by a few keyword rules. It exists so the judge path runs offline end to end; its
// proposals are a fixture, never an assessment.
import type { ChatMessage } from '../../../protocol/trace.js';
import { registerPolicy } from './policy.js';

const RULES: [RegExp, string][] = [
  [/is not defined|nameerror/i, 'name_error'],
  [/missing \d* ?required|positional argument|unexpected keyword|typeerror/i, 'missing_arguments'],
  [/collision|collide/i, 'collision'],
  [/dropped|slipped|lost (the )?grip/i, 'drop'],
  [/unreachable|inverse kinematics|out of reach/i, 'ik_failure'],
  [/could not parse|unparseable|format/i, 'format_error'],
  [/error|exception|traceback/i, 'code_error'],
];

export function judgeAnswer(messages: ChatMessage[]): string {
  const allowed = new Set([...(messages.find((m) => m.role === 'system')?.content ?? '').matchAll(/^- ([a-z_]+):/gm)].map((m) => m[1]!));
  const user = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  const ended = /Ended: (\w+)/.exec(user)?.[1] ?? '';
  const turns = [...user.matchAll(/\[turn (\d+)\][^\n]*\n([^]*?)(?=\n\n\[turn |\s*$)/g)].map((m) => ({ turn: Number(m[1]), text: m[2]! }));
  const labels: { label: string; turn: number; evidence: string }[] = [];
  for (const t of turns) {
    const bad = t.text.split('\n').find((l) => /error|exception|failed|collision|dropped|not defined/i.test(l));
    if (!bad) continue;
    const label = RULES.find(([re]) => re.test(bad))?.[1] ?? 'failed_action';
    labels.push({ label, turn: t.turn, evidence: bad.trim().slice(0, 160) });
    break;
  }
  const last = turns.at(-1);
  if (ended === 'turn_cap' || ended === 'step_cap') labels.push({ label: 'incomplete_subgoal', turn: last?.turn ?? 0, evidence: `ended by ${ended} with the task unfinished` });
  else if (/task_completed|done|single_pass/.test(ended)) labels.push({ label: 'premature_completion', turn: last?.turn ?? 0, evidence: `the agent ended the episode (${ended}) but the task was not done` });
  if (labels.length === 0) labels.push({ label: 'unexplained', turn: last?.turn ?? 0, evidence: 'nothing in the transcript says why' });
  return JSON.stringify({ labels: labels.filter((l) => allowed.size === 0 || allowed.has(l.label)) });
}

let registered = false;
export function registerJudgePolicy(): void {
  if (registered) return;
  registered = true;
  registerPolicy('sweep', 'judge', judgeAnswer);
}

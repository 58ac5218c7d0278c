// The reference model's main-prompt policy for LM Trajectory Generators (scripted, NOT an LLM). It reads the
// conversation as the paper's GPT-4 would: INITIAL PLANNING 1 names the objects and detects them, then stops;
// after the print-out, INITIAL PLANNING 2 writes one block of Python from the numbers it read (the task's
// solution, solutions/), ending with task_completed(). An error message gets a corrected block. `reference-flawed`
// makes, on a first attempt only (no failure summary yet), one of the paper's failure kinds (a wrong grasp height,
// closing before lowering, a hard-coded height in a function, ...) seeded from a hash of the conversation up to the first
// print-out (the prompt and the detections, which differ with the scene) and the seed, and sometimes a code error (a pose of length 3) the error feedback then corrects.
import type { ChatMessage } from '../../../protocol/trace.js';
import type { PolicyContext } from '../../../core/llm/reference/policy.js';
import { conversationHash } from '../../../core/llm/reference/conversationHash.js';
import { Readout } from './solutions/readout.js';
import { solutionFor } from './solutions/index.js';
import type { TrajgenFlaw } from './solutions/types.js';

/** Share of first attempts with one of the paper's failure kinds (a fixture, not a finding). */
export const PLAN_FLAW_RATE = 0.5;
/** Share of first code blocks with a malformed pose (caught by the error feedback). */
export const CODE_ERROR_RATE = 0.35;

export interface MainSituation {
  system: string;
  task: string;
  start: [number, number, number];
  numeric: boolean;
  binaryGripper: boolean;
  replan: boolean;
  /** Every user message after the system prompt. */
  feedback: string[];
  answers: string[];
}

export function readMain(messages: readonly ChatMessage[]): MainSituation {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const task = /The user command is "([\s\S]*?)"\.?\s*$/m.exec(system)?.[1] ?? '';
  const start = /now at \[([^\]]+)\]/.exec(system)?.[1]?.split(',').map(Number) ?? [0, 0, 1];
  return {
    system,
    task,
    start: [start[0] ?? 0, start[1] ?? 0, start[2] ?? 1],
    numeric: system.includes('<trajectory>'),
    binaryGripper: !system.includes('<trajectory>') && /pose of length 5/.test(system),
    replan: system.includes('SUMMARY OF PREVIOUS FAILED ATTEMPTS'),
    feedback: messages.filter((m) => m.role === 'user').map((m) => m.content),
    answers: messages.filter((m) => m.role === 'assistant').map((m) => m.content),
  };
}

const fmt = (p: readonly number[]) => `[${p.map((v) => v.toFixed(3)).join(', ')}]`;

export function trajgenMain(messages: ChatMessage[], ctx: PolicyContext): string {
  const s = readMain(messages);
  const solution = solutionFor(s.task);
  const flawed = ctx.profile === 'reference-flawed';
  const seen = Readout.fromText(s.feedback.join('\n'));
  const last = s.feedback[s.feedback.length - 1] ?? '';
  const resolution = s.replan
    ? 'PROBLEM RESOLUTION:\nThe summary shows the objects did not end up as the task needs. The grasp height, the order of the gripper steps and the heights used inside the functions must come from the detected dimensions; I re-plan from the start with that in mind.\n\n'
    : '';

  if (!solution) {
    return `${resolution}INITIAL PLANNING 1:\nI do not have a plan for "${s.task}" (the reference model is a scripted policy that knows the built-in trajectory tasks only), so I stop here.\n${s.numeric ? '[task_completed]' : '```python\ntask_completed()\n```'}`;
  }

  // Nothing detected yet: INITIAL PLANNING 1, then stop for the print-out (a task with nothing to detect, such as
  // the paper's circle drawn with the closed gripper, goes straight to its code).
  if (seen.all.length === 0 && solution.detect(s.task).length > 0) {
    const queries = solution.detect(s.task);
    const head = `${resolution}INITIAL PLANNING 1:\nThe task concerns ${queries.map((q) => `the ${q}`).join(' and ')}; I interact with ${queries.length > 1 ? 'them' : 'it'} as a whole. I detect ${queries.length > 1 ? 'them' : 'it'} first and stop to read the printed outputs.\n`;
    if (s.numeric) return `${head}${queries.map((q) => `<detect_object>${q}</detect_object>`).join('\n')}`;
    return `${head}\`\`\`python\n${queries.map((q) => `detect_object(${JSON.stringify(q)})`).join('\n')}\n\`\`\``;
  }

  if (s.numeric) return numericAnswer(s, seen);

  const firstCode = !s.answers.some((a) => a.includes('task_completed()'));
  const errorBack = /^Running code block \d+ of your previous response resulted in the following error/.test(last);
  let flaw: TrajgenFlaw | undefined;
  // An error fed back makes it re-read the detections: the corrected block is free of the plan flaw.
  if (flawed && !s.replan && !errorBack && solution.flaws.length > 0) {
    const u = conversationHash(messages.slice(0, 3), ctx.seed ?? 0, 'trajgen-plan');
    if (u < PLAN_FLAW_RATE) flaw = solution.flaws[Math.floor((u / PLAN_FLAW_RATE) * solution.flaws.length)]!;
  }
  let code: string;
  try {
    code = solution.code(s.task, seen, flaw);
  } catch (err) {
    return `INITIAL PLANNING 2:\nI could not use the detections (${err instanceof Error ? err.message : String(err)}).\n\`\`\`python\ntask_completed()\n\`\`\``;
  }
  // The loop runs the detector once the code says the task is done; solutions that only move end with the call here.
  if (!/^task_completed\(\)\s*$/m.test(code)) code = `${code.replace(/\n*$/, '\n')}task_completed()\n`;
  const startLine = `start_pose = ${fmt([...s.start, 0])}`;
  // A malformed pose on the first block (forgetting the rotation), corrected once the error comes back.
  const codeError = flawed && firstCode && !errorBack && !s.replan && conversationHash(messages.slice(0, 3), ctx.seed ?? 0, 'trajgen-code') < CODE_ERROR_RATE;
  const body = codeError ? code.replace(/^(trajectory_1 = [^\n]*)$/m, '$1\ntrajectory_1 = [pose[:3] for pose in trajectory_1]') : code;
  const intro = errorBack
    ? 'The error says a pose did not have the form [x, y, z, rotation]: every pose must keep its rotation value. Here is the corrected block.\n'
    : `${resolution}INITIAL PLANNING 2:\nThere is one instance of each object I need. I approach each object along the sides given by its detected dimensions and orientation, and I lower the gripper only once it is above the part to touch.\nThe shape of the motion and the steps are in the comments; every trajectory starts where the previous one ends.\n`;
  return `${intro}\`\`\`python\n${startLine}\n${body}\`\`\``;
}

/** The numeric mode: a straight path above the first detected object and back, as numbers (5-element poses). */
function numericAnswer(s: MainSituation, seen: Readout): string {
  const target = seen.all[0] ?? { pos: s.start };
  const up = s.start[2];
  const a: number[] = [...s.start, 0, 1];
  const b: number[] = [target.pos[0], target.pos[1], up, 0, 1];
  const n = Math.max(2, Math.ceil(Math.hypot(b[0]! - a[0]!, b[1]! - a[1]!) / 0.01));
  const pts = Array.from({ length: n }, (_, i) => a.map((v, k) => Math.round((v + ((b[k]! - v) * (i + 1)) / n) * 1000) / 1000));
  return `INITIAL PLANNING 2:\nThe reference model writes numeric trajectories only as a straight path above the first object (it has no numeric plan for the built-in tasks).\n<trajectory>\n${JSON.stringify(pts)}\n</trajectory>\n[task_completed]`;
}

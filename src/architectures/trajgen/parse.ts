// Reading LM Trajectory Generators' answers: the ```python blocks of a main answer, the numeric mode's tags
// (<detect_object>, <trajectory>, [task_completed]), the success detector's verdict, and the authors' feedback
// texts (print output, error correction) in the shape their code sends them.
import { EXECUTION_FEEDBACK_LINE } from '../../core/apis/lmtg.js';
import { plainText, pythonBlocksOf } from '../../core/architecture/answerText.js';

export type Parse<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Every code block of an answer, in order (the paper runs them one after the other): tagged python/py or bare, with
 * CRLF and typographic quotes made plain; blocks tagged with another language (```text, ```json) are not run.
 */
export function pythonBlocks(text: string): string[] {
  return pythonBlocksOf(plainText(text, { keepWordApostrophes: true }))
    .map((b) => b.body.replace(/\s+$/, '') + '\n')
    .filter((b) => b.trim() !== '');
}

/** The blocks to run, or the refusal the trace records when there are none. */
export function parseCodeBlocks(text: string): Parse<string[]> {
  const blocks = pythonBlocks(text);
  return blocks.length > 0 ? { ok: true, value: blocks } : { ok: false, error: 'the answer has no ```python code block, so nothing was run' };
}

export type Verdict = 'completed' | 'failed';

/** The detector's answer: the last task_completed() / task_failed() inside a ```python block (or bare, as a fallback). */
export function parseVerdict(text: string): Parse<Verdict> {
  const inBlocks = pythonBlocks(text).join('\n');
  const source = inBlocks.trim() !== '' ? inBlocks : plainText(text);
  const calls = [...source.matchAll(/\b(task_completed|task_failed)\s*\(\s*\)/g)].map((m) => m[1]);
  if (calls.length === 0) return { ok: false, error: 'the answer calls neither task_completed() nor task_failed(); end it with a ```python block holding one of them' };
  if (new Set(calls).size > 1) return { ok: false, error: 'the answer calls both task_completed() and task_failed(); call only the one that is your verdict' };
  return { ok: true, value: calls[0] === 'task_completed' ? 'completed' : 'failed' };
}

/** The numeric mode's detections: the text between <detect_object> tags. */
export function detectTags(text: string): string[] {
  return [...text.matchAll(/<detect_object>([\s\S]*?)<\/detect_object>/g)].map((m) => m[1]!.trim()).filter((q) => q !== '');
}

export function claimsCompleted(text: string): boolean {
  return /\[task_completed\]/.test(text);
}

export type Pose5 = [number, number, number, number, number];

/**
 * The numeric mode's trajectories: each <trajectory> block must be a list of [x, y, z, rotation, gripper] poses
 * written as numbers (the paper's Fig. 17 asks for a Python list; expressions and comments are not run).
 */
export function trajectoryTags(text: string): Parse<Pose5[]>[] {
  return [...text.matchAll(/<trajectory>([\s\S]*?)<\/trajectory>/g)].map((m) => parseNumericTrajectory(m[1]!));
}

export function parseNumericTrajectory(body: string): Parse<Pose5[]> {
  // A model may fence the list or comment its poses; numbers written as Python allows (1. or .5) are numbers.
  const src = plainText(body)
    .replace(/^[ \t]*(?:```|~~~)[^\n]*$/gm, '')
    .replace(/#[^\n]*/g, '')
    .replace(/^\s*(?:\w+\s*=\s*)/, '')
    .trim()
    .replace(/,\s*([\]\)])/g, '$1')
    .replace(/\(/g, '[')
    .replace(/\)/g, ']')
    .replace(/(\d)\.(?!\d)/g, '$1.0')
    .replace(/(^|[^\d])\.(\d)/g, (_m, before: string, digit: string) => `${before}0.${digit}`);
  let v: unknown;
  try {
    v = JSON.parse(src);
  } catch {
    const bad = /[^\d\s.,+\-eE[\]]/.exec(src) ?? /[\d.]\s*[-+*/]\s*[\d.]/.exec(src.replace(/\d[eE][-+]\d/g, '000'));
    return { ok: false, error: `the <trajectory> block is not a list of numbers${bad ? ` (found ${JSON.stringify(src.slice(bad.index, bad.index + 20))}; write each value as a plain number)` : ''}` };
  }
  if (!Array.isArray(v)) return { ok: false, error: `the <trajectory> block must be a list of poses, got ${typeof v === 'number' ? 'a number' : typeof v}` };
  if (v.length === 0) return { ok: false, error: 'the <trajectory> block is an empty list' };
  const out: Pose5[] = [];
  for (let i = 0; i < v.length; i++) {
    const p = v[i];
    if (!Array.isArray(p) || p.length !== 5) return { ok: false, error: `pose ${i} of the <trajectory> block must be [x, y, z, rotation, gripper state] (5 numbers), got ${JSON.stringify(p)}` };
    if (!p.every((x) => typeof x === 'number' && Number.isFinite(x))) return { ok: false, error: `pose ${i} of the <trajectory> block has a value that is not a finite number: ${JSON.stringify(p)}` };
    if (p[4] !== 0 && p[4] !== 1) return { ok: false, error: `pose ${i}: the gripper state must be 1 (open) or 0 (closed), got ${p[4]}` };
    out.push(p as Pose5);
  }
  return { ok: true, value: out };
}

/** The authors' print-output feedback. */
export function printOutputFeedback(stdout: string): string {
  return `Print statement output:\n${stdout.replace(/\s+$/, '')}\n`;
}

/** The authors' error-correction feedback for code block `n` (1-based). */
export function errorCorrectionFeedback(n: number, error: string): string {
  return `Running code block ${n} of your previous response resulted in the following error:\n${error}\nCan you output a modified code block to resolve this error?\n`;
}

/** The numeric mode's version of it (the authors' code sends the parser's error the same way). */
export function trajectoryErrorFeedback(n: number, error: string): string {
  return `Reading trajectory ${n} of your previous response resulted in the following error:\n${error}\nCan you output a modified trajectory to resolve this error?\n`;
}

/** A block's output without the robot API's execution notes (the lines EXECUTION_FEEDBACK_LINE matches). */
export function withoutExecutionFeedback(stdout: string): string {
  return stdout
    .split('\n')
    .filter((l) => !EXECUTION_FEEDBACK_LINE.test(l))
    .join('\n');
}

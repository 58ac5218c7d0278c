// Plan steps as the Planner writes them ("Step 3: lower to the centre of the red block: `execute_trajectory(...)`"),
// read back by the Coder, and turned into Python blocks.
import type { Vec3 } from './scene.js';

export type Step =
  | { kind: 'move'; say: string; pos: Vec3; yaw: number }
  | { kind: 'close'; say: string; object: string }
  | { kind: 'open'; say: string }
  | { kind: 'done'; say: string };

/** Four decimals, and never "-0.0000". */
export const f4 = (x: number): string => (Math.abs(x) < 5e-5 ? 0 : x).toFixed(4);
export const vec = (v: readonly number[]): string => `[${v.map(f4).join(', ')}]`;

export function callText(s: Step): string {
  switch (s.kind) {
    case 'move':
      return `execute_trajectory(${vec(s.pos)}, ${f4(s.yaw)})`;
    case 'close':
      return `close_gripper(${JSON.stringify(s.object)})`;
    case 'open':
      return 'open_gripper()';
    case 'done':
      return 'task_completed()';
  }
}

/** Numbered plan lines, numbering from `from`. */
export function formatSteps(steps: readonly Step[], from = 1): string {
  return steps.map((s, i) => `Step ${from + i}: ${s.say}: \`${callText(s)}\``).join('\n');
}

const NUM = '(-?\\d+(?:\\.\\d+)?(?:e[-+]?\\d+)?)';
const MOVE_RE = new RegExp(`^execute_trajectory\\(\\s*\\[\\s*${NUM}\\s*,\\s*${NUM}\\s*,\\s*${NUM}\\s*\\]\\s*,\\s*${NUM}\\s*\\)$`, 'i');

/** Reads one robot call back into a step; undefined for anything else. */
export function parseCall(say: string, call: string): Step | undefined {
  const c = call.trim();
  const m = MOVE_RE.exec(c);
  if (m) return { kind: 'move', say, pos: [Number(m[1]), Number(m[2]), Number(m[3])], yaw: Number(m[4]) };
  const close = /^close_gripper\(\s*["']([^"']+)["']\s*\)$/.exec(c);
  if (close) return { kind: 'close', say, object: close[1]! };
  if (/^open_gripper\(\s*\)$/.test(c)) return { kind: 'open', say };
  if (/^task_completed\(\s*\)$/.test(c)) return { kind: 'done', say };
  return undefined;
}

/** The numbered steps of a plan text ("Step N: what: `call`"), in order. */
export function parseSteps(text: string): Step[] {
  const out: Step[] = [];
  for (const m of text.matchAll(/^\s*Step \d+\s*[:.)-]\s*(.*?)\s*:\s*`([^`\n]+)`\s*$/gim)) {
    const s = parseCall(m[1]!, m[2]!);
    if (s) out.push(s);
  }
  return out;
}

/** Robot calls made by a block of code (each plan step is exactly one). */
export function robotCalls(code: string): number {
  return (code.match(/\b(?:execute_trajectory|open_gripper|close_gripper)\s*\(/g) ?? []).length;
}

/** Values a block assigns at top level (`name = value`), last assignment wins. */
export function assignments(code: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of code.matchAll(/^([A-Za-z_]\w*)\s*=\s*(.+?)\s*$/gm)) out.set(m[1]!, m[2]!);
  return out;
}

export interface BlockOptions {
  /** Values defined in earlier blocks (name -> value text). */
  earlier: ReadonlyMap<string, string>;
  /** Names that may be used without defining them again when an earlier block defined the same value. */
  reuse: (name: string) => boolean;
  /** Adds `task_completed()` at the end. */
  complete?: boolean;
  /** The step (index in the block) whose waypoint is used under a name the block never assigns. */
  undefinedAt?: number;
}

/**
 * One Python block for `steps`. Each value gets a name (`object_name`, `position`, `yaw`); a name that an earlier
 * block defined with the same value is left undefined when `reuse(name)` says so, which is exactly the mistake that
 * raises a NameError when blocks do not share a namespace.
 */
export function codeBlock(steps: readonly Step[], options: BlockOptions): { code: string; reused: string[] } {
  const lines: string[] = [];
  const reused: string[] = [];
  const here = new Map<string, string>();
  const define = (name: string, value: string) => {
    if (here.get(name) === value) return;
    if (!here.has(name) && options.earlier.get(name) === value && options.reuse(name)) {
      reused.push(name);
      here.set(name, value);
      return;
    }
    lines.push(`${name} = ${value}`);
    here.set(name, value);
  };
  const target = steps.find((s): s is Extract<Step, { kind: 'close' }> => s.kind === 'close')?.object;
  for (const [i, s] of steps.entries()) {
    lines.push(`# ${s.say}`);
    if (s.kind === 'move' && i === options.undefinedAt) {
      define('yaw', f4(s.yaw));
      lines.push('execute_trajectory(target_position, yaw)');
    } else if (s.kind === 'move') {
      if (target && s === steps[0]) define('object_name', JSON.stringify(target));
      define('yaw', f4(s.yaw));
      define('position', vec(s.pos));
      lines.push('execute_trajectory(position, yaw)');
    } else if (s.kind === 'close') {
      define('object_name', JSON.stringify(s.object));
      lines.push('close_gripper(object_name)');
    } else if (s.kind === 'open') {
      lines.push('open_gripper()');
    } else {
      lines.push('task_completed()');
    }
  }
  if (options.complete && steps.at(-1)?.kind !== 'done') lines.push('task_completed()');
  return { code: lines.join('\n'), reused };
}

// Parsers for MALMM role answers. Each returns a value or a format error that names what was expected.

export const MALMM_SPEAKERS = ['Planner', 'Coder', 'Executor'] as const;
export type MalmmSpeaker = (typeof MALMM_SPEAKERS)[number];

export type Parse<T> = { ok: true; value: T } | { ok: false; error: string };

/** The Supervisor answers "Next speaker: Coder"; a bare speaker name is accepted too. */
export function parseRoute(text: string): Parse<MalmmSpeaker> {
  const explicit = /next\s+speaker\s*[:=-]?\s*\**\s*(planner|coder|executor|code executor)\b/i.exec(text);
  const name = explicit?.[1] ?? (/^\W*(planner|coder|executor)\W*$/i.exec(text.trim())?.[1]);
  if (!name) {
    return { ok: false, error: `expected "Next speaker: Planner|Coder|Executor", got ${JSON.stringify(text.trim().slice(0, 80))}` };
  }
  const lower = name.toLowerCase();
  const value: MalmmSpeaker = lower.includes('executor') ? 'Executor' : lower === 'planner' ? 'Planner' : 'Coder';
  return { ok: true, value };
}

/** The last ```python fenced block of a reply (MALMM's executor runs the Coder's latest block). */
export function extractPythonBlock(text: string): Parse<string> {
  const blocks = [...text.matchAll(/```(?:python|py)[ \t]*\r?\n([\s\S]*?)```/gi)].map((m) => m[1]);
  if (blocks.length === 0) {
    const untagged = /```[ \t]*\r?\n([\s\S]*?)```/.exec(text);
    return {
      ok: false,
      error: untagged ? 'the code block is not tagged ```python' : 'no ```python code block in the reply',
    };
  }
  const code = blocks[blocks.length - 1].replace(/\s+$/, '');
  if (code.trim() === '') return { ok: false, error: 'the ```python block is empty' };
  return { ok: true, value: code + '\n' };
}

/**
 * MALMM's executor reply, in the shape of the AutoGen log the paper prints (exit code, output, then the state).
 * `stateHeader` adds a "Current environment state:" line before the state (one of our additions, off by default).
 */
export function executorReply(
  r: { ok: boolean; exitCode: number; stdout: string; error?: { type: string; message: string; line?: number } },
  stateText: string,
  options: { stateHeader?: boolean } = {},
): string {
  const head = r.ok ? 'exitcode: 0 (execution succeeded)' : `exitcode: ${r.exitCode} (execution failed)`;
  const out = r.stdout.replace(/\s+$/, '');
  const err = r.error ? `Error: ${r.error.type}: ${r.error.message}${r.error.line ? ` (line ${r.error.line})` : ''}` : '';
  return [head, 'Code output:', out, err, options.stateHeader ? 'Current environment state:' : '', stateText].filter((s) => s !== '').join('\n');
}

/**
 * The code output without the simulator's own notes (lines it prints as `collision: ...`, `grasp: ...`, `execute_trajectory: ...`,
 * `close_gripper: ...`, `open_gripper: ...`): RLBench's executor printed none of them. The trace keeps them all.
 */
export function withoutSimNotes(stdout: string): string {
  return stdout
    .split('\n')
    .filter((l) => !/^(?:collision|grasp|execute_trajectory|close_gripper|open_gripper):\s/.test(l))
    .join('\n');
}

// Parsers for MALMM role answers. Each returns a value or a format error that names what was expected.

import { fencedBlocks, isPythonTag, plainText, pythonBlocksOf } from '../../core/architecture/answerText.js';

export const MALMM_SPEAKERS = ['Planner', 'Coder', 'Executor'] as const;
export type MalmmSpeaker = (typeof MALMM_SPEAKERS)[number];

export type Parse<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * The Supervisor answers "Next speaker: Coder". Also read: markdown around it (**Next speaker:** *Coder*), the
 * phrasings models use ("the next speaker should be the Coder", "Coder should speak next", {"next_speaker": "Coder"}),
 * "Code Executor", and a bare speaker name. The last such statement counts (a model may restate its choice).
 */
export function parseRoute(text: string): Parse<MalmmSpeaker> {
  const s = plainText(text).replace(/[*_`#>"']/g, ' ');
  const NAME = '(planner|coder|code\\s+executor|executor)\\b';
  const forms = [
    new RegExp(`next\\s*speaker\\b[\\s:=\\-]*(?:(?:is|should|will|would|be|now|then|the|go|to|agent|role)\\b[\\s:,]*){0,5}${NAME}`, 'gi'),
    new RegExp(`\\b(?:the\\s+)?${NAME}\\s+(?:should|will|must|can|is\\s+to)\\s+(?:speak|go|answer|respond|take\\s+over|continue)\\s+next`, 'gi'),
    new RegExp(`^\\W*${NAME}\\W*$`, 'gi'),
  ];
  let name: string | undefined;
  for (const re of forms) {
    const all = [...s.trim().matchAll(re)];
    if (all.length > 0) {
      name = all[all.length - 1]![1];
      break;
    }
  }
  if (!name) {
    return {
      ok: false,
      error: `expected "Next speaker: Planner|Coder|Executor" (one line naming who speaks next), got ${JSON.stringify(text.trim().slice(0, 80))}`,
    };
  }
  const lower = name.toLowerCase();
  const value: MalmmSpeaker = lower.includes('executor') ? 'Executor' : lower === 'planner' ? 'Planner' : 'Coder';
  return { ok: true, value };
}

/**
 * The code the Executor runs: the last fenced block tagged python/py or bare (MALMM's executor runs the Coder's
 * latest block). CRLF and typographic quotes are made plain; a block left open at the end of the answer is read to
 * the end. A reply whose only blocks are tagged with another language, or that has none, is refused saying so.
 */
export function extractPythonBlock(text: string): Parse<string> {
  const plain = plainText(text, { keepWordApostrophes: true });
  const blocks = pythonBlocksOf(plain).filter((b) => b.body.trim() !== '');
  if (blocks.length === 0) {
    const all = fencedBlocks(plain);
    if (all.some((b) => b.body.trim() !== '' && !isPythonTag(b.lang))) {
      const tags = [...new Set(all.map((b) => b.lang).filter((l) => !isPythonTag(l)))];
      return { ok: false, error: `the code block is tagged \`\`\`${tags.join(', ```')}; write the robot code in a \`\`\`python block` };
    }
    if (all.length > 0) return { ok: false, error: 'the ```python block is empty; write the robot code inside it' };
    return { ok: false, error: 'no ```python code block in the reply; write the robot code between ```python and ```' };
  }
  const code = blocks[blocks.length - 1]!.body.replace(/\s+$/, '');
  return { ok: true, value: code + '\n' };
}

/**
 * MALMM's executor reply, in the shape of the AutoGen log the paper prints (exit code, output, then the state).
 * `stateHeader` adds a "Current environment state:" line before the state (one of our additions, off by default).
 */
export function executorReply(
  r: { ok: boolean; exitCode: number; stdout: string; error?: { type: string; message: string; line?: number } },
  stateText: string,
  options: { stateHeader?: boolean; errorDetails?: boolean } = {},
): string {
  const head = r.ok ? 'exitcode: 0 (execution succeeded)' : `exitcode: ${r.exitCode} (execution failed)`;
  const out = r.stdout.replace(/\s+$/, '');
  // The paper's failed replies print the exception's message alone (`Error: name 'x' is not defined`) and no state.
  const details = r.ok || options.errorDetails === true;
  const err = r.error ? (details ? `Error: ${r.error.type}: ${r.error.message}${r.error.line ? ` (line ${r.error.line})` : ''}` : `Error: ${r.error.message}`) : '';
  const state = details ? [options.stateHeader ? 'Current environment state:' : '', stateText] : [];
  return [head, 'Code output:', out, err, ...state].filter((s) => s !== '').join('\n');
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

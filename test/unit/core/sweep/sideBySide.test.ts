// Two transcripts side by side: turns aligned by number, the first diverging turn, the prompt diff per role.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TraceEvent } from '../../../../src/protocol/trace.js';
import { diffLines, sideBySide, transcriptTurns, withContext } from '../../../../src/core/trace/projections/sideBySide.js';

const ev = (e: Record<string, unknown>) => e as unknown as TraceEvent;
const call = (turn: number, role: string, system: string) => ev({ type: 'role_call', turn, callId: `${role}${turn}`, role, messages: [{ role: 'system', content: system }, { role: 'user', content: 'stack the blocks' }], model: 'm', params: {}, promptPath: `${role}.prompt`, variables: {} });
const answer = (turn: number, role: string, text: string) => ev({ type: 'model_response', turn, callId: `${role}${turn}`, role, ok: true, text, latencyMs: 1, cached: false, attempts: 1 });
const ran = (turn: number, ok: boolean, stdout: string) => ev({ type: 'code_execution', turn, role: 'coder', language: 'python', code: 'x', ok, exitCode: ok ? 0 : 1, stdout, ...(ok ? {} : { error: { type: 'NameError', message: "name 'y' is not defined" } }) });
const trace = (variant: string, coderSystem: string, coderCode: string, ok: boolean, success: boolean): TraceEvent[] => [
  ev({ type: 'episode_start', variant, ablations: { 'coder.define_in_same_block': variant === 'on' } }),
  call(1, 'planner', 'You plan.\nOne step per line.'),
  answer(1, 'planner', '1. pick red\n2. place red on blue'),
  call(2, 'coder', coderSystem),
  answer(2, 'coder', coderCode),
  ran(3, ok, ok ? 'moved' : ''),
  ev({ type: 'episode_end', success, reason: success ? 'task_completed' : 'turn_cap', metrics: { turns: 3 } }),
];

test('aligned by turn; the first turn whose sides differ is marked; the prompt diff shows only the roles that changed', () => {
  const left = trace('on', 'You write code.\nDefine helpers in the same block.\nUse the API.', 'pick("red")', true, true);
  const right = trace('off', 'You write code.\nUse the API.', 'grab("red")', false, false);
  const s = sideBySide(left, right);
  assert.deepEqual(s.rows.map((r) => [r.turn, r.same]), [[1, true], [2, false], [3, false]]);
  assert.equal(s.firstDivergence, 2);
  assert.match(s.rows[2]!.right!.text, /NameError/);
  assert.equal(s.rows[2]!.right!.error, true);
  assert.deepEqual(s.promptDiff.map((d) => [d.role, d.same]), [['planner', true], ['coder', false]]);
  assert.deepEqual(s.promptDiff[1]!.lines.filter((l) => l.op !== '='), [{ op: '-', text: 'Define helpers in the same block.' }]);
  assert.deepEqual([s.left.success, s.right.success, s.left.variant, s.right.variant], [true, false, 'on', 'off']);
});

test('the same episode twice has no divergence; a turn only one side has is a difference', () => {
  const a = trace('on', 'S', 'pick()', true, true);
  assert.equal(sideBySide(a, a).firstDivergence, null);
  const longer = [...a.slice(0, -1), answer(4, 'supervisor', 'done'), a.at(-1)!];
  const s = sideBySide(a, longer);
  assert.equal(s.firstDivergence, 4);
  assert.equal(s.rows.at(-1)!.left, undefined);
  assert.deepEqual(transcriptTurns(a).map((t) => t.role), ['planner', 'coder', 'Executor']);
});

test('line diff and its context elide long unchanged runs', () => {
  const a = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
  const b = ['a', 'b', 'c', 'd', 'X', 'f', 'g', 'h'];
  const d = diffLines(a, b);
  assert.deepEqual(d.filter((l) => l.op !== '='), [{ op: '-', text: 'e' }, { op: '+', text: 'X' }]);
  assert.deepEqual(withContext(d, 1).map((l) => `${l.op}${l.text}`), ['=… 3 unchanged lines', '=d', '-e', '+X', '=f', '=… 2 unchanged lines']);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { executorReply, withoutSimNotes, extractPythonBlock, parseRoute } from '../../../../src/architectures/malmm/parse.js';

test('route parsing: explicit, bare, code executor, and a clear error otherwise', () => {
  assert.deepEqual(parseRoute('Next speaker: Coder'), { ok: true, value: 'Coder' });
  assert.deepEqual(parseRoute('I think... next speaker: **Planner**'), { ok: true, value: 'Planner' });
  assert.deepEqual(parseRoute('Executor'), { ok: true, value: 'Executor' });
  assert.deepEqual(parseRoute('Next speaker: Code Executor'), { ok: true, value: 'Executor' });
  const bad = parseRoute('Let us think about the blocks.');
  assert.equal(bad.ok, false);
  assert.match(!bad.ok ? bad.error : '', /expected "Next speaker: Planner\|Coder\|Executor"/);
});

test('python block extraction: last tagged block wins; untagged and missing blocks are distinct format errors', () => {
  assert.deepEqual(extractPythonBlock('a\n```python\nx = 1\n```\nb\n```python\nopen_gripper()\n```'), { ok: true, value: 'open_gripper()\n' });
  assert.deepEqual(extractPythonBlock('```\nx=1\n```'), { ok: false, error: 'the code block is not tagged ```python' });
  assert.deepEqual(extractPythonBlock('no code here'), { ok: false, error: 'no ```python code block in the reply' });
  assert.deepEqual(extractPythonBlock('```python\n\n```'), { ok: false, error: 'the ```python block is empty' });
});

test('executor reply carries exit code, error with line, and the state text (the paper\'s shape; the state header is opt-in)', () => {
  const r = executorReply({ ok: false, exitCode: 1, stdout: '', error: { type: 'NameError', message: "name 'p' is not defined", line: 2 } }, '**red block** :\n...');
  assert.match(r, /^exitcode: 1 \(execution failed\)\nCode output:\nError: NameError: name 'p' is not defined \(line 2\)\n\*\*red block\*\*/);
  assert.match(executorReply({ ok: true, exitCode: 0, stdout: 'hi\n' }, 'S'), /^exitcode: 0 \(execution succeeded\)\nCode output:\nhi\nS$/);
  assert.match(executorReply({ ok: true, exitCode: 0, stdout: 'hi\n' }, 'S', { stateHeader: true }), /^exitcode: 0 \(execution succeeded\)\nCode output:\nhi\nCurrent environment state:\nS$/);
});

test("withoutSimNotes drops the simulator's lines and keeps the code's own prints", () => {
  const out = 'collision: red block <-> blue block at t=0.20 s (depth 3.1 mm)\nhello\nexecute_trajectory: stopped 0.0200 m from the target\nclose_gripper: nothing grasped\nvalue: 3';
  assert.equal(withoutSimNotes(out), 'hello\nvalue: 3');
});

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

test('python block extraction: last python or bare block wins; other languages, missing and empty blocks are distinct format errors', () => {
  assert.deepEqual(extractPythonBlock('a\n```python\nx = 1\n```\nb\n```python\nopen_gripper()\n```'), { ok: true, value: 'open_gripper()\n' });
  assert.deepEqual(extractPythonBlock('```\nx=1\n```'), { ok: true, value: 'x=1\n' });
  assert.deepEqual(extractPythonBlock('```python\nx=1\n```\nOutput:\n```text\n1\n```'), { ok: true, value: 'x=1\n' });
  assert.deepEqual(extractPythonBlock('```bash\npython run.py\n```'), { ok: false, error: 'the code block is tagged ```bash; write the robot code in a ```python block' });
  assert.deepEqual(extractPythonBlock('no code here'), { ok: false, error: 'no ```python code block in the reply; write the robot code between ```python and ```' });
  assert.deepEqual(extractPythonBlock('```python\n\n```'), { ok: false, error: 'the ```python block is empty; write the robot code inside it' });
});

test('executor reply: the state after a block that ran; after a failure only the error message, as Figs. 30-31 (type, line and state are opt-in)', () => {
  const failed = { ok: false, exitCode: 1, stdout: '', error: { type: 'NameError', message: "name 'p' is not defined", line: 2 } };
  assert.equal(executorReply(failed, '**red block** :\n...'), "exitcode: 1 (execution failed)\nCode output:\nError: name 'p' is not defined");
  assert.equal(executorReply(failed, '**red block** :\n...', { stateHeader: true }), "exitcode: 1 (execution failed)\nCode output:\nError: name 'p' is not defined");
  const r = executorReply(failed, '**red block** :\n...', { errorDetails: true });
  assert.match(r, /^exitcode: 1 \(execution failed\)\nCode output:\nError: NameError: name 'p' is not defined \(line 2\)\n\*\*red block\*\*/);
  assert.match(executorReply({ ok: true, exitCode: 0, stdout: 'hi\n' }, 'S'), /^exitcode: 0 \(execution succeeded\)\nCode output:\nhi\nS$/);
  assert.match(executorReply({ ok: true, exitCode: 0, stdout: 'hi\n' }, 'S', { stateHeader: true }), /^exitcode: 0 \(execution succeeded\)\nCode output:\nhi\nCurrent environment state:\nS$/);
});

test("withoutSimNotes drops the simulator's lines and keeps the code's own prints", () => {
  const out = 'collision: red block <-> blue block at t=0.20 s (depth 3.1 mm)\nhello\nexecute_trajectory: stopped 0.0200 m from the target\nclose_gripper: nothing grasped\nvalue: 3';
  assert.equal(withoutSimNotes(out), 'hello\nvalue: 3');
});

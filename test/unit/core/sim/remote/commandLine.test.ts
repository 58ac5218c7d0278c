import assert from 'node:assert/strict';
import { it } from 'node:test';
import { splitCommandLine } from '../../../../../src/core/sim/remote/commandLine.js';
import { LineSplitter } from '../../../../../src/core/sim/remote/transport.js';

it('splits a command line on whitespace, honouring quotes and backslashes', () => {
  assert.deepEqual(splitCommandLine('python3  -u sim.py'), ['python3', '-u', 'sim.py']);
  assert.deepEqual(splitCommandLine(`python3 "my sims/rlbench.py" --task 'put block' a\\ b`), ['python3', 'my sims/rlbench.py', '--task', 'put block', 'a b']);
  assert.deepEqual(splitCommandLine(`x "" ''`), ['x', '', '']);
  assert.deepEqual(splitCommandLine(`x "say \\"hi\\""`), ['x', 'say "hi"']);
  assert.throws(() => splitCommandLine('python3 "unterminated'), /unterminated " quote/);
});

it('LineSplitter yields complete lines only, across chunk boundaries and CRLF', () => {
  const s = new LineSplitter();
  assert.deepEqual(s.push('{"a":1}\n{"b"'), ['{"a":1}']);
  assert.deepEqual(s.push(':2}\r\n\n{"c":3}'), ['{"b":2}']);
  assert.equal(s.flush(), '{"c":3}');
});

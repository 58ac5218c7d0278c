import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pythonApiStubs } from '../../../../src/core/sandbox/apiStubs.js';
import { robotApi } from './fakeRobot.js';

describe('pythonApiStubs', () => {
  it('defines one real function per API spec, with optional parameters defaulted', () => {
    const src = pythonApiStubs(robotApi);
    assert.match(src, /^def execute_trajectory\(position, orientation\):$/m);
    assert.match(src, /^def open_gripper\(\):$/m);
    assert.match(src, /^def look\(target, verbose=_wp_MISSING\):$/m);
    assert.match(src, /_wp_call\("execute_trajectory", \[\("position", "list\[float\]", position\), \("orientation", "float", orientation\)\]\)/);
  });

  it('carries signature and doc as a docstring, escaped as a Python literal', () => {
    const src = pythonApiStubs([{ name: 'say', params: [], signature: 'say() -> None', doc: 'Quote " and \\ and\nnewline' }]);
    assert.ok(src.includes('"say() -> None\\n\\nQuote \\" and \\\\ and\\nnewline"'));
  });

  it('rejects names that are not Python identifiers or are reserved', () => {
    assert.throws(() => pythonApiStubs([{ name: 'open-gripper', params: [], signature: '', doc: '' }]), /invalid API function name "open-gripper"/);
    assert.throws(() => pythonApiStubs([{ name: 'lambda', params: [], signature: '', doc: '' }]), /not a Python identifier/);
    assert.throws(() => pythonApiStubs([{ name: '_wp_call', params: [], signature: '', doc: '' }]), /reserved/);
    assert.throws(
      () => pythonApiStubs([{ name: 'f', params: [{ name: 'x y', type: 'int' }], signature: '', doc: '' }]),
      /invalid parameter of f "x y"/,
    );
  });

  it('rejects duplicates and a required parameter after an optional one', () => {
    const f = { name: 'f', params: [], signature: '', doc: '' };
    assert.throws(() => pythonApiStubs([f, f]), /duplicate API function "f"/);
    assert.throws(
      () =>
        pythonApiStubs([
          { name: 'g', params: [{ name: 'a', type: 'int', optional: true }, { name: 'b', type: 'int' }], signature: '', doc: '' },
        ]),
      /required parameter "b" follows optional "a" in API function g/,
    );
  });
});

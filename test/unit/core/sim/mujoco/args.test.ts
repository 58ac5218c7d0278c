import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arityError, finiteNumber, numberList, pyRepr, str } from '../../../../../src/core/sim/mujoco/apis/args.js';

test('pyRepr prints values the way Python would', () => {
  assert.equal(pyRepr([0.1, 2, 'a', null, true, false, Number.NaN, Number.POSITIVE_INFINITY]), "[0.1, 2, 'a', None, True, False, nan, inf]");
  assert.equal(pyRepr("it's"), "'it\\'s'");
  assert.equal(pyRepr({ x: 1 }), "{'x': 1}");
});

test('arityError uses Python wording', () => {
  assert.equal(arityError('f', ['a', 'b'], [1, 2]), null);
  assert.equal(arityError('f', ['a', 'b', 'c'], [1]), "f() missing 2 required positional arguments: 'b' and 'c'");
  assert.equal(arityError('f', ['a'], []), "f() missing 1 required positional argument: 'a'");
  assert.equal(arityError('g', [], [1, 2]), 'g() takes 0 positional arguments but 2 were given');
  assert.equal(arityError('h', ['a'], [1, 2]), 'h() takes 1 positional argument but 2 were given');
});

test('numberList, finiteNumber and str accept good values and explain bad ones', () => {
  assert.deepEqual(numberList('f', 'p', [1, 2, 3], 3), { ok: true, value: [1, 2, 3] });
  assert.deepEqual(numberList('f', 'p', [1, 2, 3, 4], 3), { ok: false, error: 'f() expects p as a list of 3 numbers, got [1, 2, 3, 4]' });
  assert.deepEqual(numberList('f', 'p', [1, true, 3], 3), { ok: false, error: 'f() expects p as a list of 3 numbers, got [1, True, 3]' });
  assert.deepEqual(numberList('f', 'p', 'abc', 3), { ok: false, error: "f() expects p as a list of 3 numbers, got 'abc'" });
  assert.deepEqual(numberList('f', 'p', [1, Number.NEGATIVE_INFINITY, 3], 3), { ok: false, error: 'f() expects finite numbers in p, got [1, -inf, 3]' });
  assert.deepEqual(finiteNumber('f', 'o', 'yaw in radians', 0.5), { ok: true, value: 0.5 });
  assert.deepEqual(finiteNumber('f', 'o', 'yaw in radians', true), { ok: false, error: 'f() expects o as a number (yaw in radians), got True' });
  assert.deepEqual(finiteNumber('f', 'o', 'yaw in radians', Number.NaN), { ok: false, error: 'f() expects o as a finite number (yaw in radians), got nan' });
  assert.deepEqual(str('f', 'name', 'red block'), { ok: true, value: 'red block' });
  assert.deepEqual(str('f', 'name', ['red block']), { ok: false, error: "f() expects name as a str, got ['red block']" });
});

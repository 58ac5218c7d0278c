import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluateExpr, ExprEvalError, ExprSyntaxError, parseExpr, parseHitCondition, truthy } from '../../../../src/core/debug/expr.js';

const scope = {
  turn: 7,
  role: 'coder',
  consecutiveErrors: 2,
  state: { objects: { red_block: { x: 0.1, y: -0.2, z: 0.78, pos: [0.1, -0.2, 0.78] } }, grasped: null },
  messages: [{ role: 'system', content: 'You are the Coder' }, { role: 'user', content: 'Planner:\nstep 1' }],
  args: [[0.1, 0.2, 0.9], 0.5],
};
const ev = (src: string, s: Record<string, unknown> = scope) => evaluateExpr(parseExpr(src), s);

test('the conditions from the issue evaluate over the context', () => {
  assert.equal(ev('turn > 5'), true);
  assert.equal(ev('state.objects.red_block.z < 0.8'), true);
  assert.equal(ev('consecutiveErrors >= 2'), true);
  assert.equal(ev('role == "coder" && turn % 2 == 1'), true);
  assert.equal(ev("not (role == 'planner') or false"), true);
  assert.equal(ev('args[0][2] - 0.9'), 0);
  assert.equal(ev('messages[-1].content'), 'Planner:\nstep 1');
  assert.equal(ev('"Coder" in messages[0].content'), true);
  assert.equal(ev('len(messages) + 1'), 3);
  assert.equal(ev('dist(state.objects.red_block, [0.1, -0.2, 0.78])'), 0);
  assert.equal(ev('contains(keys(state.objects), "red_block")'), true);
  assert.equal(ev('state.grasped == null'), true);
  assert.equal(ev('max(1, 2.5, -3)'), 2.5);
  assert.equal(ev('round(0.12345, 2)'), 0.12);
});

test('syntax errors name the column', () => {
  const cases: [string, number, RegExp][] = [
    ['turn >', 7, /expected a value, found the end/],
    ['turn > > 3', 8, /expected a value/],
    ['(turn', 6, /expected '\)'/],
    ['turn = 3', 6, /unexpected character '='/],
    ['"open', 1, /unterminated string/],
    ['', 1, /empty/],
    ['frobnicate(1)', 1, /unknown function 'frobnicate'/],
  ];
  for (const [src, col, re] of cases) {
    assert.throws(() => parseExpr(src), (e: unknown) => e instanceof ExprSyntaxError && e.column === col && re.test(e.message), src);
  }
});

test('evaluation errors say what is missing; nothing reaches JavaScript internals', () => {
  assert.throws(() => ev('state.objects.blue_block.z'), (e: unknown) => e instanceof ExprEvalError && /no field 'blue_block' \(fields: red_block\)/.test(e.message));
  assert.throws(() => ev('nope'), /unknown name 'nope'/);
  assert.throws(() => ev('role < 3'), /compares two numbers or two strings/);
  assert.throws(() => ev('messages[5]'), /index 5 is out of range/);
  for (const src of ['state.constructor', 'state["__proto__"]', 'messages.constructor', 'toString', 'state.objects.hasOwnProperty']) {
    assert.throws(() => ev(src), ExprEvalError, src);
  }
});

test('hit conditions: a bare number, an operator and a number, or an expression over hits', () => {
  const at = (cond: string, hits: number) => truthy(evaluateExpr(parseHitCondition(cond), { hits }));
  assert.deepEqual([1, 2, 3, 4].map((h) => at('3', h)), [false, false, true, true]);
  assert.deepEqual([1, 2, 3, 4].map((h) => at('== 2', h)), [false, true, false, false]);
  assert.deepEqual([1, 2, 3, 4].map((h) => at('%2', h)), [false, true, false, true]);
  assert.deepEqual([1, 2, 3, 4].map((h) => at('hits > 1 && hits < 4', h)), [false, true, true, false]);
  assert.throws(() => parseHitCondition('>='), ExprSyntaxError);
});

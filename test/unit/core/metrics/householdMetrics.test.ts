// LLaMAR's episode metrics (Sec. 5) on hand-built partial checker states: transport rate is completed subtasks over
// all, coverage is task objects interacted with over all task objects, balance is min s_i / (max s_i + eps).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BALANCE_EPSILON, checkerMetrics } from '../../../../src/core/metrics/householdMetrics.js';
import type { CheckerState } from '../../../../src/protocol/household.js';

const sub = (id: string, by?: string) => ({ id, text: `PutObject(Fridge, ${id})`, done: by !== undefined, ...(by ? { by, step: 3 } : {}) });

test('a partial state: 3 of 5 subtasks done (transport 0.6), 2 of 8 objects covered (coverage 0.25), Alice 2 / Bob 1', () => {
  const state: CheckerState = {
    subtasks: [sub('Tomato', 'Alice'), sub('Apple', 'Bob'), sub('Egg', 'Alice'), sub('Bread'), sub('Lettuce')],
    coverageTotal: ['Tomato_1', 'Apple_1', 'Egg_1', 'Bread_1', 'Lettuce_1', 'Fridge_1', 'Knife_1', 'Mug_1'],
    coverageDone: ['Tomato_1', 'Fridge_1'],
    success: false,
  };
  const m = checkerMetrics(state, ['Alice', 'Bob']);
  assert.equal(m.success, false);
  assert.equal(m.completed, 3);
  assert.equal(m.total, 5);
  assert.equal(m.transportRate, 3 / 5);
  // Coverage counts objects, not subtasks: 2 of 8 here, where completed / total would say 0.6.
  assert.equal(m.coverage, 2 / 8);
  assert.deepEqual(m.perAgent, { Alice: 2, Bob: 1 });
  // min / max, not min / sum (which would be 1/3).
  assert.equal(m.balance, 1 / (2 + BALANCE_EPSILON));
  assert.ok(Math.abs(m.balance - 0.5) < 1e-3);
});

test('an agent that did nothing makes balance 0; an even split is ~1; every subtask done is a success', () => {
  const done: CheckerState = { subtasks: [sub('Tomato', 'Alice'), sub('Apple', 'Bob')], coverageTotal: ['Tomato_1', 'Apple_1'], coverageDone: ['Tomato_1', 'Apple_1'], success: true };
  const even = checkerMetrics(done, ['Alice', 'Bob']);
  assert.equal(even.success, true);
  assert.equal(even.transportRate, 1);
  assert.equal(even.coverage, 1);
  assert.equal(even.balance, 1 / (1 + BALANCE_EPSILON));
  const idle = checkerMetrics(done, ['Alice', 'Bob', 'Carol']);
  assert.equal(idle.balance, 0);
  assert.deepEqual(idle.perAgent, { Alice: 1, Bob: 1, Carol: 0 });
  // An empty checker is neither a success nor a division by zero.
  const empty = checkerMetrics({ subtasks: [], coverageTotal: [], coverageDone: [], success: false }, ['Alice']);
  assert.deepEqual([empty.success, empty.transportRate, empty.coverage], [false, 0, 0]);
});

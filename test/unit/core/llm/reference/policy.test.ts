// Role-policy registry: names validated, duplicates refused, dispatch by the system-prompt marker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RolePolicyRegistry, roleDispatchPolicy, defaultReferenceModels, REFERENCE_MODEL_NAME } from '../../../../../src/core/llm/reference/policy.js';

test('register validates names and refuses duplicates', () => {
  const r = new RolePolicyRegistry();
  r.register('llamar', 'actor', () => 'a');
  assert.throws(() => r.register('llamar', 'actor', () => 'b'), /already registered/);
  assert.throws(() => r.register('LLaMAR', 'actor', () => 'b'), /must match/);
  assert.throws(() => r.register('llamar', 'act or', () => 'b'), /must match/);
  assert.deepEqual(r.list(), ['llamar/actor']);
});

test('dispatch picks the role named by the first marker in the system prompt', () => {
  const r = new RolePolicyRegistry();
  r.register('roco', 'alice', () => 'I am Alice');
  r.register('roco', 'bob', () => 'I am Bob');
  const p = roleDispatchPolicy(r);
  assert.equal(p.answer([{ role: 'system', content: 'Team chat\n[waypoint-role: roco/bob]' }, { role: 'user', content: '[waypoint-role: roco/alice]' }]), 'I am Bob');
});

test('the default model set serves `reference`', () => {
  assert.deepEqual([...defaultReferenceModels(new RolePolicyRegistry()).keys()], [REFERENCE_MODEL_NAME]);
});

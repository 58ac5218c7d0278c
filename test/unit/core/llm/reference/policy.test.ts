// Role-policy registry: names validated, duplicates refused, dispatch by the request's role metadata (or, for
// clients that cannot send headers, a marker line in the system prompt).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RolePolicyRegistry, roleDispatchPolicy, defaultReferenceModels, REFERENCE_PROFILES } from '../../../../../src/core/llm/reference/policy.js';

test('register validates names and refuses duplicates', () => {
  const r = new RolePolicyRegistry();
  r.register('llamar', 'actor', () => 'a');
  assert.throws(() => r.register('llamar', 'actor', () => 'b'), /already registered/);
  assert.throws(() => r.register('LLaMAR', 'actor', () => 'b'), /must match/);
  assert.throws(() => r.register('llamar', 'act or', () => 'b'), /must match/);
  assert.deepEqual(r.list(), ['llamar/actor']);
});

test('dispatch picks the role from the request metadata; a marker line is the fallback for header-less clients', () => {
  const r = new RolePolicyRegistry();
  r.register('roco', 'alice', (_m, c) => `I am Alice (${c.profile}, agent ${c.meta?.agent ?? '-'})`);
  r.register('roco', 'bob', () => 'I am Bob');
  const p = roleDispatchPolicy(r);
  const chat = [{ role: 'system' as const, content: 'Team chat\n[waypoint-role: roco/bob]' }];
  assert.equal(p.answer(chat, { meta: { arch: 'roco', role: 'alice', agent: 'Alice' } }), 'I am Alice (reference, agent Alice)');
  assert.equal(p.answer(chat), 'I am Bob');
  assert.match(p.answer([{ role: 'system', content: 'no role here' }]), /received no role \(no x-waypoint-arch \/ x-waypoint-role headers\)/);
  assert.match(roleDispatchPolicy(r, 'reference-flawed').answer(chat, { meta: { arch: 'roco', role: 'alice' } }), /reference-flawed/);
});

test('the default model set serves every reference profile', () => {
  assert.deepEqual([...defaultReferenceModels(new RolePolicyRegistry()).keys()], [...REFERENCE_PROFILES]);
});

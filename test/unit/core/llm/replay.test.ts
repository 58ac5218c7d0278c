// ReplayClient answers recorded texts per role, in order, and says clearly when it runs out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReplayClient } from '../../../../src/core/llm/replay.js';
import { findRoleMarker } from '../../../../src/core/llm/roleMarker.js';
import { msg } from './helpers/scriptedClient.js';

// The engine sends the role as request metadata; the messages carry no marker.
const ask = (arch: string, role: string) => ({ model: 'replay', meta: { arch, role }, messages: msg(`You are the ${role}.`, 'go') });

test('answers per role in recorded order; arch/role beats bare role beats *', async () => {
  const c = new ReplayClient({ 'malmm/planner': ['p1', 'p2'], coder: ['c1'], '*': ['any'] });
  const texts = [];
  for (const q of [ask('malmm', 'planner'), ask('malmm', 'coder'), ask('malmm', 'planner'), ask('roco', 'alice')]) {
    const r = await c.complete(q);
    texts.push(r.ok ? r.text : r.error.message);
  }
  assert.deepEqual(texts, ['p1', 'c1', 'p2', 'any']);
  assert.deepEqual(c.remaining(), { '*': 0, coder: 0, 'malmm/planner': 0 });
});

test('running out and unknown roles are bad_request values naming the role', async () => {
  const c = new ReplayClient({ 'malmm/planner': ['only'] });
  await c.complete(ask('malmm', 'planner'));
  const out = await c.complete(ask('malmm', 'planner'));
  assert.equal(out.ok, false);
  if (!out.ok) assert.match(out.error.message, /ran out of recorded answers for role malmm\/planner \(used all 1/);
  const unknown = await c.complete(ask('llamar', 'actor'));
  if (!unknown.ok) assert.match(unknown.error.message, /no recorded answers for role llamar\/actor; recorded: malmm\/planner/);
  else assert.fail('expected a failure');
});

test('findRoleMarker: first marker in system messages only, tolerates CRLF, ignores near misses', () => {
  assert.deepEqual(findRoleMarker([{ role: 'system', content: 'Intro\r\n[waypoint-role: roco/alice]\r\nmore' }]), { architecture: 'roco', role: 'alice' });
  assert.equal(findRoleMarker([{ role: 'user', content: '[waypoint-role: roco/alice]' }]), undefined);
  assert.equal(findRoleMarker([{ role: 'system', content: ' [waypoint-role: roco/alice]' }]), undefined);
  assert.equal(findRoleMarker([{ role: 'system', content: '[waypoint-role: RoCo/alice]' }]), undefined);
  assert.deepEqual(
    findRoleMarker([
      { role: 'system', content: 'none here' },
      { role: 'system', content: '[waypoint-role: a/b]\n[waypoint-role: c/d]' },
    ]),
    { architecture: 'a', role: 'b' },
  );
});

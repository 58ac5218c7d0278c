import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { TraceEvent } from '../../../../../src/protocol/trace.js';
import { buildBigTrace, buildMalmmTrace, toJsonl } from '../../../../fixtures/traces/malmmTrace.js';
import { FIXTURES, loadFixture } from './helpers.js';

test('every line of the MALMM fixture validates against TraceEvent', () => {
  const lines = readFileSync(join(FIXTURES, 'malmm-pick-place.jsonl'), 'utf8').split('\n').filter((l) => l);
  assert.ok(lines.length > 50);
  lines.forEach((l, i) => {
    const r = TraceEvent.safeParse(JSON.parse(l));
    assert.ok(r.success, `line ${i + 1}: ${r.success ? '' : r.error.message}`);
  });
  const { events, warnings } = loadFixture('malmm-pick-place.jsonl');
  assert.deepEqual(warnings, []);
  assert.equal(events.length, lines.length);
  assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i));
});

test('the fixture tells the MALMM story: Supervisor, Planner, Coder, Executor, a NameError, its fix, success', () => {
  const { events } = loadFixture('malmm-pick-place.jsonl');
  const roles = new Set(events.flatMap((e) => (e.type === 'role_call' ? [e.role] : [])));
  assert.deepEqual([...roles].sort(), ['coder', 'planner', 'supervisor']);
  const execs = events.filter((e) => e.type === 'code_execution');
  const failed = execs.filter((e) => !e.ok);
  assert.equal(failed.length, 1);
  assert.equal(failed[0].type === 'code_execution' && failed[0].error?.type, 'NameError');
  assert.ok(events.some((e) => e.type === 'observation' && e.text.includes('**End-effector** :') && e.text.includes('Center Position: [')));
  assert.ok(events.some((e) => e.type === 'trajectory' && e.samples.length > 0));
  const end = events[events.length - 1];
  assert.equal(end.type, 'episode_end');
  assert.equal(end.type === 'episode_end' && end.success, true);
  const start = events[0];
  assert.equal(start.type === 'episode_start' && start.model.label, 'reference (scripted, not an LLM)');
});

test('the committed fixture matches its generator (rerun test/fixtures/traces/generate.ts if not)', () => {
  assert.equal(readFileSync(join(FIXTURES, 'malmm-pick-place.jsonl'), 'utf8'), toJsonl(buildMalmmTrace()));
});

test('the truncated fixture reads with a truncated_last_line warning and no episode_end', () => {
  const { events, warnings } = loadFixture('malmm-pick-place.truncated.jsonl');
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].kind, 'truncated_last_line');
  assert.ok(events.length > 50);
  assert.ok(!events.some((e) => e.type === 'episode_end'));
});

test('the corrupt fixture skips one middle line with a corrupt_line warning', () => {
  const full = loadFixture('malmm-pick-place.jsonl').events;
  const { events, warnings } = loadFixture('malmm-pick-place.corrupt.jsonl');
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].kind, 'corrupt_line');
  assert.ok(warnings[0].line > 10 && warnings[0].line < full.length - 10);
  assert.equal(events.length, full.length - 1);
});

test('the big-trace generator yields valid events with the requested number of samples', () => {
  const events = buildBigTrace(20_000);
  for (const e of events) TraceEvent.parse(e);
  const samples = events.reduce((n, e) => n + (e.type === 'trajectory' ? e.samples.length : 0), 0);
  assert.ok(samples >= 20_000 && samples < 23_000, `samples ${samples}`);
});

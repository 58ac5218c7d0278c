import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readTrace } from '../../../src/core/trace/reader.js';
import { cancelledTail } from '../../../src/extension/live/traceFinish.js';

const fixture = readFileSync(join(process.cwd(), 'test/fixtures/traces/malmm-pick-place.jsonl'), 'utf8');
const withoutEnd = fixture.trimEnd().split('\n').slice(0, -1).join('\n') + '\n';

test('a trace without an end gets a valid episode_end cancelled with the next seq', () => {
  const tail = cancelledTail(withoutEnd, 'cancelled by the user');
  assert.ok(tail);
  const { events, warnings } = readTrace(withoutEnd + tail);
  assert.deepEqual(warnings, []);
  const end = events[events.length - 1];
  assert.equal(end.type, 'episode_end');
  assert.equal(end.seq, events[events.length - 2].seq + 1);
  if (end.type === 'episode_end') {
    assert.equal(end.reason, 'cancelled');
    assert.equal(end.success, false);
    assert.equal(end.metrics.modelCalls, events.filter((e) => e.type === 'model_response').length);
  }
});

test('a partial last line stays a separate (reported) line and the end still parses', () => {
  const partial = withoutEnd + '{"seq":999,"tMs":1,"type":"obs';
  const { events, warnings } = readTrace(partial + cancelledTail(partial, 'x'));
  assert.equal(events[events.length - 1].type, 'episode_end');
  assert.deepEqual(warnings.map((w) => w.kind), ['corrupt_line']);
});

test('a trace that already ended is left alone; an empty one gets seq 0', () => {
  assert.equal(cancelledTail(fixture, 'x'), undefined);
  const { events } = readTrace(cancelledTail('', 'x')!);
  assert.equal(events[0].seq, 0);
});

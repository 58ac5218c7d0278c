import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readTrace } from '../../../src/core/trace/reader.js';
import { estimateTokens, formatPreview, placeholderValues, roleCalls, valuePreview } from '../../../src/extension/prompt/previewModel.js';

const { events } = readTrace(readFileSync(join(process.cwd(), 'test/fixtures/traces/malmm-pick-place.jsonl'), 'utf8'));

test('role calls of one role, in trace order, with their recorded messages', () => {
  const all = roleCalls(events);
  assert.ok(all.length > 0);
  const role = all[0].role;
  const mine = roleCalls(events, role);
  assert.ok(mine.every((c) => c.role === role));
  assert.deepEqual(mine.map((c) => c.seq), [...mine.map((c) => c.seq)].sort((a, b) => a - b));
  const e = events.find((x) => x.type === 'role_call' && x.callId === mine[0].callId);
  assert.deepEqual(mine[0].messages, e?.type === 'role_call' ? e.messages : undefined);
});

test('placeholders and the preview text', () => {
  assert.deepEqual(placeholderValues([{ name: 'task' }, { name: 'x_range' }]), { task: '«task»', x_range: '«x_range»' });
  const text = formatPreview(['header line'], [{ role: 'system', content: 'abcd' }, { role: 'user', content: 'efgh', name: 'Planner' }]);
  assert.equal(text, '> header line\n> 2 messages, ~2 tokens (chars/4 estimate)\n\n## 1. system\n\nabcd\n\n## 2. user (Planner)\n\nefgh\n');
  assert.equal(estimateTokens([{ role: 'user', content: 'x'.repeat(9) }]), 3);
  assert.equal(valuePreview({ a: 1 }), '{"a":1}');
  assert.match(valuePreview('y'.repeat(500), 10), /^y{10}… \(500 chars\)$/);
});

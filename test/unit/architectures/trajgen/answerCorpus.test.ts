// LM Trajectory Generators' code, verdict and trajectory readers on the answer-style corpus (issue 28).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCodeBlocks, parseVerdict, trajectoryTags } from '../../../../src/architectures/trajgen/parse.js';
import { runCorpus, type AnswerCase, type Outcome } from '../../../fixtures/answers/corpus.js';
import { TRAJGEN_ANSWERS } from '../../../fixtures/answers/trajgen.js';

function run(c: AnswerCase): Outcome {
  if (c.parser === 'code') {
    const r = parseCodeBlocks(c.text);
    return r.ok ? { ok: true, summary: `${r.value.length}: ${r.value.map((b) => b.trim().split('\n')[0]).join(' | ')}` } : r;
  }
  if (c.parser === 'verdict') {
    const v = parseVerdict(c.text);
    return v.ok ? { ok: true, summary: v.value } : v;
  }
  const tags = trajectoryTags(c.text);
  assert.equal(tags.length, 1, c.style);
  const r = tags[0]!;
  return r.ok ? { ok: true, summary: JSON.stringify(r.value) } : r;
}

test('trajgen answer corpus: at least 20 styles from several families, each read or refused as expected', (t) => {
  assert.ok(TRAJGEN_ANSWERS.length >= 20 && new Set(TRAJGEN_ANSWERS.map((c) => c.family)).size >= 5);
  const r = runCorpus(TRAJGEN_ANSWERS, run);
  t.diagnostic(`trajgen: ${r.accepted} accepted, ${r.refused} refused, ${r.wrong.length} wrong of ${TRAJGEN_ANSWERS.length}`);
  assert.deepEqual(r.wrong, []);
});

// MALMM's parsers on the answer-style corpus (issue 28): every case is read or refused as the corpus says.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractPythonBlock, parseRoute } from '../../../../src/architectures/malmm/parse.js';
import { runCorpus, type AnswerCase, type Outcome } from '../../../fixtures/answers/corpus.js';
import { MALMM_ANSWERS } from '../../../fixtures/answers/malmm.js';

function run(c: AnswerCase): Outcome {
  const r = c.parser === 'route' ? parseRoute(c.text) : extractPythonBlock(c.text);
  return r.ok ? { ok: true, summary: r.value.trimEnd() } : { ok: false, error: r.error };
}

test('MALMM answer corpus: at least 20 styles from several families, each read or refused as expected', (t) => {
  assert.ok(MALMM_ANSWERS.length >= 20 && new Set(MALMM_ANSWERS.map((c) => c.family)).size >= 5);
  const r = runCorpus(MALMM_ANSWERS, run);
  t.diagnostic(`malmm: ${r.accepted} accepted, ${r.refused} refused, ${r.wrong.length} wrong of ${MALMM_ANSWERS.length}`);
  assert.deepEqual(r.wrong, []);
});

// RoCo's dialog decision and EXECUTE parser on the answer-style corpus (issue 28).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decisionOf, parseExecute, parseFeedback, type PlanFormat } from '../../../../src/architectures/roco/parse.js';
import { runCorpus, type AnswerCase, type Outcome } from '../../../fixtures/answers/corpus.js';
import { ROCO_ANSWERS } from '../../../fixtures/answers/roco.js';

const format: PlanFormat = { agents: ['Alice', 'Bob'], verbs: ['PICK', 'PLACE', 'MOVE', 'WAIT'], noArgs: ['WAIT'], path: 'optional', objects: ['blue_square', 'red_cup', 'bin'] };

function run(c: AnswerCase): Outcome {
  if (c.parser === 'decision') return { ok: true, summary: decisionOf(c.text) };
  const r = parseExecute(c.text, format);
  if (!r.ok) return { ok: false, error: parseFeedback(r.agent, r.line, r.reason) };
  const arg = (x: unknown) => (Array.isArray(x) && Array.isArray(x[0]) ? `path${x.length}` : String(x));
  return { ok: true, summary: r.actions.map((a) => `${a.agent}:${a.name}(${a.args.map(arg).join(',')})`).join(' ') };
}

test('RoCo answer corpus: at least 20 styles from several families, each read or refused as expected', (t) => {
  assert.ok(ROCO_ANSWERS.length >= 20 && new Set(ROCO_ANSWERS.map((c) => c.family)).size >= 5);
  const r = runCorpus(ROCO_ANSWERS, run);
  t.diagnostic(`roco: ${r.accepted} accepted, ${r.refused} refused, ${r.wrong.length} wrong of ${ROCO_ANSWERS.length}`);
  assert.deepEqual(r.wrong, []);
});

// Action Contextualization's plan readers on the answer-style corpus (issue 28).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseEvaluationPlan, parseRetune, parseTaskPlan, type PlanStep } from '../../../../src/architectures/actctx/plan.js';
import { runCorpus, type AnswerCase, type Outcome } from '../../../fixtures/answers/corpus.js';
import { ACTCTX_ANSWERS } from '../../../fixtures/answers/actctx.js';

const labels = { objects: ['cup', 'bowl'], locations: ['shelf', 'table'] };
const steps = (p: PlanStep[]) => p.map((s) => `${s.action}(${s.values.join(',')})`).join('; ');

function run(c: AnswerCase): Outcome {
  if (c.parser === 'task_plan') {
    const r = parseTaskPlan(c.text, labels);
    return r.ok ? { ok: true, summary: steps(r.value) } : { ok: false, error: r.error };
  }
  const plan = parseTaskPlan("```python\ntask_plan = [(0, 'approach', ('cup', 0.5, 0.03, 'top')), (1, 'pick', ('cup', 0.5, 0.03, 'top')), (2, 'place', ('shelf', 0.0, 0.5, 0.03))]\n```", labels);
  assert.ok(plan.ok);
  if (c.parser === 'evaluation_plan') {
    const r = parseEvaluationPlan(c.text, plan.value, labels);
    return r.ok ? { ok: true, summary: r.value.map((e) => `${e.index}:${e.checks.map((k) => k.name).join(',')}`).join(' ') } : { ok: false, error: r.error };
  }
  const r = parseRetune(c.text, plan.value, labels, 2);
  return r.ok ? { ok: true, summary: steps([r.value]) } : { ok: false, error: r.error };
}

test('actctx answer corpus: at least 20 styles from several families, each read or refused as expected', (t) => {
  assert.ok(ACTCTX_ANSWERS.length >= 20 && new Set(ACTCTX_ANSWERS.map((c) => c.family)).size >= 5);
  const r = runCorpus(ACTCTX_ANSWERS, run);
  t.diagnostic(`actctx: ${r.accepted} accepted, ${r.refused} refused, ${r.wrong.length} wrong of ${ACTCTX_ANSWERS.length}`);
  assert.deepEqual(r.wrong, []);
});

// LLaMAR's module readers and action matcher on the answer-style corpus (issue 28).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchAction } from '../../../../src/architectures/llamar/actionMatcher.js';
import { parseActor, parseCorrector, parsePlanner, parseVerifier } from '../../../../src/architectures/llamar/parse.js';
import { runCorpus, type AnswerCase, type Outcome } from '../../../fixtures/answers/corpus.js';
import { LLAMAR_AGENTS, LLAMAR_ANSWERS, LLAMAR_KNOWN } from '../../../fixtures/answers/llamar.js';

const opts = { explore: true, exploreArgs: [3, 2] as [number, number] };

function run(c: AnswerCase): Outcome {
  switch (c.parser) {
    case 'planner': {
      const r = parsePlanner(c.text);
      return r.ok ? { ok: true, summary: r.value.plan.join(' | ') } : r;
    }
    case 'verifier': {
      const r = parseVerifier(c.text);
      return r.ok ? { ok: true, summary: r.value.completed.join(' | ') } : r;
    }
    case 'corrector': {
      const r = parseCorrector(c.text, LLAMAR_AGENTS);
      return r.ok ? { ok: true, summary: Object.entries(r.value.corrections).map(([k, v]) => `${k}=${v}`).join(' ') } : r;
    }
    case 'actor': {
      const r = parseActor(c.text, LLAMAR_AGENTS, LLAMAR_KNOWN, { ...opts, keys: ['memory', 'reason', 'subtask'] });
      return r.ok ? { ok: true, summary: Object.entries(r.value.actions).map(([k, v]) => `${k}:${v.action.name}(${v.action.args.join(',')})`).join(' ') } : r;
    }
    default: {
      const r = matchAction(c.text, LLAMAR_KNOWN, opts);
      return r.ok ? { ok: true, summary: `${r.action.name}(${r.action.args.join(',')})` } : { ok: false, error: r.error };
    }
  }
}

test('LLaMAR answer corpus: at least 20 styles from several families, each read or refused as expected', (t) => {
  assert.ok(LLAMAR_ANSWERS.length >= 20 && new Set(LLAMAR_ANSWERS.map((c) => c.family)).size >= 5);
  const r = runCorpus(LLAMAR_ANSWERS, run);
  t.diagnostic(`llamar: ${r.accepted} accepted, ${r.refused} refused, ${r.wrong.length} wrong of ${LLAMAR_ANSWERS.length}`);
  assert.deepEqual(r.wrong, []);
});

test('the matcher names itself: the verb-and-object rule for a synonym, the lexical score otherwise', () => {
  const rule = matchAction('open the refrigerator', LLAMAR_KNOWN, opts);
  assert.ok(rule.ok && rule.matcher === 'rule');
  const lexical = matchAction('move forward', LLAMAR_KNOWN, opts);
  assert.ok(lexical.ok && lexical.matcher === 'lexical' && lexical.action.name === 'Move');
});

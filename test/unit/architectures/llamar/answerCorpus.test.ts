// LLaMAR's module readers and action matcher on the answer-style corpus (issue 28).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { matchAction, matchActionWithEmbeddings, type MatcherName } from '../../../../src/architectures/llamar/actionMatcher.js';
import { parseActor, parseCorrector, parsePlanner, parseVerifier } from '../../../../src/architectures/llamar/parse.js';
import { EmbeddingCache, OpenAIEmbeddingClient, type EpisodeEmbeddings } from '../../../../src/core/llm/embeddings.js';
import { REFERENCE_EMBEDDING_MODEL } from '../../../../src/core/llm/reference/embedding.js';
import { startReferenceServer, type ReferenceServer } from '../../../../src/core/llm/reference/server.js';
import { runCorpusAsync, type AnswerCase, type Outcome } from '../../../fixtures/answers/corpus.js';
import { LLAMAR_AGENTS, LLAMAR_ANSWERS, LLAMAR_KNOWN } from '../../../fixtures/answers/llamar.js';

const opts = { explore: true, exploreArgs: [3, 2] as [number, number] };

/** Which matcher decided each accepted action (by name), for the counts in the test's diagnostics. */
type Tally = Record<MatcherName, number>;

/** Reads one case: without `embeddings` as a run without an embedding model, with it as the paper's matcher. */
async function run(c: AnswerCase, embeddings: EpisodeEmbeddings | undefined, tally: Tally): Promise<Outcome> {
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
      const r = await parseActor(c.text, LLAMAR_AGENTS, LLAMAR_KNOWN, { ...opts, keys: ['memory', 'reason', 'subtask'], ...(embeddings ? { embeddings } : {}) });
      if (r.ok) for (const v of Object.values(r.value.actions)) tally[v.matcher]++;
      return r.ok ? { ok: true, summary: Object.entries(r.value.actions).map(([k, v]) => `${k}:${v.action.name}(${v.action.args.join(',')})`).join(' ') } : r;
    }
    default: {
      const r = embeddings ? await matchActionWithEmbeddings(c.text, LLAMAR_KNOWN, opts, embeddings) : matchAction(c.text, LLAMAR_KNOWN, opts);
      if (r.ok) tally[r.matcher]++;
      return r.ok ? { ok: true, summary: `${r.action.name}(${r.action.args.join(',')})` } : { ok: false, error: r.error };
    }
  }
}

let server: ReferenceServer;
before(async () => {
  server = await startReferenceServer({ port: 0 });
});
after(() => server.close());

const referenceEmbeddings = () => new EmbeddingCache(new OpenAIEmbeddingClient({ baseUrl: server.url, model: REFERENCE_EMBEDDING_MODEL, clock: { nowMs: () => performance.now(), isoNow: () => new Date().toISOString() } }));

test('LLaMAR answer corpus: at least 20 styles from several families, each read or refused as expected, without and with embeddings', async (t) => {
  assert.ok(LLAMAR_ANSWERS.length >= 20 && new Set(LLAMAR_ANSWERS.map((c) => c.family)).size >= 5);
  const counts: string[] = [];
  let lexicalWithout = 0;
  for (const [label, embeddings] of [['lexical only', undefined], ['reference embeddings over HTTP', referenceEmbeddings()]] as const) {
    const tally: Tally = { rule: 0, embedding: 0, lexical: 0 };
    const r = await runCorpusAsync(LLAMAR_ANSWERS, (c) => run(c, embeddings, tally));
    counts.push(`${label}: ${r.accepted} accepted, ${r.refused} refused, ${r.wrong.length} wrong of ${LLAMAR_ANSWERS.length}; actions by ${Object.entries(tally).map(([k, n]) => `${k} ${n}`).join(', ')}`);
    assert.deepEqual(r.wrong, [], label);
    // Without embeddings no action is the embedding matcher's; with them, every action the lexical matcher took is
    // the embedding matcher's, and the rule's stay the rule's.
    if (!embeddings) {
      assert.equal(tally.embedding, 0);
      lexicalWithout = tally.lexical;
    } else assert.deepEqual([tally.embedding, tally.lexical], [lexicalWithout, 0]);
  }
  for (const line of counts) t.diagnostic(`llamar: ${line}`);
});

test('the matcher names itself: the rule for a written id, the embeddings for a synonym, the lexical matcher without them', async () => {
  const rule = matchAction('open object Fridge_1', LLAMAR_KNOWN, opts);
  assert.ok(rule.ok && rule.matcher === 'rule');
  const embedded = await matchActionWithEmbeddings('open the refrigerator', LLAMAR_KNOWN, opts, referenceEmbeddings());
  assert.ok(embedded.ok && embedded.matcher === 'embedding' && embedded.action.name === 'Open');
  const lexical = matchAction('open the refrigerator', LLAMAR_KNOWN, opts);
  assert.ok(lexical.ok && lexical.matcher === 'lexical' && lexical.action.name === 'Open');
  const moved = matchAction('move forward', LLAMAR_KNOWN, opts);
  assert.ok(moved.ok && moved.matcher === 'lexical' && moved.action.name === 'Move');
});

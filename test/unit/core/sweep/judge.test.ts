// The failure inspector's model judge: its prompt (taxonomy, outcome, transcript), reading its answer (only
// taxonomy ids), judge.json kept apart from the automatic labels and hand edits, resumable; the report and the
// comparison view's loader carry the proposals marked as a model's. Against a fake client and against the
// reference model (scripted judge, not an LLM) over HTTP.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import type { ModelClient, ModelRequest } from '../../../../src/core/llm/client.js';
import { OpenAICompatibleClient } from '../../../../src/core/llm/openai.js';
import { registerReferencePolicies } from '../../../../src/core/llm/reference/policies.js';
import { architectures } from '../../../../src/architectures/registry.js';
import { startReferenceServer } from '../../../../src/core/llm/reference/server.js';
import { FAILURE_LABELS } from '../../../../src/core/sweep/failureLabels.js';
import { judgeMessages, judgeSweep, parseJudgeAnswer, JUDGE_FILE } from '../../../../src/core/sweep/judge.js';
import { renderSweepReport } from '../../../../src/core/sweep/reportHtml.js';
import { loadSweepView } from '../../../../src/core/sweep/view.js';
import { readRecords } from '../../../../src/core/sweep/workers.js';
import { fixtureSweep } from '../../../helpers/fixtureSweep.js';

const ws = mkdtempSync(join(tmpdir(), 'waypoint-judge-'));
after(() => rmSync(ws, { recursive: true, force: true }));
const dir = fixtureSweep(ws);

test('the judge\'s answer: JSON (fenced or bare), taxonomy ids only, turns kept; prose is unreadable', () => {
  assert.deepEqual(parseJudgeAnswer('Here:\n```json\n{"labels": [{"label": "drop", "turn": 7, "evidence": "block fell"}, {"label": "made_up", "turn": 1}]}\n```'), [{ label: 'drop', turn: 7, evidence: 'block fell', source: 'judge' }]);
  assert.deepEqual(parseJudgeAnswer('{"labels": [{"label": "name_error", "turn": -2}]}'), [{ label: 'name_error', evidence: '', source: 'judge' }]);
  assert.equal(parseJudgeAnswer('It probably dropped the block.'), undefined);
  assert.equal(parseJudgeAnswer('{"verdict": "drop"}'), undefined);
});

test('judgeSweep asks about failed episodes only, writes judge.json apart, and resumes', async () => {
  const records = await readRecords(nodeIO, dir);
  const asked: ModelRequest[] = [];
  const fake: ModelClient = { id: 'fake', complete: async (r) => (asked.push(r), { ok: true, text: '{"labels": [{"label": "collision", "turn": 3, "evidence": "hit the bowl"}]}', latencyMs: 1, cached: false, attempts: 1 }) };
  const labelsBefore = readFileSync(join(dir, 'labels.json'), 'utf8');
  const recordBefore = readFileSync(join(dir, 'episodes', `${records[0]!.key}.json`), 'utf8');
  const failed = records.filter((r) => !r.success);
  const file = await judgeSweep({ io: nodeIO, sweepDir: dir, workspace: ws, records, client: fake, model: 'judge-model', modelLabel: 'judge-model @ fake', isoNow: () => nodeClock.isoNow(), keys: failed.slice(0, 3).map((r) => r.key) });
  assert.equal(asked.length, 3);
  assert.deepEqual(asked[0]!.meta, { arch: 'sweep', role: 'judge' });
  const [sys, user] = asked[0]!.messages;
  for (const id of Object.keys(FAILURE_LABELS)) assert.ok(sys!.content.includes(`- ${id}:`), id);
  assert.match(user!.content, /Ended: turn_cap after \d+ turns/);
  assert.match(user!.content, /\[turn 8\] coder/, 'the transcript, turn by turn');
  assert.equal(Object.keys(file.proposals).length, 3);
  const onDisk = JSON.parse(readFileSync(join(dir, JUDGE_FILE), 'utf8'));
  assert.equal(onDisk.model, 'judge-model @ fake');
  assert.match(onDisk.note, /proposed by a model, not checked by a person/);
  assert.deepEqual(Object.values(onDisk.proposals).map((p) => (p as { labels: { source: string }[] }).labels[0]!.source), ['judge', 'judge', 'judge']);
  assert.equal(readFileSync(join(dir, 'labels.json'), 'utf8'), labelsBefore, 'hand edits untouched');
  assert.equal(readFileSync(join(dir, 'episodes', `${records[0]!.key}.json`), 'utf8'), recordBefore, 'records untouched');
  // Again over all failures: the three already judged are not asked again.
  await judgeSweep({ io: nodeIO, sweepDir: dir, workspace: ws, records, client: fake, model: 'judge-model', modelLabel: 'judge-model @ fake', isoNow: () => nodeClock.isoNow() });
  assert.equal(asked.length, failed.length);
  // The view's loader and the report carry them, marked; the matrix counts do not change.
  const view = await loadSweepView(nodeIO, dir);
  assert.equal(view.judge?.model, 'judge-model @ fake');
  assert.equal(Object.keys(view.judge!.proposals).length, failed.length);
  assert.equal(view.matrices.malmm!.rows[0]![2]!.labels.collision, undefined, 'proposals are not counted as labels');
  const html = renderSweepReport({ title: 't', subtitle: 's', matrix: view.matrices.malmm!, records: view.records, nonce: 'abcdefghijklmnopqrstuvwx', linkOf: () => '#', judge: JSON.parse(readFileSync(join(dir, JUDGE_FILE), 'utf8')) });
  assert.match(html, /Model judge's proposals <span class="muted">proposed by judge-model @ fake: a model's proposal, not checked by a person/);
});

test('the reference model as judge (scripted, not an LLM) over HTTP proposes taxonomy labels from the transcript', async () => {
  registerReferencePolicies(architectures);
  const server = await startReferenceServer({ port: 0 });
  try {
    const records = await readRecords(nodeIO, dir);
    const failed = records.filter((r) => !r.success && r.cell === 'sa');
    const client = new OpenAICompatibleClient({ baseUrl: server.url, clock: nodeClock, model: 'reference', id: 'reference', sendRequestMeta: true });
    const file = await judgeSweep({ io: nodeIO, sweepDir: dir, workspace: ws, records: failed, client, model: 'reference', modelLabel: 'reference as judge', isoNow: () => nodeClock.isoNow() });
    const p = file.proposals[failed[0]!.key]!;
    assert.equal(p.unreadable, undefined);
    // The sa fixture trace: a NameError at turn 14 (executor output), and the episode ended by the turn cap.
    assert.deepEqual(p.labels.map((l) => l.label), ['name_error', 'incomplete_subgoal']);
    assert.ok(p.labels[0]!.turn! > 0 && /not defined/.test(p.labels[0]!.evidence));
    assert.ok(judgeMessages(failed[0]!, 'x')[0]!.content.startsWith('You review failed episodes'));
  } finally {
    await server.close();
  }
});

// Inspect AI log export, validated against the schema Inspect publishes for its log format (vendored with its
// version in test/fixtures/inspect/), and checked for the mapping: episode -> sample, role call -> model event,
// API call -> tool event, agent turn -> span, simulator success -> score.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { exportSweepInspect, exportTrace } from '../../../../src/core/export/exportTrace.js';
import { INSPECT_LOG_VERSION, toInspectLog } from '../../../../src/core/export/inspect/inspectLog.js';
import type { SweepFile } from '../../../../src/protocol/sweep.js';
import type { EventOf, TraceEvent } from '../../../../src/protocol/trace.js';
import { buildMalmmTrace, toJsonl } from '../../../fixtures/traces/malmmTrace.js';
import { withMotionMetrics } from '../../../fixtures/traces/withMotionMetrics.js';

const fixtures = join(process.cwd(), 'test', 'fixtures');
const schemaDoc = JSON.parse(readFileSync(join(fixtures, 'inspect', 'inspect-openapi.json'), 'utf8')) as { components: { schemas: { EvalLog: { properties: { version: { default: number } } } } } };
const version = JSON.parse(readFileSync(join(fixtures, 'inspect', 'version.json'), 'utf8')) as { inspect_ai: string; logVersion: number };
// OpenAPI 3.1 schemas are JSON Schema 2020-12; Ajv does not implement OpenAPI's discriminator mapping, so the
// event unions are checked by their oneOf alone (each event must match exactly one event schema).
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const validateEvalLog = ajv.compile({ $ref: '#/components/schemas/EvalLog', components: schemaDoc.components });

function assertValid(log: unknown): void {
  const ok = validateEvalLog(log);
  assert.ok(ok, `not a valid Inspect ${version.inspect_ai} EvalLog: ${JSON.stringify(validateEvalLog.errors?.slice(0, 3))}`);
}

type Ev = { event: string; span_id?: string; id?: string; function?: string; error?: unknown; type?: string; name?: string };
type Sample = { id: string; events: Ev[]; scores: { success?: { value: string; explanation: string } }; metadata: Record<string, unknown>; messages: { role: string }[] };

const events = withMotionMetrics(buildMalmmTrace());

test(`Inspect log: a run validates against Inspect ${version.inspect_ai}'s EvalLog schema (log version ${version.logVersion})`, () => {
  assert.equal(INSPECT_LOG_VERSION, version.logVersion);
  assert.equal(schemaDoc.components.schemas.EvalLog.properties.version.default, INSPECT_LOG_VERSION);
  const log = toInspectLog([{ events }], { waypointVersion: '0.1.0' }) as { samples: Sample[]; results: { scores: { metrics: { accuracy: { value: number } } }[] }; status: string };
  assertValid(log);
  assert.equal(log.status, 'success');
  assert.match((log as unknown as { eval: { model: string } }).eval.model, /\(scripted, not an LLM\)$/, 'the reference policy is labelled as such in Inspect too');
  const s = log.samples[0]!;
  const n = (kind: string) => s.events.filter((e) => e.event === kind).length;
  assert.equal(n('model'), events.filter((e) => e.type === 'model_response').length, 'each role call a model event');
  const calls = events.flatMap((e) => (e.type === 'code_execution' ? e.apiCalls : []));
  const blocks = events.filter((e) => e.type === 'code_execution').length;
  assert.equal(n('tool'), calls.length + blocks, 'each API call and each code block a tool event');
  assert.deepEqual(s.events.filter((e) => e.event === 'tool' && e.function !== 'python').map((e) => e.function), calls.map((c) => c.fn));
  // Spans: balanced, named after the agents, every model and tool event inside one.
  const open = new Set<string>();
  for (const e of s.events) {
    if (e.event === 'span_begin') open.add(e.id!);
    if (e.event === 'span_end') assert.ok(open.delete(e.id!), 'a span ends after it began');
    if (e.event === 'model' || e.event === 'tool') assert.ok(e.span_id && open.has(e.span_id), `${e.event} event inside an open span`);
  }
  assert.equal(open.size, 0);
  const spanNames = new Set(s.events.filter((e) => e.event === 'span_begin').map((e) => e.name));
  assert.deepEqual([...spanNames].sort(), ['coder', 'executor', 'planner', 'supervisor']);
  const end = events.find((e): e is EventOf<'episode_end'> => e.type === 'episode_end')!;
  assert.equal(s.scores.success?.value, end.success ? 'C' : 'I');
  assert.match(s.scores.success!.explanation, new RegExp(end.reason));
  assert.equal(log.results.scores[0]!.metrics.accuracy.value, end.success ? 1 : 0);
  // The validator is live: a wrong value is caught.
  const broken = structuredClone(log);
  (broken.samples[0]!.events.find((e) => e.event === 'tool') as Ev).type = 'not-a-tool-type' as never;
  (broken.samples[0]!.events.find((e) => e.event === 'model') as unknown as { tool_choice: string }).tool_choice = 'sometimes';
  assert.equal(validateEvalLog(broken), false);
});

test('Inspect log: failed model calls and code errors become errors; a truncated trace is a sample without score, said so', async () => {
  const failing = events.map((e): TraceEvent => (e.type === 'model_response' && e.turn === 2 ? { ...e, ok: false, text: undefined, error: { kind: 'rate_limit', message: '429 slow down' } } : e));
  const log = toInspectLog([{ events: failing }], { waypointVersion: '0.1.0' }) as { samples: Sample[] };
  assertValid(log);
  assert.ok(log.samples[0]!.events.some((e) => e.event === 'model' && /rate_limit: 429/.test(String(e.error))));
  const text = toJsonl(events);
  const cut = text.slice(0, text.lastIndexOf('"type":"episode_end"') - 20);
  const r = await exportTrace(cut, 'cut.jsonl', 'inspect', '0.1.0');
  assert.equal(r.lost.length, 1);
  assert.match(r.lost[0]!, /cut\.jsonl: line \d+ is incomplete/);
  const partial = JSON.parse(new TextDecoder().decode(r.bytes)) as { status: string; samples: Sample[] };
  assertValid(partial);
  assert.equal(partial.status, 'started');
  assert.deepEqual(partial.samples[0]!.scores, {});
  assert.match(String(partial.samples[0]!.metadata.end_reason), /interrupted/);
});

test('Inspect log: a paired sweep is one log, each episode a sample seed-<n>/<on|off>; a missing trace is reported', async () => {
  const trace = (seed: number, success: boolean) =>
    toJsonl(events.map((e): TraceEvent => (e.type === 'episode_start' ? { ...e, seed, runId: `r${seed}${success}` } : e.type === 'episode_end' ? { ...e, success, reason: success ? 'task_completed' : 'turn_cap' } : e)));
  const files = new Map([['/s/0on', trace(0, true)], ['/s/0off', trace(0, false)], ['/s/1on', trace(1, true)]]);
  const outcome = (seed: number, side: string, success: boolean) => ({ seed, runId: `r${seed}${side}`, tracePath: `/s/${seed}${side}`, success, reason: 'x', turns: 1, modelCalls: 1 });
  const stats = { ablations: {}, n: 2, successes: 1, rate: 0.5, ci95: { low: 0, high: 1 }, meanTurns: 1, meanModelCalls: 1 };
  const sweep: SweepFile = {
    schemaVersion: 1, id: 'sw1', kind: 'paired_ablation', startedAt: '2026-11-21T00:00:00Z', endedAt: '2026-11-21T00:01:00Z', status: 'complete', arch: 'malmm', task: 'pick_place',
    variant: 'default', ablation: 'planner.replan_check', seeds: [0, 1], model: { kind: 'reference', label: 'reference' },
    comparison: { on: stats, off: stats, differing: 1, pairs: [{ seed: 0, on: outcome(0, 'on', true), off: outcome(0, 'off', false) }, { seed: 1, on: outcome(1, 'on', true), off: outcome(1, 'off', false) }] },
  };
  const r = await exportSweepInspect(sweep, async (p) => files.get(p) ?? null, '0.1.0');
  assert.deepEqual(r.lost, ['seed 1 off: trace /s/1off is missing']);
  const log = JSON.parse(new TextDecoder().decode(r.bytes)) as { eval: { task: string }; samples: Sample[]; results: { scores: { metrics: { accuracy: { value: number } } }[] } };
  assertValid(log);
  assert.equal(log.eval.task, 'waypoint/malmm/pick_place/planner.replan_check');
  assert.deepEqual(log.samples.map((s) => s.id), ['seed-0/on', 'seed-0/off', 'seed-1/on']);
  assert.deepEqual(log.samples.map((s) => s.metadata.ablation_on), [true, false, true]);
  assert.equal(log.results.scores[0]!.metrics.accuracy.value, 2 / 3);
});

test("Inspect log: v2 structured actions become tool events in each agent's span; snapshots are info events", () => {
  const extra = [
    { seq: 1001, tMs: 901, type: 'action', turn: 9, actionId: 'a1', joint: true, actions: [{ agent: 'Alice', name: 'PICK', args: ['red block'] }, { agent: 'Bob', name: 'WAIT', args: [] }] },
    { seq: 1002, tMs: 950, type: 'action_result', turn: 9, actionId: 'a1', durationMs: 40, results: [{ agent: 'Alice', name: 'PICK', ok: true }, { agent: 'Bob', name: 'WAIT', ok: false, error: 'Bob cannot wait here' }] },
    { seq: 1003, tMs: 960, type: 'restore', turn: 9, id: 's1' },
  ] as unknown as TraceEvent[];
  const end = events[events.length - 1]!;
  const log = toInspectLog([{ events: [...events.slice(0, -1), ...extra, end] }], { waypointVersion: '0.1.0' }) as { samples: Sample[] };
  assertValid(log);
  const ev = log.samples[0]!.events;
  const spans = new Map(ev.filter((e) => e.event === 'span_begin').map((e) => [e.id, e.name]));
  const tools = ev.filter((e) => e.event === 'tool' && (e.function === 'PICK' || e.function === 'WAIT'));
  assert.deepEqual(tools.map((t) => [t.function, spans.get(t.span_id!), Boolean(t.error)]), [['PICK', 'Alice', false], ['WAIT', 'Bob', true]]);
  assert.ok(ev.some((e) => e.event === 'info' && (e as { source?: string }).source === 'simulator/restore'));
});

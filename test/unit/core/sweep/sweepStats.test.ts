// Statistics against known values (R's mcnemar exact = binom.test on discordant pairs, fisher.test), failure labels
// from trace events, the matrix projection and its Markdown table, and the sweep file's up-front checks.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import { classifyError, labelFailure } from '../../../../src/core/sweep/failureLabels.js';
import { buildMatrix, matrixMarkdown } from '../../../../src/core/sweep/matrix.js';
import { recordFromTrace, type EpisodeRecord } from '../../../../src/core/sweep/record.js';
import { episodeIdentity, episodeKey, parseShard, parseSweepSpec, planSweep, shardOf, type EpisodeKeyParts } from '../../../../src/core/sweep/spec.js';
import { ENGINE_BEHAVIOUR_VERSION } from '../../../../src/core/engine/behaviourVersion.js';
import { canonicalJson } from '../../../../src/core/llm/cache.js';
import { fisherExact, mcnemarExact, spread, wilson95 } from '../../../../src/core/sweep/stats.js';
import type { TraceEvent } from '../../../../src/protocol/trace.js';

const close = (a: number, b: number, tol = 1e-6) => assert.ok(Math.abs(a - b) < tol, `${a} vs ${b}`);

test('exact McNemar: two-sided binomial on the discordant pairs', () => {
  close(mcnemarExact(1, 9).p, 0.021484375); // 2 * (1 + 10) / 1024
  close(mcnemarExact(0, 5).p, 0.0625);
  close(mcnemarExact(9, 1).p, 0.021484375);
  close(mcnemarExact(3, 3).p, 1);
  close(mcnemarExact(2, 8).p, 0.109375); // 2 * (1 + 10 + 45) / 1024
  assert.deepEqual(mcnemarExact(0, 0), { b: 0, c: 0, discordant: 0, p: 1 });
  close(mcnemarExact(0, 20).p, 2 / 2 ** 20, 1e-12);
});

test("Fisher's exact test (two-sided) matches textbook tables", () => {
  close(fisherExact(3, 4, 1, 4), 0.4857142857); // the tea-tasting table
  close(fisherExact(1, 12, 9, 12), 0.002759456, 1e-8); // dieting 1 of 12 men, 9 of 12 women: Wikipedia's example
  close(fisherExact(10, 10, 0, 10), 1.082509e-5, 1e-10);
  close(fisherExact(5, 10, 5, 10), 1);
  close(fisherExact(0, 0, 3, 5), 1);
});

test('wilson95 and spread', () => {
  const w = wilson95(14, 20);
  close(w.low, 0.4810, 5e-4);
  close(w.high, 0.8545, 5e-4);
  const s = spread([2, 4, 4, 4, 5, 5, 7, 9]);
  close(s.mean!, 5);
  close(s.sd!, 2.138089935);
  assert.deepEqual(spread([]), { n: 0, mean: null, sd: null, min: null, max: null });
});

const startEv = { seq: 0, tMs: 0, type: 'episode_start' } as unknown as TraceEvent;
const endEv = (over: Record<string, unknown>) => ({ seq: 99, tMs: 9, type: 'episode_end', success: false, reason: 'turn_cap', agentClaimedDone: false, metrics: {}, ...over }) as unknown as TraceEvent;

test('premature completion points at the role turn that claimed it: the block calling task_completed(), not its Executor turn', () => {
  const ev = (o: Record<string, unknown>) => o as unknown as TraceEvent;
  // MALMM: the Coder writes task_completed() in turn 21, the Supervisor routes in 22, the Executor runs it in 23.
  const malmm = [
    startEv,
    ev({ seq: 10, tMs: 1, type: 'model_response', turn: 19, role: 'coder', callId: 'c1', ok: true, text: 'x' }),
    ev({ seq: 11, tMs: 1, type: 'parsed_output', turn: 19, role: 'coder', callId: 'c1', ok: true, kind: 'code', value: 'open_gripper()' }),
    ev({ seq: 12, tMs: 1, type: 'code_execution', turn: 20, role: 'coder', ok: true, apiCalls: [{ fn: 'open_gripper', args: [], ok: true }] }),
    ev({ seq: 20, tMs: 1, type: 'model_response', turn: 21, role: 'coder', callId: 'c2', ok: true, text: 'task_completed()' }),
    ev({ seq: 21, tMs: 1, type: 'parsed_output', turn: 21, role: 'coder', callId: 'c2', ok: true, kind: 'code', value: 'task_completed()' }),
    ev({ seq: 22, tMs: 1, type: 'model_response', turn: 22, role: 'supervisor', callId: 'c3', ok: true, text: 'Executor' }),
    ev({ seq: 23, tMs: 1, type: 'code_execution', turn: 23, role: 'coder', ok: true, apiCalls: [{ fn: 'task_completed', args: [], ok: true }] }),
    ev({ seq: 24, tMs: 1, type: 'check', turn: 23, name: 'task_success', ok: false, message: 'not stacked' }),
    endEv({ agentClaimedDone: true, reason: 'task_completed' }),
  ];
  assert.deepEqual(labelFailure(malmm).find((l) => l.label === 'premature_completion')?.turn, 21);
  // Without code (LLaMAR's Verifier closing the last subtask): the last role turn, not a later environment turn.
  const llamar = [
    startEv,
    ev({ seq: 30, tMs: 1, type: 'model_response', turn: 40, role: 'verifier', callId: 'v', ok: true, text: '{}' }),
    ev({ seq: 31, tMs: 1, type: 'observation', turn: 41, text: '', state: { objects: [] } }),
    endEv({ agentClaimedDone: true, reason: 'subtasks_done' }),
  ];
  assert.deepEqual(labelFailure(llamar).find((l) => l.label === 'premature_completion')?.turn, 40);
});

test('failure labels come from trace events, with the turn where the evidence begins', () => {
  const events = [
    startEv,
    { seq: 5, tMs: 1, type: 'code_execution', turn: 3, role: 'coder', ok: false, error: { type: 'NameError', message: "name 'yaw' is not defined" }, apiCalls: [] },
    { seq: 7, tMs: 1, type: 'code_execution', turn: 5, role: 'coder', ok: true, apiCalls: [{ fn: 'move', args: [], ok: false, error: 'move() missing 1 required positional argument' }] },
    { seq: 8, tMs: 1, type: 'parsed_output', turn: 6, role: 'planner', ok: false, kind: 'plan', callId: 'c1', error: 'no plan found' },
    { seq: 9, tMs: 1, type: 'action_result', turn: 7, actionId: 'a', durationMs: 1, results: [{ agent: 'alice', name: 'PICK', ok: false, error: 'IK failed: target unreachable' }] },
    { seq: 10, tMs: 1, type: 'action_result', turn: 8, actionId: 'b', durationMs: 1, results: [{ agent: 'alice', name: 'PICK', ok: false, error: 'IK failed: target unreachable' }] },
    { seq: 11, tMs: 1, type: 'check', turn: 9, name: 'contact_check', ok: false, message: 'no contact' },
    endEv({ agentClaimedDone: true, reason: 'task_completed' }),
  ] as unknown as TraceEvent[];
  const labels = labelFailure(events);
  const by = Object.fromEntries(labels.map((l) => [l.label, l]));
  assert.equal(by.name_error?.turn, 3);
  assert.equal(by.name_error?.seq, 5);
  assert.equal(by.missing_arguments?.turn, 5);
  assert.equal(by.format_error?.turn, 6);
  assert.equal(by.ik_failure?.turn, 7);
  assert.equal(by.repeated_failed_action?.turn, 8);
  assert.equal(by.failed_check?.turn, 9);
  assert.ok(by.premature_completion);
  assert.ok(labels.every((l) => l.source === 'auto'));
  assert.deepEqual(labelFailure([startEv, endEv({ success: true })]), []);
  assert.deepEqual(labelFailure([startEv, endEv({})]).map((l) => l.label), ['incomplete_subgoal']);
  // The engine's caps have a label of their own: out of time, not out of the architecture's turns.
  for (const reason of ['wall_clock_cap', 'sim_time_cap']) assert.deepEqual(labelFailure([startEv, endEv({ reason })]).map((l) => l.label), ['time_cap']);
  assert.equal(classifyError('collision between gripper and red_block'), 'collision');
  assert.equal(classifyError('object dropped during transport'), 'drop');
  assert.equal(classifyError("no object named 'purple_block'"), 'hallucinated_state');
});

function rec(cell: string, seed: number, success: boolean, labels: string[] = []): EpisodeRecord {
  return { key: `${cell}-${seed}`, task: 'stack_blocks', cell, variant: cell, ablations: {}, seed, repeat: 0, runId: `${cell}-${seed}`, tracePath: '', success, reason: success ? 'task_completed' : 'turn_cap', agentClaimedDone: success, turns: 10 + seed, modelCalls: 5, cachedCalls: 0, promptTokens: 100, completionTokens: 50, cost: 0.01, callsByRole: {}, latencyMs: 10, durationMs: 100, codeErrors: 0, archMetrics: { replans: seed % 2 }, labels: labels.map((l) => ({ label: l, evidence: '', source: 'auto' as const })) };
}

test('the matrix: Wilson per cell, McNemar and Fisher against the baseline, label counts, Markdown', () => {
  const records: EpisodeRecord[] = [];
  for (let s = 0; s < 20; s++) {
    records.push(rec('a', s, s < 18, s < 18 ? [] : ['name_error']));
    records.push(rec('b', s, s < 6, s < 6 ? [] : s % 2 ? ['premature_completion'] : ['name_error', 'collision']));
  }
  const m = buildMatrix(records, { tasks: ['stack_blocks'], cells: ['a', 'b'], baseline: 'a' });
  const [a, b] = m.rows[0]!;
  assert.equal(a!.successes, 18);
  assert.equal(a!.vsBaseline, undefined);
  assert.equal(b!.vsBaseline!.onlyBaseline, 12);
  assert.equal(b!.vsBaseline!.onlyThis, 0);
  close(b!.vsBaseline!.mcnemarP, mcnemarExact(12, 0).p);
  close(b!.vsBaseline!.fisherP, fisherExact(6, 20, 18, 20));
  assert.equal(b!.vsBaseline!.significant, true);
  assert.equal(b!.vsBaseline!.direction, 'worse');
  assert.deepEqual(m.labelTotals.name_error, { a: 2, b: 7 });
  assert.equal(m.labelTotals.premature_completion!.b, 7);
  assert.equal(b!.archMetrics.replans!.mean, 0.5);
  const md = matrixMarkdown(m, { title: 'test', model: { name: 'reference-flawed' } });
  // Both tests the docs promise, in the cell: McNemar on the paired seeds, Fisher's exact on all episodes.
  assert.match(md, /\| stack_blocks \| 18\/20 90% \[70%, 97%\] \| 6\/20 30% \[15%, 52%\] · McNemar p=<0.001 \(12↔0 discordant\) · Fisher p=<0.001 \*\*worse\*\* \|/);
  // The model is named, and a reference model's rates are called a fixture, not results about language models.
  assert.match(md, /^### test\n\nmodel: reference-flawed \(scripted, not an LLM; seeded mistakes\)\. Its rates are a fixture of a scripted policy for exercising the tool, not results about language models\./);
  assert.match(matrixMarkdown(m, { model: { name: 'openai:gpt-4o-mini', baseUrl: 'http://127.0.0.1:11434/v1' } }), /^model: openai:gpt-4o-mini at http:\/\/127\.0\.0\.1:11434\/v1\n/);
  assert.doesNotMatch(matrixMarkdown(m, { model: { name: 'openai:gpt-4o-mini' } }), /fixture/);
  // Each column's prompt version is in its header.
  assert.match(matrixMarkdown(buildMatrix(records, { tasks: ['stack_blocks'], cells: ['a', 'b'], baseline: 'a', promptVersions: { a: '0123456789ab', b: 'ba9876543210' } })), /\| task \| a \(baseline\) · prompts 0123456789ab \| b · prompts ba9876543210 \|/);
  assert.match(md, /\| name_error \| 2 \| 7 \|/);
  assert.match(md, /\| stack_blocks \/ b \| 0\.50 \(0\.51\) \|/, 'the architecture\'s own metrics, mean (sd)');
  // Hand labels replace the automatic ones of that episode.
  const m2 = buildMatrix(records, { tasks: ['stack_blocks'], cells: ['a', 'b'], baseline: 'a', manualLabels: { 'a-18': [{ label: 'drop', evidence: 'seen in the video', source: 'manual' }] } });
  assert.equal(m2.labelTotals.drop!.a, 1);
  assert.equal(m2.labelTotals.name_error!.a, 1);
});

test('significance comes from the paired test when seeds pair, from Fisher\'s exact test only when none do', () => {
  // 20 seeds: the baseline solves 0-9, the other column solves 0-15. Six discordant pairs, all one way: McNemar
  // p = 2 / 2^6 = 0.031 (significant at 0.05); Fisher on 10/20 vs 16/20 is not (p ~ 0.1). Pairing decides.
  const paired: EpisodeRecord[] = [];
  for (let s = 0; s < 20; s++) paired.push(rec('a', s, s < 10), rec('b', s, s < 16));
  const v = buildMatrix(paired, { tasks: ['stack_blocks'], cells: ['a', 'b'], baseline: 'a' }).rows[0]![1]!.vsBaseline!;
  assert.deepEqual([v.pairs, v.onlyBaseline, v.onlyThis], [20, 0, 6]);
  close(v.mcnemarP, 2 / 64);
  assert.ok(v.fisherP > 0.05, `Fisher p ${v.fisherP}`);
  assert.deepEqual([v.significant, v.direction], [true, 'better']);
  // The same successes on seeds that do not pair (b ran seeds 100-119): only Fisher's test is left, not significant.
  const unpaired = [...paired.filter((r) => r.cell === 'a'), ...paired.filter((r) => r.cell === 'b').map((r) => ({ ...r, seed: r.seed + 100, key: `b-${r.seed + 100}` }))];
  const u = buildMatrix(unpaired, { tasks: ['stack_blocks'], cells: ['a', 'b'], baseline: 'a' }).rows[0]![1]!.vsBaseline!;
  assert.equal(u.pairs, 0);
  close(u.fisherP, v.fisherP);
  assert.equal(u.significant, false);
});

const ctx = { io: nodeIO, architectures, workspace: '/nonexistent-ws', builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), file: 'bad.yaml' };
const Y = (variants: string, tasks = '[stack_blocks]') => `arch: malmm\ntasks: ${tasks}\nvariants: ${variants}\nseeds: 2\n`;

test('a sweep file with an unknown task, variant or ablation fails up front, naming it, its line and the valid choices', async () => {
  await assert.rejects(planSweep(parseSweepSpec(Y('[malmm]', '[stack_blockz]'), 'bad.yaml'), ctx), /^SweepSpecError: bad.yaml:2: tasks\[0\]: unknown task 'stack_blockz' \(did you mean 'stack_blocks'\?\); malmm's tasks on waypoint-tabletop: stack_blocks, /);
  await assert.rejects(planSweep(parseSweepSpec(Y('[malmm, mystery]'), 'bad.yaml'), ctx), /bad.yaml:3: variants\[1\]: unknown variant 'mystery'/);
  await assert.rejects(planSweep(parseSweepSpec(Y('[{variant: malmm, ablations: {coder.no_such_rule: false}}]'), 'bad.yaml'), ctx), /bad.yaml:3: variants\[0\]: ablation 'coder.no_such_rule' is not in the prompts malmm\/malmm runs/);
  // An ablation of a prompt the variant's topology does not run is refused as `waypoint run` refuses it.
  await assert.rejects(planSweep(parseSweepSpec(Y('[{variant: sa, ablations: {coder.define_in_same_block: false}}]'), 'bad.yaml'), ctx), /variants\[0\]: ablation 'coder.define_in_same_block' is not in the prompts malmm\/sa runs/);
  // MALMM's code-level ablations (switched in the loop, not in a prompt) and the waypoint variant are known.
  const plan = await planSweep(parseSweepSpec(Y('[waypoint, {variant: malmm, name: header, ablations: {executor.state_header: true}}]'), 'ok.yaml'), ctx);
  assert.deepEqual(plan.cells.map((c) => c.name), ['waypoint', 'header']);
  await assert.rejects(planSweep(parseSweepSpec('arch: mallm\ntasks: [a]\nvariants: [b]\nseeds: 1\n', 'bad.yaml'), ctx), /bad.yaml:1: unknown architecture 'mallm' \(did you mean 'malmm'\?\)/);
  // Limits by their declared names, with the line of the misspelt one (issue 22: `maxTurn` gave a 0 % matrix).
  await assert.rejects(planSweep(parseSweepSpec(Y('[sa]') + 'limits:\n  maxTurns: 10\n  maxTurn: 10\n', 'bad.yaml'), ctx), /^SweepSpecError: bad.yaml:7: limits.maxTurn: unknown limit 'maxTurn' for malmm \(did you mean 'maxTurns'\?\); its limits: maxTurns, maxConsecutiveErrors, maxWallSecs, maxSimSecs$/);
  await assert.rejects(planSweep(parseSweepSpec(Y('[sa]') + 'limits: {maxTurns: 0}\n', 'bad.yaml'), ctx), /bad.yaml:5: limits.maxTurns: limit maxTurns of malmm must be an integer >= 1/);
  // Tasks of every architecture's simulator: LLaMAR's household tasks, and a tabletop task RoCo cannot run.
  const llamar = await planSweep(parseSweepSpec('arch: llamar\ntasks: [put_bread_lettuce_tomato_fridge, put_bread_lettuce_tomato_fridge@apartment]\nvariants: [default]\nseeds: 1\n', 'l.yaml'), ctx);
  assert.deepEqual(llamar.episodes.map((e) => e.task), ['put_bread_lettuce_tomato_fridge', 'put_bread_lettuce_tomato_fridge@apartment']);
  assert.equal(llamar.simulator?.name, 'waypoint-household');
  await assert.rejects(planSweep(parseSweepSpec('arch: llamar\ntasks: [stack_blocks]\nvariants: [default]\nseeds: 1\n', 'l.yaml'), ctx), /l.yaml:2: tasks\[0\]: unknown task 'stack_blocks'; llamar's tasks on waypoint-household: 1_put_bread_lettuce_tomato_fridge, .*\bput_bread_lettuce_tomato_fridge, /);
  await assert.rejects(planSweep(parseSweepSpec('arch: roco\ntasks: [sort_cubes, stack_blocks]\nvariants: [dialog]\nseeds: 1\n', 'r.yaml'), ctx), /r.yaml:2: tasks\[1\]: task 'stack_blocks' \(1 arm\) works with the robot API malmm, not roco's 'roco'; roco's tasks on waypoint-tabletop: sort_cubes, pack_grocery, make_sandwich, move_rope, sweep_floor, arrange_cabinet, handover$/);
  // Unknown keys, anywhere: the key, its line, the valid keys and the near one.
  assert.throws(() => parseSweepSpec('arch: malmm\ntasks: [stack_blocks]\nvariant: [malmm]\nseeds: 2\n', 'bad.yaml'), /^SweepSpecError: bad.yaml:3: unknown key 'variant' \(did you mean 'variants'\?\); valid keys: name, arch, tasks, variants, seeds, repeats, model, limits, vision, concurrency, workers, cache, budget, rateLimit, prices, baseline, paper$/);
  assert.throws(() => parseSweepSpec('arch: malmm\ntasks: [stack_blocks]\nvariants: [malmm]\nseeds: 2\nconcurency: 2\n', 'bad.yaml'), /bad.yaml:5: unknown key 'concurency' \(did you mean 'concurrency'\?\)/);
  assert.throws(() => parseSweepSpec('arch: malmm\ntasks: [stack_blocks]\nvariants: [malmm]\nseeds: 2\nmodel:\n  name: reference\n  temprature: 1\n', 'bad.yaml'), /bad.yaml:7: unknown key 'temprature' in model \(did you mean 'temperature'\?\); valid keys: name, baseUrl, apiKeyEnv, temperature, maxTokens, maxTokensField, seed, embeddingModel, embeddingBaseUrl$/);
  assert.throws(() => parseSweepSpec('arch: malmm\ntasks: [stack_blocks]\nvariants:\n  - malmm\n  - {name: x, variantt: sa}\nseeds: 2\n', 'bad.yaml'), /bad.yaml:5: unknown key 'variantt' in variants\[1\] \(did you mean 'variant'\?\); valid keys: name, variant, ablations$/);
  assert.throws(() => parseSweepSpec('arch: malmm\ntasks: [stack_blocks]\nseeds: 2\n', 'bad.yaml'), /bad.yaml:1: variants: missing \(required\)/);
  assert.throws(() => parseSweepSpec('arch: malmm\ntasks: [stack_blocks]\nvariants: [malmm]\nseeds: -3\n', 'bad.yaml'), /bad.yaml:4: seeds/);
  assert.throws(() => parseSweepSpec('arch: malmm\ntasks: [stack_blocks\n', 'bad.yaml'), /bad.yaml:\d+:/);
});

test('shards: i/n, env/n from JOB_COMPLETION_INDEX, round-robin slices that cover every episode once', () => {
  assert.deepEqual(parseShard('1/3'), { index: 1, count: 3 });
  assert.deepEqual(parseShard('env/4', { JOB_COMPLETION_INDEX: '2' }), { index: 2, count: 4 });
  assert.throws(() => parseShard('env/4', {}), /JOB_COMPLETION_INDEX/);
  assert.throws(() => parseShard('3/3'), /0\.\.2/);
  const eps = Array.from({ length: 7 }, (_, i) => ({ key: `k${i}`, task: 't', cell: 'c', variant: 'v', ablations: {}, seed: i, repeat: 0 }));
  const parts = [0, 1, 2].map((index) => shardOf(eps, { index, count: 3 }).map((e) => e.key));
  assert.deepEqual(parts.flat().sort(), eps.map((e) => e.key).sort());
  assert.deepEqual(parts.map((p) => p.length), [3, 2, 2]);
});

test('tokens and cost per role, per episode and per cell, by the price table', () => {
  const ev = (e: Record<string, unknown>) => e as unknown as TraceEvent;
  const resp = (turn: number, role: string, p: number, c: number, cached = false) => ev({ type: 'model_response', turn, callId: `${role}${turn}`, role, ok: true, text: 'x', usage: { promptTokens: p, completionTokens: c }, latencyMs: 5, cached, attempts: 1 });
  const events = [
    ev({ type: 'episode_start', model: { provider: 'openai', model: 'gpt-4o-mini', label: 'gpt-4o-mini' } }),
    resp(1, 'planner', 1000, 200),
    resp(2, 'coder', 3000, 500),
    resp(3, 'coder', 2000, 300, true),
    ev({ type: 'episode_end', success: true, reason: 'task_completed', agentClaimedDone: true, metrics: { turns: 3, modelCalls: 3, cachedCalls: 1, promptTokens: 6000, completionTokens: 1000, durationMs: 10 } }),
  ];
  const prices = { 'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 } };
  const ep = { key: 'k', task: 't', cell: 'c', variant: 'malmm', ablations: {}, seed: 0, repeat: 0 };
  const r = recordFromTrace(ep, 'k', 'p', events, prices);
  close(r.cost, (6000 * 0.15 + 1000 * 0.6) / 1e6, 1e-12);
  assert.deepEqual(Object.keys(r.callsByRole), ['planner', 'coder']);
  assert.equal(r.callsByRole.coder!.calls, 2);
  assert.equal(r.callsByRole.coder!.uncached, 1);
  assert.equal(r.callsByRole.coder!.tokens, 5800);
  close(r.callsByRole.coder!.cost!, (5000 * 0.15 + 800 * 0.6) / 1e6, 1e-12);
  close(r.callsByRole.planner!.cost!, (1000 * 0.15 + 200 * 0.6) / 1e6, 1e-12);
  // A model without a price costs nothing (the reference model is free).
  assert.equal(recordFromTrace(ep, 'k', 'p', events, {}).callsByRole.coder!.cost, 0);
  // Per cell: mean per episode; a role silent in an episode counts 0 there.
  const r2 = { ...recordFromTrace({ ...ep, key: 'k2', seed: 1 }, 'k2', 'p', events.filter((e) => (e as { role?: string }).role !== 'planner'), prices) };
  const m = buildMatrix([r, r2], { tasks: ['t'], cells: ['c'], baseline: 'c' });
  const roles = m.rows[0]![0]!.roles;
  assert.equal(roles.planner!.calls.mean, 0.5);
  close(roles.planner!.cost.mean!, r.callsByRole.planner!.cost! / 2, 1e-12);
  assert.equal(roles.coder!.tokens.mean, 5800);
  assert.match(matrixMarkdown(m), /\| t \/ c \| coder \| 2\.0 \| 5800 \| 0\.0025 \|/);
});

test('the episode key changes with each thing that makes an episode what it is, and never with the API key', () => {
  const base: EpisodeKeyParts = {
    sweep: 's',
    arch: 'malmm',
    task: 'stack_blocks',
    seed: 0,
    repeat: 0,
    cell: 'sa',
    variant: 'sa',
    resolved: { prompt: { agent: 'sa', prompts: { agent: 'a'.repeat(64) }, ablations: {} }, limits: { maxTurns: 150, maxConsecutiveErrors: 5 } },
    model: { kind: 'openai', model: 'm', baseUrl: 'http://x/v1', apiKey: 'secret-1' },
    simulator: { spec: 'embedded', name: 'waypoint-tabletop', version: 'mujoco-js 0.0.7' },
  };
  const k = episodeKey(base);
  assert.equal(episodeIdentity(base).engine, ENGINE_BEHAVIOUR_VERSION);
  assert.doesNotMatch(canonicalJson(episodeIdentity(base)), /secret-1/);
  assert.equal(episodeKey({ ...base, model: { ...base.model, apiKey: 'secret-2' } as never }), k, 'the API key is not part of the episode');
  const variations: Partial<EpisodeKeyParts>[] = [
    { sweep: 't' },
    { task: 'stack_blocks_2' },
    { seed: 1 },
    { repeat: 1 },
    { variant: 'ma' },
    { resolved: { ...base.resolved, prompt: { ...base.resolved.prompt, prompts: { agent: 'b'.repeat(64) } } } },
    { resolved: { ...base.resolved, prompt: { ...base.resolved.prompt, ablations: { 'sa.step_feedback': false } } } },
    { resolved: { ...base.resolved, limits: { maxTurns: 30, maxConsecutiveErrors: 5 } } },
    { resolved: { ...base.resolved, agents: 3 } },
    { model: { kind: 'openai', model: 'm', baseUrl: 'http://x/v1', temperature: 0.7 } },
    { simulator: { spec: 'embedded', name: 'waypoint-tabletop', version: 'mujoco-js 0.0.8' } },
    { simulator: { spec: 'ws://127.0.0.1:8765', name: 'waypoint-tabletop', version: 'mujoco-js 0.0.7' } },
  ];
  for (const v of variations) assert.notEqual(episodeKey({ ...base, ...v }).slice(-10), k.slice(-10), JSON.stringify(v));
  assert.match(k, /^s-stack_blocks-sa-s0-r0-[0-9a-f]{10}$/);
});

// Whole runs through the product path: MuJoCo tabletop, Pyodide sandbox, the reference model over HTTP via the
// openai SDK, the JSONL trace on disk.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, cpSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import { launchRun, type LaunchOptions } from '../../../../src/core/runs/launch.js';
import { listRuns } from '../../../../src/core/runs/runStore.js';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import { endedBeforeStart } from '../../../../src/core/trace/projections/runSummary.js';
import { readTrace } from '../../../../src/core/trace/reader.js';
import type { TraceEvent } from '../../../../src/protocol/trace.js';

const workspace = mkdtempSync(join(tmpdir(), 'waypoint-launch-'));
after(() => rmSync(workspace, { recursive: true, force: true }));

const deps = { io: nodeIO, clock: nodeClock, architectures, createSimulator: () => createTabletopSimulator(), createSandbox: () => createPyodideSandbox() };
const base = (o: Partial<LaunchOptions> = {}): LaunchOptions => ({
  workspace,
  arch: 'malmm',
  task: 'stack_blocks',
  seed: 0,
  builtInPromptRoot: join(process.cwd(), 'src', 'architectures'),
  model: { kind: 'reference' },
  ...o,
});
const events = (path: string) => readTrace(readFileSync(path, 'utf8'));
const last = <T extends TraceEvent['type']>(evs: TraceEvent[], type: T) => evs.filter((e): e is Extract<TraceEvent, { type: T }> => e.type === type).at(-1);

test('MALMM solves stack_blocks with the reference model through the local OpenAI-compatible endpoint', async () => {
  const r = await launchRun(base(), deps);
  assert.equal(r.reason, 'task_completed');
  assert.equal(r.success, true);
  const { events: evs, warnings } = events(r.tracePath);
  assert.deepEqual(warnings, []);
  const start = evs[0];
  assert.equal(start.type, 'episode_start');
  assert.equal(start.type === 'episode_start' && start.model.label, 'reference (scripted, not an LLM)');
  assert.match(start.type === 'episode_start' ? start.model.baseUrl ?? '' : '', /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  assert.equal(start.type === 'episode_start' && start.prompts.length, 3);
  assert.ok(evs.some((e) => e.type === 'scene'));
  assert.ok(evs.some((e) => e.type === 'trajectory' && e.samples.length > 10));
  // Every motion carries its motion scores (M_I, M_E, M_T) into the trace.
  const moves = evs.flatMap((e) => (e.type === 'code_execution' ? e.apiCalls : [])).filter((c) => c.fn === 'execute_trajectory');
  assert.ok(moves.length >= 8 && moves.every((c) => c.metrics && c.metrics.mT === c.metrics.mI + c.metrics.mE && c.metrics.mI > 0));
  assert.equal(last(evs, 'check')?.name, 'task_success');
  assert.equal(last(evs, 'check')?.ok, true);
  const runs = await listRuns(nodeIO, workspace);
  assert.equal(runs[0].runId, r.runId);
  assert.equal(runs[0].success, true);
});

test('determinism: same seed and same responses give final object positions equal to 1e-9', async () => {
  const a = await launchRun(base({ seed: 3 }), deps);
  const b = await launchRun(base({ seed: 3 }), deps);
  const fa = last(events(a.tracePath).events, 'episode_end')!.finalState!;
  const fb = last(events(b.tracePath).events, 'episode_end')!.finalState!;
  assert.equal(fa.objects.length, fb.objects.length);
  for (let i = 0; i < fa.objects.length; i++) {
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(fa.objects[i].pos[k] - fb.objects[i].pos[k]) <= 1e-9, `${fa.objects[i].name} axis ${k}`);
  }
  // And the two runs exchanged the same messages with the model.
  const calls = (p: string) => events(p).events.filter((e) => e.type === 'role_call').map((e) => (e.type === 'role_call' ? e.messages : []));
  assert.deepEqual(calls(a.tracePath), calls(b.tracePath));
});

test('the SA and MA baselines also run on the real simulator', async () => {
  for (const variant of ['sa', 'ma']) {
    const r = await launchRun(base({ variant, seed: 1 }), deps);
    assert.equal(r.success, true, `${variant}: ${r.reason} ${r.message ?? ''}`);
  }
});

test('an unknown architecture, variant or task leaves a trace saying why, marked not started, and never a success', async () => {
  const r = await launchRun(base({ arch: 'voxposer' }), deps);
  assert.equal(r.reason, 'invalid_input');
  assert.match(r.message ?? '', /unknown architecture 'voxposer'; known: .*\bmalmm\b/);
  const evs = events(r.tracePath).events;
  assert.deepEqual(evs.map((e) => e.type), ['episode_start', 'error', 'episode_end']);
  assert.equal(endedBeforeStart(r.end), true);
  const v = await launchRun(base({ variant: 'nope' }), deps);
  assert.match(v.message ?? '', /unknown variant 'nope'/);
  // The task is checked against the simulator before the episode: no reset, no scene, no success check.
  const t = await launchRun(base({ task: 'stack_block' }), deps);
  assert.equal(t.reason, 'invalid_input');
  assert.match(t.message ?? '', /unknown task 'stack_block' \(did you mean 'stack_blocks'\?\); malmm's tasks on waypoint-tabletop: stack_blocks, /);
  assert.deepEqual(events(t.tracePath).events.map((e) => e.type), ['episode_start', 'error', 'episode_end']);
  const listed = (await listRuns(nodeIO, workspace)).find((x) => x.runId === t.runId);
  assert.equal(listed?.notStarted, true);
});

test('silent fallbacks are refused before the run starts, naming the valid choices', async () => {
  // A prompt folder that does not exist (it used to fall back to the built-in prompts without a word).
  const missing = await launchRun(base({ promptDir: join(workspace, 'no-such-folder') }), deps);
  assert.equal(missing.reason, 'invalid_input');
  assert.match(missing.message ?? '', /prompt folder .*no-such-folder does not exist \(it should hold malmm's supervisor\.prompt, planner\.prompt, coder\.prompt, sa\.prompt\)/);
  // A folder without any of the architecture's prompt files.
  const empty = join(workspace, 'empty-prompts');
  mkdirSync(empty, { recursive: true });
  writeFileSync(join(empty, 'notes.txt'), 'not a prompt');
  assert.match((await launchRun(base({ promptDir: empty }), deps)).message ?? '', /has none of malmm's prompt files/);
  // A variant whose `off:` names an ablation id no prompt of its topology has.
  const ws = mkdtempSync(join(tmpdir(), 'waypoint-variants-'));
  try {
    mkdirSync(join(ws, '.waypoint'));
    writeFileSync(join(ws, '.waypoint', 'variants.yaml'), 'variants:\n  typo:\n    off: [planner.replan_chek]\n  sa_planner:\n    agent: sa\n    off: [planner.replan_check]\n');
    const typo = await launchRun(base({ workspace: ws, variant: 'typo' }), deps);
    assert.equal(typo.reason, 'invalid_input');
    assert.match(typo.message ?? '', /variant 'typo' switches ablation 'planner\.replan_chek', which is not in the prompts malmm\/malmm runs .*; ids there: .*planner\.replan_check/);
    const sa = await launchRun(base({ workspace: ws, variant: 'sa_planner' }), deps);
    assert.match(sa.message ?? '', /variant 'sa_planner' switches ablation 'planner\.replan_check', which is not in the prompts malmm\/sa runs \(sa\.prompt\)/);
    for (const r of [typo, sa]) assert.equal(events(r.tracePath).events.filter((e) => e.type === 'role_call').length, 0);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test('an unreachable endpoint ends the run with a model_error naming the endpoint', async () => {
  // A port that was free a moment ago: nothing listens there.
  const port = await new Promise<number>((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => res(p));
    });
  });
  const r = await launchRun(base({ model: { kind: 'openai', model: 'gpt-x', baseUrl: `http://127.0.0.1:${port}/v1` }, maxModelAttempts: 5 }), deps);
  assert.equal(r.reason, 'model_error');
  assert.equal(r.success, false);
  assert.match(r.message ?? '', new RegExp(`127\\.0\\.0\\.1:${port}`));
  assert.match(r.message ?? '', /network\): connection to .* refused: nothing is listening on that port/);
  const mr = last(events(r.tracePath).events, 'model_response');
  assert.equal(mr?.ok, false);
  // Nothing listens on a loopback port: retrying would only make the user wait.
  assert.equal(mr?.attempts, 1);
});

test('a broken workspace prompt: the run refuses with file and line, before any model call', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'waypoint-badprompt-'));
  try {
    mkdirSync(join(ws, 'prompts'), { recursive: true });
    cpSync(join(process.cwd(), 'src', 'architectures', 'malmm', 'prompts'), join(ws, 'prompts', 'malmm'), { recursive: true });
    const coder = join(ws, 'prompts', 'malmm', 'coder.prompt');
    writeFileSync(coder, readFileSync(coder, 'utf8').replace('{{/ablation}}\n\nCODE GENERATION:', '\nCODE GENERATION:'));
    const r = await launchRun(base({ workspace: ws }), deps);
    assert.equal(r.reason, 'prompt_error');
    const err = last(events(r.tracePath).events, 'error')!;
    assert.equal(err.file, coder);
    // The line that opened the unclosed block, and its id; the path is in `file`, not repeated in the message.
    const opened = readFileSync(coder, 'utf8').split('\n').findIndex((l) => l.includes('{{#ablation "coder.stop_after_each_call"')) + 1;
    assert.equal(err.line, opened);
    assert.equal(err.message, 'unclosed {{#ablation "coder.stop_after_each_call"}} block: no {{/ablation}} closes it');
    assert.equal(r.message, `${err.message} (${coder}:${opened})`);
    assert.equal(events(r.tracePath).events.filter((e) => e.type === 'role_call').length, 0);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test('a workspace prompt override (prompts/malmm/) with a misspelt variable is refused at preflight with file and line, even without waypoint keys', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'waypoint-typoprompt-'));
  try {
    mkdirSync(join(ws, 'prompts'), { recursive: true });
    cpSync(join(process.cwd(), 'src', 'architectures', 'malmm', 'prompts'), join(ws, 'prompts', 'malmm'), { recursive: true });
    const planner = join(ws, 'prompts', 'malmm', 'planner.prompt');
    // The role comes from the file the run uses for it, not from the front matter: drop the waypoint keys.
    const text = readFileSync(planner, 'utf8').replace('{{axes}}', '{{axess}}').replace(/^waypoint\.(arch|role): .*\n/gm, '');
    writeFileSync(planner, text);
    const r = await launchRun(base({ workspace: ws }), deps);
    assert.equal(r.reason, 'prompt_error');
    const evs = events(r.tracePath).events;
    const err = last(evs, 'error')!;
    assert.equal(err.file, planner);
    assert.equal(err.line, text.split('\n').findIndex((l) => l.includes('{{axess}}')) + 1);
    assert.match(err.message, /^Undefined variable 'axess' \(did you mean 'axes'\?\): malmm's planner prompt is given task, table_top_z, x_range, y_range, axes; 'axess' would render empty$/);
    assert.equal(evs.filter((e) => e.type === 'role_call').length, 0);
    assert.ok(endedBeforeStart(last(evs, 'episode_end')!), 'marked not started');
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test('a model seed reaches the reference model: every request carries it and the trace records it', async () => {
  const seeds: (number | undefined)[] = [];
  const r = await launchRun(base({ model: { kind: 'reference', profile: 'reference-flawed', seed: 7 }, limits: { maxTurns: 6 } }), {
    ...deps,
    wrapModel: (c) => ({ id: c.id, complete: (req, o) => (seeds.push(req.seed), c.complete(req, o)) }),
  });
  assert.ok(seeds.length >= 2, `${seeds.length} model calls`);
  assert.ok(seeds.every((s) => s === 7), `request seeds ${seeds.join(',')}`);
  assert.ok(readTrace(readFileSync(r.tracePath, 'utf8')).events.filter((e) => e.type === 'role_call').length >= 2, 'role calls in the trace');
  const evs = events(r.tracePath).events;
  const start = evs[0];
  assert.equal(start.type === 'episode_start' && start.model.seed, 7);
  assert.ok(evs.filter((e) => e.type === 'role_call').every((e) => e.type === 'role_call' && e.params?.seed === 7));
});

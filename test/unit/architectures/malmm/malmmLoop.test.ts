// The MALMM loop end to end through the engine, with the real Pyodide sandbox, scripted model answers and a
// small fake simulator (the MuJoCo runs are in test/unit/core/runs/).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { EpisodeController } from '../../../../src/core/engine/controller.js';
import { DEFAULT_EPISODE_OPTIONS, runEpisode, type EpisodeSpec } from '../../../../src/core/engine/episode.js';
import type { ModelClient } from '../../../../src/core/llm/client.js';
import { ReplayClient } from '../../../../src/core/llm/replay.js';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import { resolveVariant } from '../../../../src/core/prompt/variants.js';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import type { CodeSandbox } from '../../../../src/core/sandbox/sandbox.js';
import { MemoryTraceSink } from '../../../../src/core/trace/writer.js';
import type { TraceEvent } from '../../../../src/protocol/trace.js';
import { FakeSim } from '../../core/engine/helpers/fakeSim.js';
import { MemoryHost } from '../../core/llm/helpers/memoryHost.js';

const clock = { nowMs: () => performance.now(), isoNow: () => '2026-11-21T00:00:00.000Z' };
const arch = architectures.get('malmm');
const promptPaths = Object.fromEntries(arch.roles.map((r) => [r.id, join(process.cwd(), 'src', 'architectures', 'malmm', 'prompts', r.promptFile)]));
let sandbox: CodeSandbox;

before(async () => {
  sandbox = createPyodideSandbox();
  await sandbox.warmUp();
});
after(async () => {
  await sandbox.close();
});

function spec(variant: string, overrides: Partial<EpisodeSpec> = {}): EpisodeSpec {
  return {
    runId: 'test',
    arch,
    task: 'fake_stack',
    seed: 0,
    variant: resolveVariant(variant, { active: 'default', variants: {} }, arch.builtInVariants),
    promptPaths,
    options: { ...DEFAULT_EPISODE_OPTIONS, limits: { maxTurns: 40 } },
    model: { provider: 'replay', model: 'replay', label: 'replay' },
    ...overrides,
  };
}

async function run(s: EpisodeSpec, model: ModelClient, sim = new FakeSim(), io = nodeIO) {
  const sink = new MemoryTraceSink();
  const result = await runEpisode(s, { io, clock, sim, sandbox, model, sink, controller: new EpisodeController() });
  return { result, events: sink.events, sim };
}

const of = <T extends TraceEvent['type']>(events: TraceEvent[], type: T) => events.filter((e): e is Extract<TraceEvent, { type: T }> => e.type === type);
const py = (code: string) => '```python\n' + code + '\n```';

test('MALMM: block 1 raises NameError, the Supervisor sends the Coder back, block 2 fixes it, task_completed ends it', async () => {
  const model = new ReplayClient({
    'malmm/supervisor': ['Next speaker: Planner', 'Next speaker: Coder', 'Next speaker: Executor', 'Next speaker: Coder', 'Next speaker: Executor', 'Next speaker: Coder', 'Next speaker: Executor'],
    'malmm/planner': ['Step 1: move above the red block.'],
    'malmm/coder': [py('execute_trajectory(position, 0.0)'), py('position = [0.1, 0.2, 0.875]\nexecute_trajectory(position, 0.0)'), py('task_completed()')],
  });
  const sim = new FakeSim();
  sim.success = true;
  const { result, events } = await run(spec('default'), model, sim);
  assert.equal(result.reason, 'task_completed');
  assert.equal(result.success, true);
  const execs = of(events, 'code_execution');
  assert.equal(execs.length, 3);
  assert.equal(execs[0].ok, false);
  assert.equal(execs[0].error?.type, 'NameError');
  assert.equal(execs[0].error?.line, 1);
  assert.match(execs[0].error?.message ?? '', /position/);
  assert.equal(execs[1].ok, true);
  assert.deepEqual(sim.calls, [{ fn: 'execute_trajectory', args: [[0.1, 0.2, 0.875], 0] }]);
  // The failed block's error goes back into the chat, and the routing that followed it is recorded.
  const executorMsgs = of(events, 'chat_message').filter((m) => m.speaker === 'Executor');
  // The paper's failed reply: the error message alone, no state (Figs. 30-31).
  assert.equal(executorMsgs[0].content, "exitcode: 1 (execution failed)\nCode output:\nError: name 'position' is not defined");
  assert.match(executorMsgs[1].content, /^exitcode: 0 \(execution succeeded\)/);
  const routes = of(events, 'parsed_output').filter((p) => p.kind === 'route').map((p) => p.value);
  assert.deepEqual(routes, ['Planner', 'Coder', 'Executor', 'Coder', 'Executor', 'Coder', 'Executor']);
  // The Coder's second call saw the executor's NameError in its messages.
  const coderCalls = of(events, 'role_call').filter((c) => c.role === 'coder');
  assert.match(coderCalls[1].messages.map((m) => m.content).join('\n'), /name 'position' is not defined/);
  assert.equal(of(events, 'trajectory').length, 1);
  const end = of(events, 'episode_end')[0];
  assert.equal(end.metrics.codeErrors, 1);
  assert.equal(end.agentClaimedDone, true);
});

// The paper's log shows NameErrors for names an earlier block defined: MALMM's blocks each start fresh, while
// trajgen (App. F) shares one namespace per episode (test/unit/architectures/trajgen/trajgenLoop.test.ts).
test('MALMM: a name the Coder defined in one block is undefined in the next (each block runs alone, as the paper)', async () => {
  const model = new ReplayClient({
    'malmm/supervisor': ['Next speaker: Coder', 'Next speaker: Executor', 'Next speaker: Coder', 'Next speaker: Executor', 'Next speaker: Coder', 'Next speaker: Executor'],
    'malmm/coder': [py('position = [0.1, 0.2, 0.875]\nexecute_trajectory(position, 0.0)'), py('execute_trajectory(position, 0.0)'), py('task_completed()')],
  });
  const { events } = await run(spec('default'), model, new FakeSim());
  const execs = of(events, 'code_execution');
  assert.equal(execs[0].ok, true);
  assert.equal(execs[1].ok, false);
  assert.equal(execs[1].error?.type, 'NameError');
  assert.equal(execs[1].namespacePersisted, false);
  assert.equal(of(events, 'episode_start')[0].options.persistNamespace, false);
});

test('success is the simulator verdict: task_completed() on an unsolved scene is a failure', async () => {
  const model = new ReplayClient({ 'malmm/supervisor': ['Next speaker: Coder', 'Next speaker: Executor'], 'malmm/coder': [py('task_completed()')] });
  const { result, events } = await run(spec('default'), model);
  assert.equal(result.reason, 'task_completed');
  assert.equal(result.success, false);
  assert.equal(of(events, 'episode_end')[0].agentClaimedDone, true);
});

test('MA: fixed Planner -> Coder -> Executor cycle, no Supervisor call', async () => {
  const model = new ReplayClient({
    'malmm/planner': ['Step 1: go up.', 'Step 1 worked. Now finish.'],
    'malmm/coder': [py('execute_trajectory([0.0, 0.1, 0.9], 0.5)'), py('task_completed()')],
  });
  const { result, events } = await run(spec('ma'), model);
  assert.equal(result.reason, 'task_completed');
  assert.deepEqual(of(events, 'role_call').map((c) => c.role), ['planner', 'coder', 'planner', 'coder']);
  assert.equal(of(events, 'episode_start')[0].agentVariant, 'ma');
});

test('SA: one agent plans and codes; SA without feedback runs once and stops', async () => {
  const sa = await run(spec('sa'), new ReplayClient({ 'malmm/agent': ['Plan: go.\n' + py('execute_trajectory([0.0, 0.1, 0.9], 0.0)'), py('task_completed()')] }));
  assert.deepEqual(of(sa.events, 'role_call').map((c) => c.role), ['agent', 'agent']);
  assert.equal(sa.result.reason, 'task_completed');
  // The SA prompt kept its per-step feedback section, and SA gets no opening chat message (no Supervisor): its own
  // prompt ends with the task and the state, as the paper's Fig. 6 does.
  assert.match(of(sa.events, 'role_call')[0].messages[0].content, /<CURRENT ENVIRONMENT STATE>:\nThis is the position, orientation and size of every object. It is printed again after every code block runs/);
  assert.deepEqual(of(sa.events, 'chat_message').map((m) => m.speaker), ['Agent', 'Executor', 'Agent', 'Executor']);
  assert.ok(!of(sa.events, 'role_call')[0].messages.some((m) => /^Supervisor:/.test(m.content)));

  const nofb = await run(spec('sa_nofeedback'), new ReplayClient({ 'malmm/agent': [py('execute_trajectory([0.0, 0.1, 0.9], 0.0)\nexecute_trajectory([0.0, 0.2, 0.9], 0.0)')] }));
  assert.equal(nofb.result.reason, 'single_pass_done');
  assert.equal(nofb.sim.calls.length, 2);
  const sys = of(nofb.events, 'role_call')[0].messages[0].content;
  assert.doesNotMatch(sys, /printed again after every code block/, 'the feedback section is ablated away');
  assert.doesNotMatch(sys, /five times in a row|stop and wait/, 'as SA_sequential: no five-error rule, no stop-after-each-call line');
  assert.match(sys, /all the steps in one/);
  assert.deepEqual(of(nofb.events, 'episode_start')[0].ablations, { 'sa.step_feedback': false, 'sa.step_by_step_code': false });
});

// The paper's five-error stop is the Coder's prompt rule; the loop's hard stop is the guard loop.consecutive_error_stop.
const withGuard = (variant: string): EpisodeSpec => {
  const s = spec(variant);
  return { ...s, variant: { ...s.variant, ablations: { ...s.variant.ablations, 'loop.consecutive_error_stop': true } } };
};

test('a reply with no code block is a recorded format error; with the guard on, five failures in a row end the episode', async () => {
  const model = new ReplayClient({ 'malmm/planner': ['plan', 'plan', 'plan', 'plan', 'plan'], 'malmm/coder': ['I would move the arm.', 'Sure!', 'ok', 'hmm', 'no'] });
  const { result, events } = await run(withGuard('ma'), model);
  assert.equal(result.reason, 'max_consecutive_errors');
  assert.equal(result.success, false);
  const fmt = of(events, 'parsed_output').filter((p) => !p.ok);
  assert.ok(fmt.length >= 2);
  assert.match(fmt[0].error ?? '', /no ```python code block/);
  assert.equal(of(events, 'episode_end')[0].metrics.formatErrors, fmt.length);
});

test('the paper default has no hard stop: failed blocks go on past five until the Coder gives up (its prompt rule) or the turn cap', async () => {
  const failing = Array.from({ length: 8 }, () => py('execute_trajectory(undefined_pose, 0.0)'));
  const model = new ReplayClient({ 'malmm/planner': Array.from({ length: 8 }, () => 'plan'), 'malmm/coder': [...failing.slice(0, 6), py('task_completed()')] });
  const { result, events } = await run(spec('ma'), model);
  assert.equal(result.reason, 'task_completed');
  assert.equal(of(events, 'code_execution').filter((e) => !e.ok).length, 6, 'six failed blocks in a row did not stop the episode');
  // With the guard on, the fifth ends it.
  const guarded = await run(withGuard('ma'), new ReplayClient({ 'malmm/planner': Array.from({ length: 8 }, () => 'plan'), 'malmm/coder': failing }));
  assert.equal(guarded.result.reason, 'max_consecutive_errors');
  assert.equal(of(guarded.events, 'code_execution').length, 5);
});

test('an API call with wrong arguments fails the block with a message naming the function', async () => {
  const model = new ReplayClient({ 'malmm/supervisor': ['Next speaker: Coder', 'Next speaker: Executor', 'Next speaker: Coder', 'Next speaker: Executor'], 'malmm/coder': [py('execute_trajectory([0.1, 0.2])'), py('task_completed()')] });
  const { events, sim } = await run(spec('default'), model);
  const exec = of(events, 'code_execution')[0];
  assert.equal(exec.ok, false);
  assert.equal(exec.error?.type, 'TypeError');
  assert.match(exec.error?.message ?? '', /execute_trajectory\(\)/);
  assert.deepEqual(sim.calls, [], 'nothing reached the simulator');
});

test('an unroutable Supervisor answer is a format error and falls back to the fixed cycle', async () => {
  const model = new ReplayClient({ 'malmm/supervisor': ['I am not sure.', 'Next speaker: Executor'], 'malmm/planner': ['plan'], 'malmm/coder': [py('task_completed()')] });
  const { events } = await run(spec('default'), model);
  const route = of(events, 'parsed_output').find((p) => p.kind === 'route');
  assert.equal(route?.ok, false);
  assert.match(route?.error ?? '', /falling back to Planner/);
});

test('turn cap ends the episode as turn_cap', async () => {
  const answers = Array.from({ length: 30 }, () => 'thinking');
  const { result } = await run(spec('ma', { options: { ...DEFAULT_EPISODE_OPTIONS, limits: { maxTurns: 4, maxConsecutiveErrors: 99 } } }), new ReplayClient({ 'malmm/planner': answers, 'malmm/coder': answers }));
  assert.equal(result.reason, 'turn_cap');
});

test('a broken prompt file stops before any model call, with file and line in the trace', async () => {
  const io = new MemoryHost();
  for (const [role, p] of Object.entries(promptPaths)) io.files.set(p, await nodeIO.readText(p));
  io.files.set(promptPaths.planner, io.files.get(promptPaths.planner)!.replace('  temperature: 0', '  temperature: 0\n  temperature: 1'));
  const model = new ReplayClient({});
  const { result, events } = await run(spec('default'), model, new FakeSim(), io);
  assert.equal(result.reason, 'prompt_error');
  const err = of(events, 'error')[0];
  assert.equal(err.file, promptPaths.planner);
  assert.equal(err.line, 4);
  assert.equal(of(events, 'role_call').length, 0);
  assert.equal(result.success, false);
});

/** The built-in MALMM prompts in memory, the planner's `{{axes}}` misspelt when `typo`. */
async function promptHost(typo: boolean): Promise<MemoryHost> {
  const io = new MemoryHost();
  for (const p of Object.values(promptPaths)) io.files.set(p, await nodeIO.readText(p));
  if (typo) io.files.set(promptPaths.planner, io.files.get(promptPaths.planner)!.replace('{{axes}}', '{{axess}}'));
  return io;
}
const axesLine = async () => (await nodeIO.readText(promptPaths.planner)).split('\n').findIndex((l) => l.includes('{{axes}}')) + 1;

test('the engine checks prompt variables itself (a fork that points a role at an edited copy skips preflight): {{axess}} stops before any model call', async () => {
  const { result, events } = await run(spec('default'), new ReplayClient({}), new FakeSim(), await promptHost(true));
  assert.equal(result.reason, 'prompt_error');
  const err = of(events, 'error')[0];
  assert.equal(err.file, promptPaths.planner);
  assert.equal(err.line, await axesLine());
  assert.match(err.message, /^Undefined variable 'axess' \(did you mean 'axes'\?\): malmm's planner prompt is given task, table_top_z, x_range, y_range, axes/);
  assert.equal(of(events, 'role_call').length, 0);
});

test('a prompt edited during a pause into an undefined variable is reported, and the call keeps the version read before', async () => {
  const io = await promptHost(false);
  const controller = new EpisodeController();
  const planner = { task: 'stack', table_top_z: '0.75', x_range: '[0, 1]', y_range: '[0, 1]', axes: 'AXES-TEXT' };
  const probe = {
    ...arch,
    async run(ctx: Parameters<typeof arch.run>[0]) {
      await ctx.callRole('planner', planner, []);
      io.files.set(promptPaths.planner, io.files.get(promptPaths.planner)!.replace('{{axes}}', '{{axess}}'));
      controller.markPromptsStale();
      await ctx.callRole('planner', planner, []);
      return { reason: 'task_completed' as const, agentClaimedDone: false };
    },
  };
  const sink = new MemoryTraceSink();
  await runEpisode(spec('default', { arch: probe }), { io, clock, sim: new FakeSim(), sandbox, model: new ReplayClient({ 'malmm/planner': ['one', 'two'] }), sink, controller });
  const calls = of(sink.events, 'role_call');
  assert.equal(calls.length, 2);
  assert.ok(calls.every((c) => c.messages.some((m) => m.content.includes('1. Axes: AXES-TEXT.'))), 'both calls rendered the axes');
  const err = of(sink.events, 'error').find((e) => e.kind === 'prompt_error')!;
  assert.match(err.message, /Undefined variable 'axess'.*; this call uses the version read before$/);
  assert.equal(err.line, await axesLine());
});

test("a loop that passes a role variables its manifest does not declare (or leaves a declared one out) ends as engine_error naming them", async () => {
  const planner = { task: 'stack', table_top_z: '0.75', x_range: '[0, 1]', y_range: '[0, 1]', axes: 'x right' };
  const probe = (vars: Record<string, unknown>) => ({
    ...arch,
    async run(ctx: Parameters<typeof arch.run>[0]) {
      await ctx.callRole('planner', vars, []);
      return { reason: 'task_completed' as const, agentClaimedDone: false };
    },
  });
  const model = () => new ReplayClient({ 'malmm/planner': ['ok'] });
  const extra = await run(spec('default', { arch: probe({ ...planner, axis: 'typo' }) }), model());
  assert.equal(extra.result.reason, 'engine_error');
  assert.match(extra.result.message ?? '', /malmm called its planner role with variables its manifest does not declare that way: axis is not declared/);
  assert.equal(of(extra.events, 'role_call').length, 0);
  const { axes: _a, ...withoutAxes } = planner;
  const missing = await run(spec('default', { arch: probe(withoutAxes) }), model());
  assert.match(missing.result.message ?? '', /axes is missing/);
  const fine = await run(spec('default', { arch: probe(planner) }), model());
  assert.equal(fine.result.reason, 'task_completed');
});

test('an unknown task is invalid input, recorded in the trace', async () => {
  const { result, events } = await run(spec('default', { task: 'juggle' }), new ReplayClient({}));
  assert.equal(result.reason, 'invalid_input');
  assert.match(of(events, 'error')[0].message, /unknown task 'juggle'; known: fake_stack/);
});

test('a model failure ends the run as model_error with the provider message', async () => {
  const failing: ModelClient = { id: 'x', complete: async () => ({ ok: false, error: { kind: 'auth', message: 'Incorrect API key provided', status: 401 }, latencyMs: 1, cached: false, attempts: 1 }) };
  const { result, events } = await run(spec('default'), failing);
  assert.equal(result.reason, 'model_error');
  assert.match(result.message ?? '', /supervisor \(auth\): Incorrect API key provided/);
  assert.equal(of(events, 'model_response')[0].ok, false);
});

test('a simulator that dies during a block ends the run as simulator_error, recorded', async () => {
  const sim = new FakeSim();
  sim.crashOn = 'execute_trajectory';
  const model = new ReplayClient({ 'malmm/supervisor': ['Next speaker: Coder', 'Next speaker: Executor'], 'malmm/coder': [py('execute_trajectory([0.1, 0.2, 0.9], 0.0)')] });
  const { result, events } = await run(spec('default'), model, sim);
  assert.equal(result.reason, 'simulator_error');
  assert.match(of(events, 'error')[0].message, /simulator process exited/);
  assert.equal(of(events, 'episode_end').length, 1);
});

test('cancel from the controller stops the episode and marks it cancelled', async () => {
  const controller = new EpisodeController();
  const model = new ReplayClient({ 'malmm/supervisor': Array(20).fill('Next speaker: Planner'), 'malmm/planner': Array(20).fill('plan') });
  let n = 0;
  controller.on((e) => {
    if (e.type === 'trace_event' && e.event.type === 'role_call' && ++n === 3) controller.cancel();
  });
  const sink = new MemoryTraceSink();
  const result = await runEpisode(spec('default'), { io: nodeIO, clock, sim: new FakeSim(), sandbox, model, sink, controller });
  assert.equal(result.reason, 'cancelled');
  assert.equal(result.success, false);
});

// The sandbox starts with the loop, and only the first code block waits for it (src/core/engine/startingSandbox.ts):
// the model's first answers are not held behind Pyodide's seconds of start-up.
const codeFirst = () =>
  new ReplayClient({ 'malmm/supervisor': ['Next speaker: Coder', 'Next speaker: Executor', 'Next speaker: Coder', 'Next speaker: Executor'], 'malmm/coder': [py('execute_trajectory([0.0, 0.1, 0.9], 0.0)'), py('task_completed()')] });

test('the model is called while the sandbox is still starting; the first block waits for it and runs in a fresh namespace', { timeout: 20_000 }, async () => {
  const order: string[] = [];
  let ready!: () => void;
  const started = new Promise<void>((r) => (ready = r));
  const starting: CodeSandbox = {
    warmUp: () => (order.push('warmUp'), started.then(() => void order.push('started'))),
    resetNamespace: async (ns) => (order.push('resetNamespace'), sandbox.resetNamespace(ns)),
    run: (r) => (order.push('run'), sandbox.run(r)),
    close: async () => undefined,
  };
  const model = codeFirst();
  const complete = model.complete.bind(model);
  model.complete = (req, o) => {
    order.push('model');
    // The start finishes only after the loop has made the three calls before its first block (Supervisor, Coder,
    // Supervisor), so that block must wait for it.
    if (order.filter((x) => x === 'model').length === 3) setTimeout(ready, 50);
    return complete(req, o);
  };
  const sink = new MemoryTraceSink();
  const result = await runEpisode(spec('default'), { io: nodeIO, clock, sim: new FakeSim(), sandbox: starting, model, sink, controller: new EpisodeController() });
  assert.equal(result.reason, 'task_completed', result.message);
  assert.deepEqual(order.slice(0, 7), ['warmUp', 'model', 'model', 'model', 'started', 'resetNamespace', 'run']);
});

test('a sandbox that fails to start ends the episode as sandbox_error at the first block, naming the cause', async () => {
  const broken: CodeSandbox = { warmUp: async () => { throw new Error('cannot start python3: spawn python3 ENOENT'); }, resetNamespace: async () => undefined, run: async () => assert.fail('no block may run'), close: async () => undefined };
  const sink = new MemoryTraceSink();
  const result = await runEpisode(spec('default'), { io: nodeIO, clock, sim: new FakeSim(), sandbox: broken, model: codeFirst(), sink, controller: new EpisodeController() });
  assert.equal(result.reason, 'sandbox_error');
  assert.equal(result.message, 'code sandbox failed to start: cannot start python3: spawn python3 ENOENT');
  assert.deepEqual(of(sink.events, 'code_execution'), []);
  assert.equal(of(sink.events, 'error')[0]?.kind, 'sandbox_error');
  // Supervisor, Coder, Supervisor (to the Executor): the calls before the first block were made.
  assert.equal(result.end.metrics.modelCalls, 3);
});

test('a sandbox that fails to start is not an error for an episode that ends before its first block', async () => {
  const broken: CodeSandbox = { warmUp: async () => { throw new Error('no interpreter'); }, resetNamespace: async () => undefined, run: async () => assert.fail('no block may run'), close: async () => undefined };
  const sink = new MemoryTraceSink();
  const model = new ReplayClient({ 'malmm/supervisor': ['Next speaker: Planner', 'Next speaker: Planner'], 'malmm/planner': ['Step 1: go.', 'Step 1: go.'] });
  const result = await runEpisode(spec('default', { options: { ...DEFAULT_EPISODE_OPTIONS, limits: { maxTurns: 2 } } }), { io: nodeIO, clock, sim: new FakeSim(), sandbox: broken, model, sink, controller: new EpisodeController() });
  assert.equal(result.reason, 'turn_cap', result.message);
  assert.deepEqual(of(sink.events, 'error'), []);
});

test('cancel while the first block waits for a sandbox that never starts ends the episode at once as cancelled, with no error event', { timeout: 30_000 }, async () => {
  const controller = new EpisodeController();
  // A sandbox whose start-up never finishes (Pyodide loading on a very busy machine).
  const starting: CodeSandbox = { warmUp: () => new Promise<void>(() => undefined), resetNamespace: () => sandbox.resetNamespace(), run: (r) => sandbox.run(r), close: async () => undefined };
  controller.on((e) => {
    if (e.type === 'trace_event' && e.event.type === 'chat_message' && e.event.speaker === 'Coder') setTimeout(() => controller.cancel(), 50);
  });
  const sink = new MemoryTraceSink();
  const t = performance.now();
  const result = await runEpisode(spec('default'), { io: nodeIO, clock, sim: new FakeSim(), sandbox: starting, model: codeFirst(), sink, controller });
  assert.equal(result.reason, 'cancelled');
  assert.ok(performance.now() - t < 10_000);
  assert.ok(result.end.metrics.modelCalls >= 2);
  assert.deepEqual(of(sink.events, 'code_execution'), []);
  assert.deepEqual(of(sink.events, 'error'), []);
});

test('the turn cap counts chat messages, not Supervisor routing: MALMM, MA and SA get the same budget', async () => {
  // Endless planning: each topology is stopped by the cap after exactly maxTurns chat messages (answers and reports).
  const endless = (n: number) => Array.from({ length: n }, () => py('execute_trajectory([0.0, 0.1, 0.9], 0.0)'));
  const cap = 12;
  const lim = { options: { ...DEFAULT_EPISODE_OPTIONS, limits: { maxTurns: cap } } };
  const malmm = await run(
    spec('default', lim),
    new ReplayClient({ 'malmm/supervisor': Array.from({ length: 40 }, (_, i) => ['Next speaker: Planner', 'Next speaker: Coder', 'Next speaker: Executor'][i % 3]!), 'malmm/planner': Array(20).fill('Step 1: go.'), 'malmm/coder': endless(20) }),
  );
  const ma = await run(spec('ma', lim), new ReplayClient({ 'malmm/planner': Array(20).fill('Step 1: go.'), 'malmm/coder': endless(20) }));
  const sa = await run(spec('sa', lim), new ReplayClient({ 'malmm/agent': endless(20) }));
  for (const [name, r] of [['malmm', malmm], ['ma', ma], ['sa', sa]] as const) {
    assert.equal(r.result.reason, 'turn_cap', name);
    const said = of(r.events, 'chat_message').filter((m) => m.speaker !== 'Supervisor' && m.speaker !== 'User');
    assert.equal(said.length, cap, `${name}: ${said.length} messages`);
  }
  // MALMM's routing calls happened on top of the budget, not inside it.
  assert.ok(of(malmm.events, 'role_call').filter((c) => c.role === 'supervisor').length >= cap);
  assert.equal(of(ma.events, 'code_execution').length, of(malmm.events, 'code_execution').length);
});

test('paper default vs waypoint variant: the opening speaker, the executor reply and the state dump', async () => {
  const answers = () => new ReplayClient({ 'malmm/supervisor': ['Next speaker: Coder', 'Next speaker: Executor', 'Next speaker: Coder', 'Next speaker: Executor'], 'malmm/coder': [py('execute_trajectory([0.0, 0.1, 0.9], 0.0)'), py('task_completed()')] });
  const paper = await run(spec('default'), answers());
  const waypoint = await run(spec('waypoint'), answers());
  const firstReport = (r: typeof paper) => of(r.events, 'chat_message').find((m) => m.speaker === 'Executor')!.content;
  assert.doesNotMatch(firstReport(paper), /Current environment state:|End-effector Orientation|Gripper:/);
  assert.match(firstReport(paper), /^exitcode: 0 \(execution succeeded\)\nCode output:\n\*\*red block\*\*/);
  assert.match(firstReport(paper), /robot arm end-effector Position: .*\nNo object has been grasped/);
  assert.match(firstReport(waypoint), /Current environment state:\n/);
  assert.match(firstReport(waypoint), /End-effector Orientation \(yaw\): .*\nGripper: open\n/);
  // The supervisor prompt's routing hints are ours: off in the paper default, on in waypoint.
  const sup = (r: typeof paper) => of(r.events, 'role_call').find((c) => c.role === 'supervisor')!.messages[0]!.content;
  assert.doesNotMatch(sup(paper), /HOW TO ROUTE/);
  assert.match(sup(waypoint), /HOW TO ROUTE/);
  assert.equal(of(paper.events, 'chat_message')[0]!.speaker, 'Supervisor');
  const ma = await run(spec('ma'), new ReplayClient({ 'malmm/planner': ['Step 1: finish.'], 'malmm/coder': [py('task_completed()')] }));
  assert.equal(of(ma.events, 'chat_message')[0]!.speaker, 'User', 'MA has no Supervisor: the task comes from the user');
});

test("a collision reaches the code's output and the trace with the pair and the depth; the paper executor reply leaves the simulator's notes out", async () => {
  class CollidingSim extends FakeSim {
    override async call(fn: string, args: unknown[]) {
      const r = await super.call(fn, args);
      if (fn !== 'execute_trajectory' || !r.ok) return r;
      const c = { a: 'red block (held)', b: 'blue block', tSecs: 0.5, depthM: 0.0024, kind: 'held' as const };
      return { ...r, output: 'collision: red block (held) <-> blue block at t=0.50 s, depth 2.4 mm', collisions: [c] };
    }
  }
  const answers = () => new ReplayClient({ 'malmm/supervisor': ['Next speaker: Coder', 'Next speaker: Executor', 'Next speaker: Coder', 'Next speaker: Executor'], 'malmm/coder': [py('print("moving")\nexecute_trajectory([0.0, 0.1, 0.9], 0.0)'), py('task_completed()')] });
  for (const variant of ['default', 'waypoint']) {
    const { events } = await run(spec(variant), answers(), new CollidingSim());
    const exec = of(events, 'code_execution')[0]!;
    assert.match(exec.stdout, /^collision: red block \(held\) <-> blue block at t=0\.50 s, depth 2\.4 mm$/m);
    const check = of(events, 'check').find((c) => c.name === 'collision') as unknown as { pair: string[]; depthM: number; collisionKind: string; message: string };
    assert.deepEqual(check.pair, ['red block (held)', 'blue block']);
    assert.equal(check.depthM, 0.0024);
    assert.equal(check.collisionKind, 'held');
    assert.match(check.message, /depth 2\.4 mm/);
    const reply = of(events, 'chat_message').find((m) => m.speaker === 'Executor')!.content;
    assert.match(reply, /Code output:\nmoving\n/, "the code's own print stays");
    if (variant === 'default') assert.doesNotMatch(reply, /collision:/);
    else assert.match(reply, /collision: red block \(held\) <-> blue block/);
  }
});

test('perception mode: the agents see the seeded estimate, the trace keeps the truth beside it', async () => {
  const answers = () => new ReplayClient({ 'malmm/supervisor': ['Next speaker: Coder', 'Next speaker: Executor', 'Next speaker: Coder', 'Next speaker: Executor'], 'malmm/coder': [py('execute_trajectory([0.0, 0.1, 0.9], 0.0)'), py('task_completed()')] });
  const est = await run(spec('default', { options: { ...DEFAULT_EPISODE_OPTIONS, limits: {}, perception: 'estimated' } }), answers());
  const truth = await run(spec('default'), answers());
  assert.equal((of(est.events, 'episode_start')[0]!.options as { perception?: string }).perception, 'estimated');
  const obs = of(est.events, 'observation');
  assert.ok(obs.length >= 2);
  for (const o of obs) {
    const e = (o as unknown as { estimate?: { objects: { name: string; pos: number[] }[] } }).estimate;
    assert.ok(e, 'every observation carries the estimate');
    const red = o.state.objects.find((x) => x.name === 'red block')!;
    const seen = e.objects.find((x) => x.name === 'red block');
    if (seen) {
      assert.notDeepEqual(seen.pos, red.pos, 'the estimate differs from the truth');
      assert.ok(o.rendered!.includes(`[${seen.pos.map((v) => v.toFixed(4)).join(' ')}]`), 'the rendered text is the estimate');
    }
  }
  // Ground truth: no estimate fields, and the rendered text shows the true centre.
  for (const o of of(truth.events, 'observation')) assert.equal((o as unknown as { estimate?: unknown }).estimate, undefined);
  const supervisorPrompt = of(est.events, 'role_call')[0]!.messages[0]!.content;
  assert.doesNotMatch(supervisorPrompt, /Center Position: \[0\.1000 0\.2000 0\.7750\]/, 'the agents never saw the true centre');
});

test('with the guard on, five raising blocks in a row end the episode after exactly five executions, with no model call after the fifth', async () => {
  // With the loop's guard on, a failed block counts one and the stop comes right after the fifth report (the
  // default of maxConsecutiveErrors, not an explicit limit here).
  const raising = Array.from({ length: 10 }, (_, i) => py(`raise ValueError("attempt ${i + 1}")`));
  const { result, events } = await run(withGuard('ma'), new ReplayClient({ 'malmm/planner': Array(10).fill('Step 1: try.'), 'malmm/coder': raising }));
  assert.equal(result.reason, 'max_consecutive_errors');
  assert.equal(result.end.message, '5 consecutive errors');
  const execs = of(events, 'code_execution');
  assert.equal(execs.length, 5);
  assert.ok(execs.every((e) => !e.ok && e.error?.type === 'ValueError'));
  const fifth = events.indexOf(execs[4]);
  assert.deepEqual(of(events.slice(fifth), 'role_call'), [], 'no Planner or Coder call after the fifth failed block');
});

test('a block that runs clean resets the error count: four failures, a success, four failures do not stop the episode', async () => {
  const answers = [
    ...Array.from({ length: 4 }, () => py('raise ValueError("x")')),
    py('execute_trajectory([0.0, 0.1, 0.9], 0.0)'),
    ...Array.from({ length: 4 }, () => py('raise ValueError("y")')),
    py('task_completed()'),
  ];
  const { result, events } = await run(withGuard('ma'), new ReplayClient({ 'malmm/planner': Array(10).fill('Step 1: try.'), 'malmm/coder': answers }));
  assert.equal(result.reason, 'task_completed');
  assert.equal(of(events, 'code_execution').length, 10);
});

test('unroutable Supervisor answers count as errors with the others: with a reply without code and an empty Executor call, five in a row stop the episode', async () => {
  // Route 1 unroutable (1) -> Planner; route 2 unroutable (2) -> Coder answers prose (3); route 3 unroutable (4) ->
  // Executor with no code to run (5): the fifth error in a row ends the episode.
  const model = new ReplayClient({ 'malmm/supervisor': Array(8).fill('I am not sure.'), 'malmm/planner': Array(4).fill('Step 1: go.'), 'malmm/coder': Array(4).fill('I would move the arm.') });
  const { result, events } = await run(withGuard('default'), model);
  assert.equal(result.reason, 'max_consecutive_errors', result.end.message);
  assert.equal(result.end.message, '5 consecutive errors');
  assert.equal(of(events, 'parsed_output').filter((p) => p.kind === 'route' && !p.ok).length, 3);
  assert.deepEqual(of(events, 'chat_message').filter((m) => m.speaker !== 'User' && m.speaker !== 'Supervisor').map((m) => m.speaker), ['Planner', 'Coder', 'Executor']);
});

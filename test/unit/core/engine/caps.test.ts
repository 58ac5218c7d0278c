// The engine's caps (limits maxWallSecs and maxSimSecs, every architecture has them), through runEpisode with the
// Action Contextualization loop on the fake clearing world: an episode past its wall-clock cap ends with
// wall_clock_cap, a model call in flight cancelled; time stopped in a debugger does not count; simulated time is
// capped in all, so retries from a snapshot (each rewinding the clock) cannot add up past it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { ENGINE_LIMITS, manifestProblems, resolveLimits } from '../../../../src/core/architecture/limits.js';
import { EpisodeController } from '../../../../src/core/engine/controller.js';
import { runEpisode } from '../../../../src/core/engine/episode.js';
import type { ModelClient, ModelRequest, ModelResult } from '../../../../src/core/llm/client.js';
import { registerReferencePolicies } from '../../../../src/core/llm/reference/policies.js';
import { defaultReferenceModels } from '../../../../src/core/llm/reference/policy.js';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import { MemoryTraceSink } from '../../../../src/core/trace/writer.js';
import type { TraceEvent } from '../../../../src/protocol/trace.js';
import { FakeClearingSim } from '../../architectures/actctx/fakeClearingSim.js';
import { runWith, spec } from '../../architectures/actctx/scripted.js';

registerReferencePolicies(architectures);

function reference(profile: 'reference' | 'reference-flawed'): ModelClient {
  const policy = defaultReferenceModels().get(profile)!;
  return {
    id: profile,
    async complete(q: ModelRequest): Promise<ModelResult> {
      return { ok: true, text: policy.answer(q.messages, { ...(q.meta ? { meta: q.meta } : {}) }), latencyMs: 0, cached: false, attempts: 1 };
    },
  };
}

/** An endpoint that never answers: the call ends only when its signal aborts (a pending request keeps the process alive, as a socket would). */
const hanging: ModelClient = {
  id: 'hanging',
  complete: (_q, o) =>
    new Promise<ModelResult>((resolve) => {
      const socket = setInterval(() => undefined, 1000);
      o?.signal?.addEventListener('abort', () => {
        clearInterval(socket);
        resolve({ ok: false, error: { kind: 'cancelled', message: 'aborted' }, latencyMs: 0, cached: false, attempts: 1 });
      }, { once: true });
    }),
};

test('every architecture resolves the engine limits, settable like its own, and an architecture cannot redeclare one', () => {
  const arch = architectures.get('malmm');
  const r = resolveLimits(arch, { maxWallSecs: '90', maxSimSecs: 120 });
  assert.ok(r.ok);
  assert.deepEqual([r.limits.maxWallSecs, r.limits.maxSimSecs, r.limits.maxTurns], [90, 120, 150]);
  assert.deepEqual(resolveLimits(arch, { maxWallSecs: 0 }), { ok: false, name: 'maxWallSecs', error: 'limit maxWallSecs of malmm must be a number from 0.001 to 604800; 0 is below the minimum 0.001' });
  assert.ok(ENGINE_LIMITS.every((l) => (l.default as number) >= 1800), 'the defaults are generous');
  const redeclared = { ...arch, limits: [...arch.limits, { ...ENGINE_LIMITS[0]!, default: 60 }] };
  assert.deepEqual(manifestProblems(redeclared), ["architecture 'malmm' declares limit 'maxWallSecs', which is the engine's own limit (every architecture has it)"]);
});

test('an episode past its wall-clock cap ends with wall_clock_cap; the model call in flight is cancelled', async () => {
  const t = performance.now();
  // The cap leaves time to reach the first model call (prompt files are read and checked first, slower on a loaded
  // machine), so the call is in flight when the cap fires.
  const { result, events } = await runWith(spec({ maxWallSecs: 2 }), hanging);
  const secs = (performance.now() - t) / 1000;
  assert.equal(result.reason, 'wall_clock_cap', result.message);
  assert.equal(result.success, false);
  assert.match(result.message ?? '', /wall-clock time; its cap is maxWallSecs = 2 s$/);
  assert.ok(secs < 10, `ended after ${secs.toFixed(1)} s`);
  // The cap is recorded with the run's limits, and it is an end reason, not an error.
  const start = events.find((e) => e.type === 'episode_start')!;
  assert.equal(start.type === 'episode_start' ? start.limits?.maxWallSecs : undefined, 2);
  assert.deepEqual(events.filter((e) => e.type === 'error'), []);
  const response = events.find((e) => e.type === 'model_response');
  assert.equal(response?.type === 'model_response' ? response.error?.kind : undefined, 'cancelled');
});

test('time stopped at a breakpoint does not count toward the wall-clock cap', async () => {
  const controller = new EpisodeController({ stopOnEntry: true });
  const sink = new MemoryTraceSink();
  const clock = { nowMs: () => performance.now(), isoNow: () => '2026-11-25T00:00:00.000Z' };
  const sandbox = { warmUp: async () => undefined, run: async () => { throw new Error('no code'); }, resetNamespace: async () => undefined, close: async () => undefined };
  const running = runEpisode(spec({ maxWallSecs: 2 }), { io: nodeIO, clock, sim: new FakeClearingSim(), sandbox, model: reference('reference'), sink, controller });
  await new Promise((r) => setTimeout(r, 2500));
  assert.equal(controller.isStopped, true);
  controller.continue();
  const result = await running;
  assert.equal(result.reason, 'plan_validated', result.message);
});

test('simulated time is capped in all: retries from the start snapshot rewind the clock but not the total', async () => {
  // Uncapped, reference-flawed needs a retune: two executions of the plan from the start.
  const free = await runWith(spec(), reference('reference-flawed'));
  const m = free.result.end.metrics;
  const executions = (events: TraceEvent[]) => events.filter((e) => e.type === 'check' && e.name === 'plan_execution').length;
  assert.equal(free.result.reason, 'plan_validated');
  assert.ok(executions(free.events) >= 2);
  // A cap above any one execution's time (the clock never reaches it) but below their sum.
  const cap = (m.simTotalSecs! + m.simTimeSecs) / 2;
  assert.ok(m.simTimeSecs < cap && cap < m.simTotalSecs!);
  const capped = await runWith(spec({ maxSimSecs: cap }), reference('reference-flawed'));
  const c = capped.result.end.metrics;
  assert.equal(capped.result.reason, 'sim_time_cap', capped.result.message);
  assert.match(capped.result.message ?? '', /^the episode simulated [\d.]+ s in all; its cap is maxSimSecs = [\d.]+ s$/);
  assert.ok(c.simTotalSecs! >= cap, `${c.simTotalSecs} s in all`);
  // Bounded: past the cap by at most the action under way (the fake world's longest takes 2 / speed s).
  const longest = Math.max(...capped.events.flatMap((e) => (e.type === 'action_result' ? e.results.map((r) => r.metrics?.durationSecs ?? 0) : [])));
  assert.ok(c.simTotalSecs! <= cap + longest, `${c.simTotalSecs} s in all, cap ${cap} s, longest action ${longest} s`);
  assert.ok(c.simTimeSecs < cap, 'the clock of the last timeline alone never reached the cap');
});

// The Action Contextualization loop through the engine with scripted answers and the fake clearing world, shared
// by the loop tests and the Plan tab's browser test.
import { join } from 'node:path';
import { architectures } from '../../../../src/architectures/registry.js';
import { EpisodeController } from '../../../../src/core/engine/controller.js';
import { DEFAULT_EPISODE_OPTIONS, runEpisode, type EpisodeSpec } from '../../../../src/core/engine/episode.js';
import type { ModelClient } from '../../../../src/core/llm/client.js';
import { ReplayClient } from '../../../../src/core/llm/replay.js';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import { resolveVariant } from '../../../../src/core/prompt/variants.js';
import type { CodeSandbox } from '../../../../src/core/sandbox/sandbox.js';
import { MemoryTraceSink } from '../../../../src/core/trace/writer.js';
import type { TraceEvent } from '../../../../src/protocol/trace.js';
import type { Simulator } from '../../../../src/core/sim/simulator.js';
import { BALL, BIN, FakeClearingSim, GLASS, SINK } from './fakeClearingSim.js';

const clock = { nowMs: () => performance.now(), isoNow: () => '2026-11-25T00:00:00.000Z' };
const arch = architectures.get('actctx');
const promptPaths = Object.fromEntries(arch.roles.map((r) => [r.id, join(process.cwd(), 'src', 'architectures', 'actctx', 'prompts', r.promptFile)]));
// The loop never runs Python (plans are read as literals with a parser), so the sandbox is one that refuses to.
const sandbox: CodeSandbox = {
  // The engine does not start it for an architecture that runs no code (a failing start-up would end the run).
  warmUp: async () => {
    throw new Error('the sandbox was started');
  },
  run: async () => {
    throw new Error('Action Contextualization runs no Python');
  },
  resetNamespace: async () => undefined,
  close: async () => undefined,
};

/** `off` / `on`: ablation ids the variant switches off / on (none: the built-in `actctx` variant). */
export function spec(limits: Record<string, number | boolean> = {}, task = 'fake_clear', off: readonly string[] = [], on: readonly string[] = []): EpisodeSpec {
  return {
    runId: 'test',
    arch,
    task,
    seed: 0,
    variant: off.length || on.length ? resolveVariant('ablated', { active: 'ablated', variants: { ablated: { agent: 'actctx', off: [...off], on: [...on] } } }, arch.builtInVariants) : resolveVariant('actctx', { active: 'default', variants: {} }, arch.builtInVariants),
    promptPaths,
    options: { ...DEFAULT_EPISODE_OPTIONS, limits },
    model: { provider: 'replay', model: 'replay', label: 'replay' },
  };
}

export async function run(s: EpisodeSpec, answers: Record<string, string[]>) {
  return runWith(s, new ReplayClient(answers));
}

/** Runs an episode against the fake clearing world, or against `sim` (the real tabletop simulator). */
export async function runWith<S extends Simulator = FakeClearingSim>(s: EpisodeSpec, model: ModelClient, real?: S) {
  const sink = new MemoryTraceSink();
  const sim = real ?? new FakeClearingSim();
  const result = await runEpisode(s, { io: nodeIO, clock, sim, sandbox, model, sink, controller: new EpisodeController() });
  return { result, events: sink.events as TraceEvent[], sim, model };
}

export const of = <T extends TraceEvent['type']>(events: TraceEvent[], type: T) => events.filter((e): e is Extract<TraceEvent, { type: T }> => e.type === type);
export const py = (code: string) => 'Reasoning first.\n```python\n' + code + '\n```';

export const plan = (glassSpeed: number) =>
  py(`task_plan = [
    (0, 'approach', ('${GLASS}', ${glassSpeed}, 0.02, 'top')),
    (1, 'pick', ('${GLASS}', ${glassSpeed}, 0.02, 'top')),
    (2, 'place', ('${SINK}', 0.9, 0.4, 0.02)),
    (3, 'approach', ('${BALL}', 0.5, 0.02, 'top')),
    (4, 'pick', ('${BALL}', 0.5, 0.02, 'top')),
    (5, 'drop', ('${BIN}', 0.5, 0.02)),
]`);
const MANDATORY = "'collision_free': (), 'timeout': (), 'check_motion_health': ()";
const MANDATORY_OUT = "'', True, True";
export const evalPlan = py(`evaluation_plan = [
    (0, {'can_grasp': ('${GLASS}', 'top'), ${MANDATORY}}, (True, ${MANDATORY_OUT})),
    (1, {'holding': (), ${MANDATORY}}, (True, ${MANDATORY_OUT})),
    (2, {'at_location': ('${GLASS}', '${SINK}'), ${MANDATORY}}, (True, ${MANDATORY_OUT})),
    (3, {${MANDATORY}}, (${MANDATORY_OUT})),
    (4, {'holding': (), ${MANDATORY}}, (True, ${MANDATORY_OUT})),
    (5, {'at_location': ('${BALL}', '${BIN}'), ${MANDATORY}}, (True, ${MANDATORY_OUT})),
]`);


/** The retune exchange: a pick at speed 0.95 lets the full glass slip, the retune slows it to 0.4 and the plan passes. */
export function retuneExchange() {
  return run(spec(), {
    'actctx/task_plan': [plan(0.95)],
    'actctx/evaluation_plan': [evalPlan],
    'actctx/retune': [py(`task_plan[1] = (1, 'pick', ('${GLASS}', 0.4, 0.02, 'top'))`)],
  });
}

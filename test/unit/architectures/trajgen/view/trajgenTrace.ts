// A real trace of LMTG-API code run by the engine: a probe architecture (no model) runs a reference solution's
// detection block, then the Python it writes from the print-out, through the Pyodide sandbox against the embedded
// simulator (detections estimated by the seeded detector model unless told otherwise).
import type { ArchitectureDefinition } from '../../../../../src/core/architecture/types.js';
import { DEFAULT_EPISODE_OPTIONS, runEpisode } from '../../../../../src/core/engine/episode.js';
import type { ModelClient } from '../../../../../src/core/llm/client.js';
import { solutionFor } from '../../../../../src/architectures/trajgen/reference/solutions/index.js';
import { Readout } from '../../../../../src/architectures/trajgen/reference/solutions/readout.js';
import { nodeIO } from '../../../../../src/core/node/nodeHost.js';
import { createPyodideSandbox } from '../../../../../src/core/sandbox/index.js';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import { MemoryTraceSink } from '../../../../../src/core/trace/writer.js';
import type { TraceEvent } from '../../../../../src/protocol/trace.js';

const clock = { nowMs: () => performance.now(), isoNow: () => '2026-11-25T00:00:00.000Z' };
const noModel: ModelClient = { id: 'none', complete: async () => { throw new Error('no model call in this trace'); } };

export async function lmtgSolutionTrace(task: string, seed = 0, perception: 'ground-truth' | 'estimated' = 'estimated'): Promise<TraceEvent[]> {
  const sim = await createTabletopSimulator({ perception });
  const sandbox = createPyodideSandbox();
  const arch: ArchitectureDefinition = {
    id: 'lmtg-probe',
    label: 'LMTG probe',
    description: 'runs a reference trajectory solution without a model (a test fixture)',
    paper: 'none (a test fixture)',
    api: 'lmtg',
    simulator: 'tabletop',
    roles: [],
    topologies: { only: { label: 'only', description: 'no roles', roles: [] } },
    defaultTopology: 'only',
    builtInVariants: {},
    limits: [],
    endReasons: { probed: 'the probe ran its two blocks' },
    metrics: {},
    async run(ctx) {
      const s = solutionFor(ctx.task.instruction)!;
      const seen = await ctx.executeCode('main', s.detect(ctx.task.instruction).map((n) => `detect_object(${JSON.stringify(n)})`).join('\n'));
      await ctx.executeCode('main', s.code(ctx.task.instruction, Readout.fromText(seen.result.stdout)));
      const check = await ctx.checkSuccess();
      return { agentClaimedDone: false, reason: check.success ? 'success' : 'probed' };
    },
  };
  const sink = new MemoryTraceSink();
  try {
    await runEpisode(
      { runId: `lmtg-${task}`, arch, task, seed, variant: { name: 'default', ablations: {} }, promptPaths: {}, options: { ...DEFAULT_EPISODE_OPTIONS, persistNamespace: true }, model: { provider: 'none', model: 'none', label: 'none' } },
      { io: nodeIO, clock, sim, sandbox, model: noModel, sink },
    );
  } finally {
    await sandbox.close();
    await sim.close();
  }
  return sink.events;
}

// Many reference-model episodes in one process: one MuJoCo simulator, one warm Pyodide sandbox and one reference
// server shared by every episode (launchRun builds all three per run, which costs seconds each time). Used by the
// acceptance tests and by test/bench/referenceRates.bench.ts.
import { join } from 'node:path';
import { architectures } from '../../../../../../src/architectures/registry.js';
import { EpisodeController } from '../../../../../../src/core/engine/controller.js';
import { DEFAULT_EPISODE_OPTIONS, runEpisode, type EpisodeResult } from '../../../../../../src/core/engine/episode.js';
import { OpenAICompatibleClient } from '../../../../../../src/core/llm/openai.js';
import { registerReferencePolicies } from '../../../../../../src/core/llm/reference/policies.js';
import { referenceLabel, type ReferenceProfile } from '../../../../../../src/core/llm/reference/policy.js';
import { startReferenceServer, type ReferenceServer } from '../../../../../../src/core/llm/reference/server.js';
import { nodeClock, nodeIO } from '../../../../../../src/core/node/nodeHost.js';
import { resolveVariant } from '../../../../../../src/core/prompt/variants.js';
import { createPyodideSandbox } from '../../../../../../src/core/sandbox/index.js';
import type { CodeSandbox } from '../../../../../../src/core/sandbox/sandbox.js';
import { createTabletopSimulator } from '../../../../../../src/core/sim/mujoco/index.js';
import type { Simulator } from '../../../../../../src/core/sim/simulator.js';
import { MemoryTraceSink } from '../../../../../../src/core/trace/writer.js';
import type { TraceEvent } from '../../../../../../src/protocol/trace.js';

export interface EpisodeRequest {
  task: string;
  seed: number;
  profile?: ReferenceProfile;
  /** A built-in variant (malmm, ma, sa, sa_nofeedback); default: the architecture's default topology. */
  variant?: string;
  /** Ablations switched off on top of the variant. */
  off?: string[];
  /** Ablations switched on on top of the variant (a default="off" addition, e.g. MALMM's waypoint additions). */
  on?: string[];
  limits?: Record<string, unknown>;
}

export interface EpisodeOutcome {
  result: EpisodeResult;
  events: TraceEvent[];
}

export class InProcessRunner {
  private constructor(
    private readonly sim: Simulator,
    private readonly sandbox: CodeSandbox,
    private readonly server: ReferenceServer,
    private readonly promptRoot: string,
  ) {}

  static async start(promptRoot = join(process.cwd(), 'src', 'architectures')): Promise<InProcessRunner> {
    registerReferencePolicies(architectures);
    const sandbox = createPyodideSandbox();
    const [sim, server] = await Promise.all([createTabletopSimulator(), startReferenceServer({ port: 0 }), sandbox.warmUp()]);
    return new InProcessRunner(sim, sandbox, server, promptRoot);
  }

  /** The tasks of the shared simulator. */
  tasks(): ReturnType<Simulator['tasks']> {
    return this.sim.tasks();
  }

  async run(r: EpisodeRequest): Promise<EpisodeOutcome> {
    const arch = architectures.get('malmm');
    const profile = r.profile ?? 'reference';
    let variant = resolveVariant(r.variant ?? 'default', { active: 'default', variants: {} }, arch.builtInVariants);
    if (r.on?.length) variant = { ...variant, ablations: { ...variant.ablations, ...Object.fromEntries(r.on.map((id) => [id, true])) } };
    if (r.off?.length) variant = { ...variant, ablations: { ...variant.ablations, ...Object.fromEntries(r.off.map((id) => [id, false])) } };
    const model = new OpenAICompatibleClient({ baseUrl: this.server.url, clock: nodeClock, model: profile, id: profile, sendRequestMeta: true });
    const sink = new MemoryTraceSink();
    const result = await runEpisode(
      {
        runId: `${r.task}-${r.seed}`,
        arch,
        task: r.task,
        seed: r.seed,
        variant,
        promptPaths: Object.fromEntries(arch.roles.map((role) => [role.id, join(this.promptRoot, 'malmm', 'prompts', role.promptFile)])),
        options: { ...DEFAULT_EPISODE_OPTIONS, limits: r.limits ?? {} },
        model: { provider: 'reference', model: profile, label: referenceLabel(profile), temperature: 0 },
      },
      { io: nodeIO, clock: nodeClock, sim: this.sim, sandbox: this.sandbox, model, sink, controller: new EpisodeController() },
    );
    return { result, events: sink.events };
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.server.close(), this.sandbox.close(), this.sim.close()]);
  }
}

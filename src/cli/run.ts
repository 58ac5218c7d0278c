// `waypoint run`: one episode from the command line, with a live transcript and the trace path at the end.
// A run refused at the start (unknown name, broken prompt) prints one line on stderr and exits 2; its trace is
// kept, marked not started (`waypoint runs` says so). A failure of the machinery (endpoint, simulator, sandbox)
// exits 3, never 1: scripts must not count it as the task failing.
import { isAbsolute, relative, resolve } from 'node:path';
import { architectures } from '../architectures/registry.js';
import { EpisodeController } from '../core/engine/controller.js';
import { nodeClock, nodeIO } from '../core/node/nodeHost.js';
import { builtInPromptRoot, findPackageRoot } from '../core/node/packageRoot.js';
import { launchRun, type LaunchResult, type ModelSpec } from '../core/runs/launch.js';
import { createHostPythonSandbox, createPyodideSandbox, HOST_PYTHON_WARNING } from '../core/sandbox/index.js';
import { architectureManifests } from '../architectures/manifests.js';
import { REFERENCE_PROFILES, type ReferenceProfile } from '../core/llm/reference/policy.js';
import { LOCAL_PREFIX, localModelDir } from '../core/llm/localEmbedding/name.js';
import { PERCEPTION_MODES, type PerceptionMode } from '../core/perception/estimator.js';
import { connectSimulator, isEmbeddedSpec } from '../core/sim/connect.js';
import type { DetectorMode } from '../core/perception/detector.js';
import { endedBeforeStart } from '../core/trace/projections/runSummary.js';
import { isInfrastructureEnd } from '../protocol/trace.js';
import { EPISODE_OPTIONS, LIMIT_OPTIONS, MODEL_OPTIONS, VISION_OPTION, WORKSPACE_OPTIONS } from './commonOptions.js';
import { shutdownExitStatus, whileCleaningUp } from './lifecycle.js';
import { defineCommand, UsageError, type OptionValues } from './options.js';
import { formatEvent, noteVision, visionTally } from './transcript.js';
import { terminalSeat } from './humanSeat.js';

export const RUN_OPTIONS = {
  arch: EPISODE_OPTIONS.arch,
  task: EPISODE_OPTIONS.task,
  seed: { type: 'int', default: 0, help: 'task seed (the object layout)', group: 'Episode' },
  variant: EPISODE_OPTIONS.variant,
  prompts: EPISODE_OPTIONS.prompts,
  sim: EPISODE_OPTIONS.sim,
  agents: { type: 'int', min: 1, help: 'team size for simulators that take one (llamar: 1-5 robots; default 2)', group: 'Episode' },
  human: { type: 'list', help: "type that robot's dialog turns yourself (RoCo: --human Alice; repeatable; a blank line sends)", group: 'Episode' },
  grasp: {
    type: 'string',
    choices: ['friction', 'weld'],
    help: "how the embedded tabletop's grasps hold, for every robot API: friction (objects can slip and drop) or weld (held until the gripper opens; suction cups hold by vacuum in both)",
    defaultText: 'friction',
    group: 'Episode',
  },
  motion: {
    type: 'string',
    choices: ['planned', 'straight'],
    help: "how MALMM's execute_trajectory moves on the embedded tabletop: planned (a straight line when it is free, else a collision-free path around obstacles; a target no such path reaches fails) or straight (a straight line whatever it hits)",
    defaultText: 'planned',
    group: 'Episode',
  },
  robot: {
    type: 'string',
    choices: ['panda', 'iiwa'],
    help: "the embedded tabletop's robot on single-arm tasks: panda (each task's own Franka-class arm) or iiwa (KUKA iiwa 7 R800 with an Allegro-class hand; table-clearing tasks, docs/actctx.md)",
    defaultText: 'panda',
    group: 'Episode',
  },
  perception: {
    type: 'string',
    choices: PERCEPTION_MODES,
    default: 'ground-truth',
    help:
      "what the agents perceive: ground-truth, or estimated: MALMM's state text from a seeded estimate (noise, drop-outs under occlusion, the paper's jitter filter) " +
      'and detect_object from a seeded detector model (calibration offset, noise, failed part segmentation); docs/perception.md',
    group: 'Episode',
  },
  ...VISION_OPTION,
  ...LIMIT_OPTIONS,
  'host-python': { type: 'boolean', help: 'run generated code in your own python3 (numpy available) instead of the Pyodide sandbox: NO sandbox, trusted folders only', group: 'Limits' },
  ...MODEL_OPTIONS,
  verbose: { type: 'boolean', help: 'print whole messages and states', group: 'Output' },
  quiet: { type: 'boolean', help: 'print only the outcome and the trace path', group: 'Output' },
  ...WORKSPACE_OPTIONS,
} as const;

export type RunArgs = OptionValues<typeof RUN_OPTIONS>;

/** Engine options from the command line (only those given, so the engine's defaults apply to the rest). */
export function episodeOptionsFromArgs(a: Pick<RunArgs, 'code-timeout' | 'persist-namespace'> & { 'host-python'?: boolean; vision?: boolean }) {
  return {
    ...(a.vision ? { vision: true } : {}),
    ...(a['code-timeout'] !== undefined ? { codeTimeoutSecs: a['code-timeout'] } : {}),
    // Only the flag's presence says anything: without it the architecture's paper decides (codeNamespace).
    ...(a['persist-namespace'] ? { persistNamespace: true } : {}),
    ...(a['host-python'] ? { codeRunner: 'host-python' as const } : {}),
  };
}

/**
 * The architecture's limits by name: `--limit name=value` (repeatable; the syntax is checked by the option's
 * validator) plus the MALMM shorthands `--max-turns` and `--max-errors`. Names and values are checked against the
 * architecture's declarations before the run starts (preflight).
 */
export function limitsFromArgs(a: Pick<RunArgs, 'limit' | 'max-turns' | 'max-errors'>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const item of a.limit) {
    const eq = item.indexOf('=');
    out[item.slice(0, eq).trim()] = item.slice(eq + 1).trim();
  }
  if (a['max-turns'] !== undefined) out.maxTurns = a['max-turns'];
  if (a['max-errors'] !== undefined) out.maxConsecutiveErrors = a['max-errors'];
  return out;
}

/**
 * The model spec from the options. `note` receives a hint when the API key variable is unset (keyless local
 * servers are fine; OpenAI itself is not, so that is refused before anything starts).
 */
export function modelSpecFromArgs(
  a: Pick<RunArgs, 'model' | 'base-url' | 'api-key-env' | 'temperature' | 'max-tokens' | 'model-seed'> & { 'max-tokens-field'?: string; 'embedding-model'?: string; 'embedding-base-url'?: string },
  env: NodeJS.ProcessEnv,
  note: (line: string) => void = () => {},
): ModelSpec {
  const m = a.model;
  const eb = a['embedding-base-url'];
  if (eb !== undefined && !/^https?:\/\/[^/]/.test(eb)) throw new UsageError(`--embedding-base-url must be an http:// or https:// URL, got '${eb}'`);
  if (eb !== undefined && a['embedding-model'] === undefined && !(REFERENCE_PROFILES as readonly string[]).includes(m)) throw new UsageError('--embedding-base-url needs --embedding-model (the model to ask for there)');
  // A local folder is named by its absolute path (the shell's current directory, whatever --workspace says).
  const localDir = a['embedding-model'] !== undefined ? localModelDir(a['embedding-model'], process.cwd()) : undefined;
  if (localDir !== undefined && eb !== undefined) throw new UsageError('--embedding-base-url has no use with a local embedding model (it runs in this process)');
  const embeddingModel = localDir !== undefined ? `${LOCAL_PREFIX}${localDir}` : a['embedding-model'];
  const embedding = { ...(embeddingModel !== undefined ? { embeddingModel } : {}), ...(eb !== undefined ? { embeddingBaseUrl: eb } : {}) };
  if ((REFERENCE_PROFILES as readonly string[]).includes(m)) return { kind: 'reference', baseUrl: a['base-url'], profile: m as ReferenceProfile, ...(a['model-seed'] !== undefined ? { seed: a['model-seed'] } : {}), ...embedding };
  if (!m.startsWith('openai:') || m.length <= 'openai:'.length) throw new UsageError(`--model must be ${REFERENCE_PROFILES.join(', ')} or openai:<model-name>, got '${m}'`);
  const baseUrl = a['base-url'] ?? 'https://api.openai.com/v1';
  if (!/^https?:\/\/[^/]/.test(baseUrl)) throw new UsageError(`--base-url must be an http:// or https:// URL, got '${baseUrl}'`);
  const keyVar = a['api-key-env'];
  const apiKey = env[keyVar] || undefined;
  if (!apiKey) {
    if (/^https:\/\/api\.openai\.com(\/|$)/.test(baseUrl)) {
      throw new UsageError(`$${keyVar} is not set, and ${baseUrl} needs an API key (set it, or name another variable with --api-key-env)`);
    }
    note(`note: $${keyVar} is not set; calling ${baseUrl} without an API key (fine for Ollama, vLLM, LM Studio; use --api-key-env to name another variable)`);
  }
  const field = a['max-tokens-field'] === 'max_completion_tokens' ? ({ maxTokensField: 'max_completion_tokens' } as const) : {};
  return { kind: 'openai', model: m.slice('openai:'.length), baseUrl, apiKey, temperature: a.temperature, maxTokens: a['max-tokens'], seed: a['model-seed'], ...field, ...embedding };
}

/** `waypoint run`'s exit statuses, in `--help` and the README; 130/143 (interrupted) come from lifecycle.ts. */
export const RUN_EXIT = { success: 0, taskFailed: 1, cannotStart: 2, infrastructure: 3 } as const;

export const RUN_EXIT_HELP =
  '0 task success, 1 task failure, 2 bad input or a run that could not start, 3 infrastructure failure (the model endpoint unreachable or refusing the credentials, the simulator dead or disconnected, the sandbox not starting: the episode says nothing about the task; the trace ends model_error, simulator_error or sandbox_error), 130/143 interrupted (the trace ends "cancelled").';

/**
 * The exit status of an episode that ran to its end: a failure of the machinery (isInfrastructureEnd), whenever it
 * struck, is never counted as the task's; then a run refused before it started; then the simulator's verdict.
 */
export function runExitStatus(r: Pick<LaunchResult, 'success' | 'reason' | 'end'>): number {
  if (isInfrastructureEnd(r.reason)) return RUN_EXIT.infrastructure;
  if (endedBeforeStart(r.end)) return RUN_EXIT.cannotStart;
  return r.success ? RUN_EXIT.success : RUN_EXIT.taskFailed;
}

/** A path as the user would type it from here: relative when under the current directory. */
export function displayPath(p: string): string {
  const rel = relative(process.cwd(), p);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p;
}

/** The one stderr line for a run that did not start: the cause, then file:line. */
export function notStartedLine(command: string, r: Pick<LaunchResult, 'reason' | 'end'>, errorEvent?: { message: string; file?: string; line?: number }): string {
  const what = r.reason === 'prompt_error' ? 'prompt error: ' : '';
  const msg = errorEvent?.message ?? r.end.message ?? r.reason;
  const where = errorEvent?.file ? ` (${displayPath(errorEvent.file)}${errorEvent.line !== undefined ? `:${errorEvent.line}` : ''})` : '';
  return `waypoint ${command}: ${what}${msg}${where}`;
}

export async function runCommand(a: RunArgs, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  if (a.grasp !== undefined && !isEmbeddedSpec(a.sim)) throw new UsageError("--grasp sets the embedded simulator's grasp model; a protocol simulator chooses its own");
  if (a.robot !== undefined && !isEmbeddedSpec(a.sim)) throw new UsageError("--robot sets the embedded simulator's robot; a protocol simulator chooses its own");
  if (a.motion !== undefined && !isEmbeddedSpec(a.sim)) throw new UsageError("--motion sets the embedded simulator's motion planning; a protocol simulator chooses its own");
  const spec = modelSpecFromArgs(a, process.env, (l) => process.stderr.write(l + '\n'));
  const color = Boolean((out as NodeJS.WriteStream).isTTY) && !process.env.NO_COLOR;
  const write = (s: string) => out.write(s + '\n');
  const controller = new EpisodeController();
  const progress = Boolean(process.stderr.isTTY) && !a.quiet;
  let turns = 0;
  // Nothing is printed until the episode really starts: a refused run is one line on stderr, not a transcript.
  let started = false;
  const vision = visionTally();
  let refusal: { message: string; file?: string; line?: number } | undefined;
  controller.on((e) => {
    if (e.type !== 'trace_event') return;
    if (!started) {
      if (e.event.type === 'error') refusal = { message: e.event.message, file: e.event.file, line: e.event.line };
      return;
    }
    if (a.quiet && e.event.type !== 'episode_end' && e.event.type !== 'error') {
      noteVision(vision, e.event);
      return;
    }
    const text = formatEvent(e.event, { color, verbose: a.verbose, arch: a.arch, vision });
    if (progress) process.stderr.write('\r\x1b[K');
    if (text) write(text);
    if ('turn' in e.event && typeof e.event.turn === 'number') turns = Math.max(turns, e.event.turn);
    if (progress && e.event.type !== 'episode_end') process.stderr.write(`  … turn ${turns}`);
  });
  const root = findPackageRoot();
  if (a['host-python']) process.stderr.write(`warning: --host-python: ${HOST_PYTHON_WARNING}\n`);
  // People in robots' seats type at this terminal; the transcript goes to `out` as usual.
  const seat = a.human.length > 0 ? terminalSeat(a.human, process.stdin, process.stderr) : undefined;
  return whileCleaningUp(async (signal) => {
    const cancel = () => controller.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      const result = await launchRun(
        {
          workspace: resolve(a.workspace ?? process.cwd()),
          arch: a.arch,
          task: a.task,
          seed: a.seed,
          variant: a.variant,
          promptDir: a.prompts ? resolve(a.prompts) : undefined,
          builtInPromptRoot: builtInPromptRoot(root),
          model: spec,
          options: { ...episodeOptionsFromArgs(a), perception: a.perception as PerceptionMode },
          limits: limitsFromArgs(a),
          ...(a.agents !== undefined ? { agents: a.agents } : {}),
          cache: !a['no-cache'],
          controller,
          onStart: () => {
            started = true;
          },
          ...(seat ? { human: seat } : {}),
        },
        {
          io: nodeIO,
          clock: nodeClock,
          architectures,
          createSimulator: (needs) => connectSimulator(a.sim, { cwd: process.cwd(), family: needs?.family ?? architectureManifests.find(a.arch)?.simulator, ...(a.grasp ? { grasp: a.grasp as 'friction' | 'weld' } : {}), ...(a.perception ? { perception: a.perception as DetectorMode } : {}), ...(a.motion ? { motion: a.motion as 'planned' | 'straight' } : {}), ...(a.robot ? { robot: a.robot as 'panda' | 'iiwa' } : {}) }),
          createSandbox: (o) => (o?.codeRunner === 'host-python' ? createHostPythonSandbox() : createPyodideSandbox()),
        },
      );
      // Listeners run on setImmediate; let the last events print before the summary.
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      if (progress) process.stderr.write('\r\x1b[K');
      if (!started) {
        process.stderr.write(notStartedLine('run', result, refusal) + '\n');
        return runExitStatus(result);
      }
      write(`trace: ${result.tracePath}`);
      if (endedBeforeStart(result.end)) {
        // Refused by the engine after the trace began (the simulator could not reset, the sandbox did not start).
        process.stderr.write(notStartedLine('run', result) + '\n');
      } else if (isInfrastructureEnd(result.reason)) {
        process.stderr.write(`waypoint run: infrastructure failure (${result.reason}), not a task failure: ${result.message ?? result.reason}\n`);
      }
      return shutdownExitStatus() ?? runExitStatus(result);
    } finally {
      seat?.close();
      signal.removeEventListener('abort', cancel);
    }
  });
}

export const runCmd = defineCommand({
  name: 'run',
  summary: 'run one episode, print its transcript and the path of its trace',
  options: RUN_OPTIONS,
  examples: [
    'waypoint run --arch malmm --task stack_blocks --seed 0',
    'waypoint run --variant sa                      # the paper\'s single-agent baseline',
    'waypoint run --limit maxTurns=30               # limits by the seed paper\'s names (waypoint archs)',
    'waypoint run --sim "stdio:python3 my_sim.py"   # your simulator over the simulator protocol',
    'waypoint run --model openai:gpt-4o-mini        # key from $OPENAI_API_KEY',
    'waypoint run --model openai:llama3.1 --base-url http://127.0.0.1:11434/v1   # Ollama, no key',
  ],
  exitStatus: RUN_EXIT_HELP,
  run: ({ values }) => runCommand(values),
});

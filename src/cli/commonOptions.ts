// Option groups several commands share (run, compare, demo, runs, ...), declared once. A command spreads the
// groups it takes into its own declaration; parsing and --help come from there (options.ts).
import { architectures } from '../architectures/registry.js';
import { REFERENCE_PROFILES } from '../core/llm/reference/policy.js';
import { simulatorSpecProblem } from '../core/sim/connect.js';
import { MAX_SWEEP_SEEDS } from '../core/sweep/pairedSweep.js';
import type { OptionSpecs } from './options.js';

export const WORKSPACE_OPTIONS = {
  workspace: { type: 'string', metavar: 'dir', help: 'folder that holds .waypoint/ (runs, cache, variants)', defaultText: 'the current directory' },
} as const satisfies OptionSpecs;

/** What one episode is: architecture, task, prompts and variant (the seed is per command: run has one, compare many). */
export const EPISODE_OPTIONS = {
  arch: { type: 'string', metavar: 'id', default: 'malmm', choices: () => architectures.ids().sort(), help: 'agent architecture', group: 'Episode' },
  task: { type: 'string', metavar: 'id', default: 'stack_blocks', help: 'task of the simulator (`waypoint tasks` lists them)', group: 'Episode' },
  variant: {
    type: 'string',
    metavar: 'name',
    help: "prompt variant from .waypoint/variants.yaml or the architecture's built-in ones (malmm: malmm, ma, sa, sa_nofeedback)",
    defaultText: "the variants file's `active`, else default",
    group: 'Episode',
  },
  prompts: { type: 'string', metavar: 'dir', help: 'folder with the role .prompt files', defaultText: './prompts/<arch> if present, else the built-in prompts', group: 'Episode' },
  sim: {
    type: 'string',
    metavar: 'spec',
    default: 'embedded',
    help: "simulator: embedded (the architecture's own; embedded:robot=iiwa,grasp=weld,motion=straight,perception=estimated sets up the tabletop), stdio:<command line> (a simulator-protocol server started as a child process) or ws://host:port",
    validate: (v) => simulatorSpecProblem(v),
    group: 'Episode',
  },
} as const satisfies OptionSpecs;

export const VISION_OPTION = {
  vision: {
    type: 'boolean',
    help: "send the simulator's camera frames (protocol `images`, e.g. the AI2-THOR adapter's egocentric views) to the model as image parts: for a vision model; without it requests carry the text stand-in only",
    group: 'Episode',
  },
} as const satisfies OptionSpecs;

export const LIMIT_OPTIONS = {
  limit: {
    type: 'list',
    metavar: 'name=value',
    help: "an architecture limit by its seed paper's name, checked against the architecture's declarations (`waypoint archs` lists them)",
    validate: (v) => (/^[^=\s]+=\S/.test(v) ? undefined : `--limit takes name=value (e.g. --limit maxTurns=30), got '${v}'`),
    group: 'Limits',
  },
  'max-turns': { type: 'int', min: 1, help: "MALMM's turn cap (the same as --limit maxTurns=n)", group: 'Limits' },
  'max-errors': { type: 'int', min: 1, help: "MALMM's consecutive-error stop (the same as --limit maxConsecutiveErrors=n)", group: 'Limits' },
  'code-timeout': { type: 'number', min: 0, exclusiveMin: true, metavar: 'secs', defaultText: '10', help: 'time limit of one code block, seconds', group: 'Limits' },
  'persist-namespace': { type: 'boolean', help: 'keep Python variables between code blocks (default: as the paper: fresh per block in MALMM, one namespace per episode in trajgen)', group: 'Limits' },
} as const satisfies OptionSpecs;

export const MODEL_OPTIONS = {
  model: {
    type: 'string',
    metavar: 'm',
    default: 'reference',
    help: 'reference or reference-flawed (scripted reference policies, not LLMs), or openai:<model-name> for any OpenAI-compatible endpoint',
    validate: (m) => ((REFERENCE_PROFILES as readonly string[]).includes(m) || /^openai:.+/.test(m) ? undefined : `--model must be ${REFERENCE_PROFILES.join(', ')} or openai:<model-name>, got '${m}'`),
    group: 'Model',
  },
  'base-url': { type: 'string', metavar: 'url', help: 'endpoint for openai:<name> (OpenAI, Azure, Ollama, vLLM, LM Studio)', defaultText: 'https://api.openai.com/v1', group: 'Model' },
  'api-key-env': {
    type: 'string',
    metavar: 'VAR',
    default: 'OPENAI_API_KEY',
    help: 'environment variable that holds the API key (never written anywhere)',
    validate: (v) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(v) ? undefined : `--api-key-env must name an environment variable, got '${v}'`),
    group: 'Model',
  },
  temperature: { type: 'number', min: 0, max: 2, metavar: 't', help: 'sampling temperature', defaultText: "each prompt file's config", group: 'Model' },
  'max-tokens': { type: 'int', min: 1, help: 'completion token limit per call', group: 'Model' },
  'max-tokens-field': {
    type: 'string',
    metavar: 'field',
    choices: ['max_tokens', 'max_completion_tokens'],
    help: 'request field that carries the output limit: max_completion_tokens for OpenAI models that refuse max_tokens (`waypoint doctor` says which)',
    defaultText: 'max_tokens',
    group: 'Model',
  },
  'model-seed': { type: 'int', help: 'seed passed to the endpoint (where it supports one)', group: 'Model' },
  'embedding-model': {
    type: 'string',
    metavar: 'name',
    help: "sentence-embedding model LLaMAR matches free-form actions with: a model at the endpoint's /v1/embeddings (`waypoint doctor` names one), local:<dir> (a sentence-transformers BERT folder run in-process; a path starting with /, ./ or ../ too), or none (the lexical matcher)",
    defaultText: 'reference-embedding for the reference model (a hashed-words fixture); none for openai:<name>',
    group: 'Model',
  },
  'embedding-base-url': { type: 'string', metavar: 'url', help: 'endpoint for --embedding-model when it is not --base-url (sent no API key)', defaultText: '--base-url', group: 'Model' },
  'no-cache': { type: 'boolean', help: 'do not read or write the response cache (.waypoint/cache)', group: 'Model' },
} as const satisfies OptionSpecs;

export const SEEDS_OPTION = {
  seeds: { type: 'int', min: 1, max: MAX_SWEEP_SEEDS, default: 5, help: 'seeds 0..n-1, each run with the ablation on and off', group: 'Episode' },
} as const satisfies OptionSpecs;

// Typed view of the `waypoint.*` settings. Pure: the vscode-facing Config class (config.ts) hands in a getter, so
// parsing, defaults and validation are unit-tested without VS Code. Invalid values fall back to the default and
// are reported as issues (shown once in the output channel), never thrown.
import { architectureManifests } from '../architectures/manifests.js';

export type ModelProvider = 'reference' | 'reference-flawed' | 'openai' | 'vscode-lm';

export interface ModelSettingsConfig {
  provider: ModelProvider;
  /** OpenAI-compatible endpoint for provider 'openai'. */
  baseUrl: string;
  /** Model name sent to the endpoint (provider 'openai'). */
  name: string;
  temperature?: number;
  maxTokens?: number;
  /** The request field for the output limit: max_completion_tokens for OpenAI models that refuse max_tokens. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /**
   * LLaMAR's action matcher: an embedding model at the same endpoint (provider 'openai'), or `local:<folder>` (a
   * sentence-transformers folder run in the worker, any provider); undefined: the lexical matcher.
   */
  embeddingModel?: string;
  /** Selector for vscode.lm.selectChatModels (provider 'vscode-lm'); empty means any chat model. */
  vscodeLm: { vendor?: string; family?: string };
}

/** `spec`: "embedded", or "embedded:robot=iiwa,..." when the tabletop settings differ from their defaults. */
export type SimulatorConfig = { kind: 'embedded'; spec: string } | { kind: 'protocol'; endpoint: string };

export interface RunConfig {
  architecture: string;
  task: string;
  seed: number;
  maxTurns: number;
  maxConsecutiveErrors: number;
  codeTimeoutSecs: number;
  /** Run generated code in the user's own python3 (no sandbox); honoured only in a trusted workspace. */
  hostPython: boolean;
  useCache: boolean;
  /** Send the simulator's camera frames to the model (a vision model); off: the text stand-in only. */
  vision: boolean;
  /** Keep a run process loaded (Pyodide, MuJoCo) between live runs, started when a prompt opens. */
  keepWarm: boolean;
}

export interface WaypointSettings {
  model: ModelSettingsConfig;
  simulator: SimulatorConfig;
  run: RunConfig;
  languageServer: { enabled: boolean };
  /** Folders of architecture folders besides <workspace>/.waypoint/architectures/, as written (resolved by the host). */
  architectures: { paths: string[] };
}

export interface SettingsIssue {
  key: string;
  message: string;
}

/** Every key this extension reads, relative to the `waypoint` section, with its default. package.json mirrors it. */
export const SETTING_DEFAULTS = {
  'model.provider': 'reference',
  'model.baseUrl': 'https://api.openai.com/v1',
  'model.name': 'gpt-4o-mini',
  'model.temperature': null,
  'model.maxTokens': null,
  'model.maxTokensField': 'max_tokens',
  'model.embeddingModel': '',
  'model.vscodeLm.vendor': '',
  'model.vscodeLm.family': '',
  'simulator.kind': 'embedded',
  'simulator.endpoint': '',
  'simulator.robot': 'panda',
  'simulator.grasp': 'friction',
  'simulator.motion': 'planned',
  'run.architecture': 'malmm',
  'run.task': 'stack_blocks',
  'run.seed': 0,
  'run.maxTurns': 150,
  'run.maxConsecutiveErrors': 5,
  'run.codeTimeoutSecs': 10,
  'run.hostPython': false,
  'run.useCache': true,
  'run.vision': false,
  'run.keepWarm': true,
  'languageServer.enabled': true,
  'architectures.paths': [],
} as const satisfies Record<string, string | number | boolean | null | readonly string[]>;

export type SettingKey = keyof typeof SETTING_DEFAULTS;

/** The embedded tabletop's settings and their values (`waypoint run --robot/--grasp/--motion`). */
const TABLETOP_CHOICES = { robot: ['panda', 'iiwa'], grasp: ['friction', 'weld'], motion: ['planned', 'straight'] } as const;

/** Keys whose change needs the language server restarted (rust-analyzer's requiresServerReloadOpts). */
export const RESTART_SERVER_KEYS: readonly SettingKey[] = ['languageServer.enabled', 'architectures.paths'];

/**
 * Keys that a workspace must not be able to set in an untrusted folder (package.json `restrictedConfigurations`):
 * a hostile workspace could otherwise send the user's API key to its own URL or start its own simulator command.
 */
export const RESTRICTED_KEYS: readonly SettingKey[] = ['model.baseUrl', 'simulator.kind', 'simulator.endpoint', 'run.hostPython', 'architectures.paths'];

const PROVIDERS: readonly ModelProvider[] = ['reference', 'reference-flawed', 'openai', 'vscode-lm'];

export function parseSettings(get: (key: SettingKey) => unknown): { settings: WaypointSettings; issues: SettingsIssue[] } {
  const issues: SettingsIssue[] = [];
  const bad = (key: SettingKey, why: string) => issues.push({ key: `waypoint.${key}`, message: `waypoint.${key} ${why}; using the default ${JSON.stringify(SETTING_DEFAULTS[key])}` });

  const str = (key: SettingKey): string => {
    const v = get(key);
    if (v === undefined || v === null) return SETTING_DEFAULTS[key] as string;
    if (typeof v !== 'string') {
      bad(key, `must be a string, got ${JSON.stringify(v)}`);
      return SETTING_DEFAULTS[key] as string;
    }
    return v.trim();
  };
  const int = (key: SettingKey, min: number): number => {
    const v = get(key);
    if (v === undefined || v === null) return SETTING_DEFAULTS[key] as number;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
      bad(key, `must be an integer >= ${min}, got ${JSON.stringify(v)}`);
      return SETTING_DEFAULTS[key] as number;
    }
    return v;
  };
  const optNum = (key: SettingKey, min: number, max: number, integer: boolean): number | undefined => {
    const v = get(key);
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
      bad(key, `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max} or null, got ${JSON.stringify(v)}`);
      return undefined;
    }
    return v;
  };
  const oneOf = (key: SettingKey, choices: readonly string[]): string => {
    const v = str(key);
    if (choices.includes(v)) return v;
    bad(key, `must be one of ${choices.join(', ')}, got ${JSON.stringify(v)}`);
    return SETTING_DEFAULTS[key] as string;
  };
  const bool = (key: SettingKey): boolean => {
    const v = get(key);
    if (v === undefined || v === null) return SETTING_DEFAULTS[key] as boolean;
    if (typeof v !== 'boolean') {
      bad(key, `must be true or false, got ${JSON.stringify(v)}`);
      return SETTING_DEFAULTS[key] as boolean;
    }
    return v;
  };

  let provider = str('model.provider') as ModelProvider;
  if (!PROVIDERS.includes(provider)) {
    bad('model.provider', `must be one of ${PROVIDERS.join(', ')}, got ${JSON.stringify(provider)}`);
    provider = SETTING_DEFAULTS['model.provider'];
  }
  let baseUrl = str('model.baseUrl');
  if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) {
    bad('model.baseUrl', `must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
    baseUrl = SETTING_DEFAULTS['model.baseUrl'];
  }
  let name = str('model.name');
  if (!name) {
    bad('model.name', 'is empty');
    name = SETTING_DEFAULTS['model.name'];
  }
  let maxTokensField = str('model.maxTokensField') as ModelSettingsConfig['maxTokensField'];
  if (maxTokensField !== 'max_tokens' && maxTokensField !== 'max_completion_tokens') {
    bad('model.maxTokensField', `must be "max_tokens" or "max_completion_tokens", got ${JSON.stringify(maxTokensField)}`);
    maxTokensField = 'max_tokens';
  }
  let embeddingModel: string | undefined = str('model.embeddingModel').trim() || undefined;
  // A model name at the endpoint, or local:<folder> (any path; relative to the workspace folder).
  if (embeddingModel && !(/^[\w.:/@-]+$/.test(embeddingModel) || /^local:[^\p{C}]+$/u.test(embeddingModel))) {
    bad('model.embeddingModel', `must be a model name or local:<folder>, got ${JSON.stringify(embeddingModel)}`);
    embeddingModel = undefined;
  }
  const vendor = str('model.vscodeLm.vendor');
  const family = str('model.vscodeLm.family');

  // The embedded tabletop's settings, as the simulator spec says them (connect.ts): only those off their default.
  const tabletop = (['robot', 'grasp', 'motion'] as const).flatMap((k) => {
    const key = `simulator.${k}` as const;
    const v = oneOf(key, TABLETOP_CHOICES[k]);
    return v === SETTING_DEFAULTS[key] ? [] : [`${k}=${v}`];
  });
  let simulator: SimulatorConfig = { kind: 'embedded', spec: tabletop.length ? `embedded:${tabletop.join(',')}` : 'embedded' };
  const simKind = str('simulator.kind');
  if (simKind === 'protocol') {
    const endpoint = str('simulator.endpoint');
    if (/^wss?:\/\/\S+$/.test(endpoint) || /^stdio:\s*\S/.test(endpoint)) simulator = { kind: 'protocol', endpoint };
    else issues.push({ key: 'waypoint.simulator.endpoint', message: `waypoint.simulator.endpoint must be "ws://host:port" or "stdio:<command line>" when waypoint.simulator.kind is "protocol", got ${JSON.stringify(endpoint)}; using the embedded simulator` });
  } else if (simKind !== 'embedded') {
    bad('simulator.kind', `must be "embedded" or "protocol", got ${JSON.stringify(simKind)}`);
  }

  const idLike = (key: SettingKey): string => {
    const v = str(key);
    if (!/^[A-Za-z0-9_.-]+$/.test(v)) {
      bad(key, `must be an id (letters, digits, _ . -), got ${JSON.stringify(v)}`);
      return SETTING_DEFAULTS[key] as string;
    }
    return v;
  };
  const codeTimeout = get('run.codeTimeoutSecs');
  let codeTimeoutSecs: number = SETTING_DEFAULTS['run.codeTimeoutSecs'];
  if (codeTimeout !== undefined && codeTimeout !== null) {
    if (typeof codeTimeout === 'number' && Number.isFinite(codeTimeout) && codeTimeout > 0 && codeTimeout <= 600) codeTimeoutSecs = codeTimeout;
    else bad('run.codeTimeoutSecs', `must be a number of seconds from 0 to 600, got ${JSON.stringify(codeTimeout)}`);
  }

  const strings = (key: SettingKey): string[] => {
    const v = get(key);
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || v.some((p) => typeof p !== 'string')) {
      bad(key, `must be an array of folder paths, got ${JSON.stringify(v)}`);
      return [];
    }
    return v.map((p: string) => p.trim()).filter((p) => p !== '');
  };

  const settings: WaypointSettings = {
    model: {
      provider,
      baseUrl: baseUrl.replace(/\/+$/, ''),
      name,
      temperature: optNum('model.temperature', 0, 2, false),
      maxTokens: optNum('model.maxTokens', 1, 1_000_000, true),
      maxTokensField,
      ...(embeddingModel ? { embeddingModel } : {}),
      vscodeLm: { ...(vendor ? { vendor } : {}), ...(family ? { family } : {}) },
    },
    simulator,
    run: {
      architecture: idLike('run.architecture'),
      task: idLike('run.task'),
      seed: int('run.seed', 0),
      maxTurns: int('run.maxTurns', 1),
      maxConsecutiveErrors: int('run.maxConsecutiveErrors', 1),
      codeTimeoutSecs,
      hostPython: bool('run.hostPython'),
      useCache: bool('run.useCache'),
      vision: bool('run.vision'),
      keepWarm: bool('run.keepWarm'),
    },
    languageServer: { enabled: bool('languageServer.enabled') },
    architectures: { paths: strings('architectures.paths') },
  };
  return { settings, issues };
}

/** True when an endpoint is on this machine (a local server such as Ollama usually needs no key). */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/** SecretStorage key for an endpoint's API key: one key per origin, so a key typed for one server never goes to another. */
export function apiKeySecretName(baseUrl: string): string {
  let origin: string;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    origin = baseUrl;
  }
  return `waypoint.apiKey:${origin}`;
}

/** Which settings changed between two snapshots (keys relative to `waypoint`). */
export function changedKeys(before: WaypointSettings, after: WaypointSettings): string[] {
  const flat = (o: unknown, prefix: string, out: Record<string, string>) => {
    if (o && typeof o === 'object' && !Array.isArray(o)) for (const [k, v] of Object.entries(o)) flat(v, prefix ? `${prefix}.${k}` : k, out);
    else out[prefix] = JSON.stringify(o);
    return out;
  };
  const a = flat(before, '', {});
  const b = flat(after, '', {});
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
}

/**
 * The limits a live run passes to an architecture: the turn cap and the consecutive-error limit settings, for the
 * architectures that declare limits of those names (MALMM); every other limit keeps its declared default.
 */
export function limitsFromSettings(archId: string, s: WaypointSettings, declared: { find(id: string): { limits: { id: string }[] } | undefined } = architectureManifests): Record<string, number> {
  const ids = new Set(declared.find(archId)?.limits.map((l) => l.id) ?? []);
  const out: Record<string, number> = {};
  if (ids.has('maxTurns')) out.maxTurns = s.run.maxTurns;
  if (ids.has('maxConsecutiveErrors')) out.maxConsecutiveErrors = s.run.maxConsecutiveErrors;
  return out;
}

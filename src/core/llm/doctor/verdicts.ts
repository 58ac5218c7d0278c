// From what the probes found to what a user should do: per architecture, whether it will work with this endpoint
// and why, and the flags to pass. Pure: the needs come from each architecture's manifest (modelNeeds) and its role
// prompts (output limits, temperatures), read by loadArchNeeds.
import { join } from 'node:path';
import { ownPromptDir } from '../../architecture/promptFiles.js';
import type { ArchitectureManifest, ModelNeeds } from '../../architecture/types.js';
import type { HostIO } from '../../host.js';
import { loadPromptFile } from '../../prompt/render.js';
import type { Audience, Findings, Mark } from './probes.js';

export interface ArchNeeds {
  id: string;
  label: string;
  /** The largest `maxOutputTokens` its role prompts ask for, and which prompt. */
  maxOutput?: { tokens: number; prompt: string };
  /** The temperatures its role prompts set (distinct, sorted). */
  temperatures: number[];
  modelNeeds?: ModelNeeds;
}

/** Each architecture's needs: its manifest's modelNeeds and its built-in role prompts' configs (under promptRoot/<arch>/prompts/). */
export async function loadArchNeeds(io: HostIO, promptRoot: string, manifests: readonly ArchitectureManifest[]): Promise<ArchNeeds[]> {
  const out: ArchNeeds[] = [];
  for (const m of manifests) {
    let maxOutput: ArchNeeds['maxOutput'];
    const temps = new Set<number>();
    for (const role of m.roles) {
      const file = await loadPromptFile(io, join(ownPromptDir(m, promptRoot), role.promptFile)).catch(() => undefined);
      if (!file) continue;
      const t = file.config.maxOutputTokens;
      if (t !== undefined && (!maxOutput || t > maxOutput.tokens)) maxOutput = { tokens: t, prompt: `${m.id}/${role.promptFile}` };
      if (file.config.temperature !== undefined) temps.add(file.config.temperature);
    }
    out.push({ id: m.id, label: m.label, ...(maxOutput ? { maxOutput } : {}), temperatures: [...temps].sort((a, b) => a - b), ...(m.modelNeeds ? { modelNeeds: m.modelNeeds } : {}) });
  }
  return out;
}

export interface ArchVerdict {
  id: string;
  label: string;
  mark: Mark;
  /** Why, one short clause each, the blocking ones first. */
  reasons: string[];
  /** Flags this architecture needs beyond the common ones. */
  flags: string[];
}

export interface RunAdvice {
  /** The flags every run against this endpoint needs, as one command line (audience cli). */
  command: string;
  /** The settings to make, `key: value` (audience vscode; then `command` is empty). */
  settings?: string[];
  /** What to change that no flag does (said once, not per architecture). */
  notes: string[];
  /** The sweep file's model and rateLimit, when the endpoint told its limits. */
  sweep?: string;
}

export interface AdviceContext {
  /** As the user passed it: `openai:<name>` (or `reference` for the reference server). */
  modelArg: string;
  baseUrl: string;
  apiKeyEnv: string;
  /** The key came from the environment (so runs need the same variable). */
  keyGiven: boolean;
  /** Probed through Azure's classic deployment URL (api-version, api-key header), which runs cannot use. */
  azureDeploymentUrl?: boolean;
  audience?: Audience;
}

/** An LLM's answers run longer than the scripted policy's, and they stay in the history: about twice as long. */
export const LLM_GROWTH = 2;

/** The context an architecture needs: its longest measured request (×LLM_GROWTH for `comfortable`) plus its largest output limit. */
export function contextNeed(a: ArchNeeds): { minimum: number; comfortable: number } | undefined {
  const longest = a.modelNeeds?.longestRequest.tokens;
  if (longest === undefined) return undefined;
  const out = a.maxOutput?.tokens ?? 0;
  return { minimum: longest + out, comfortable: longest * LLM_GROWTH + out };
}

export function archVerdicts(f: Findings, archs: readonly ArchNeeds[], c: AdviceContext): ArchVerdict[] {
  return archs.map((a) => verdict(f, a, c));
}

function verdict(f: Findings, a: ArchNeeds, c: AdviceContext): ArchVerdict {
  const v: ArchVerdict = { id: a.id, label: a.label, mark: 'ok', reasons: [], flags: [] };
  const block = (r: string) => {
    v.mark = 'fail';
    v.reasons.unshift(r);
  };
  const doubt = (r: string) => {
    if (v.mark === 'ok') v.mark = 'unknown';
    v.reasons.push(r);
  };
  const note = (r: string) => v.reasons.push(r);
  if (!f.chatOk) {
    block('chat completions do not work');
    return v;
  }
  if (f.scripted) {
    note('the scripted policy plays its roles (with --model reference)');
    return v;
  }
  if (c.azureDeploymentUrl) block('runs cannot call a deployment URL (no api-version setting): use https://<resource>.openai.azure.com/openai/v1 with --model openai:<deployment>');
  const out = a.maxOutput;
  if (f.maxTokensField === 'none' && out) block(`every role sends an output limit (up to ${out.tokens} in ${out.prompt}) and the model refuses max_tokens and max_completion_tokens`);
  if (f.temperatureZero === false && a.temperatures.includes(0)) {
    block('its prompts ask for temperature 0, which the model refuses (see below)');
  }
  if (f.maxTokensIgnored && out) note(`answers are not cut at the prompts' limits (up to ${out.tokens} tokens): slower, costlier calls`);

  const need = contextNeed(a);
  const longest = a.modelNeeds?.longestRequest;
  if (need && longest) {
    const ctx = f.context?.tokens;
    const why = `its requests reach ≈${longest.tokens} tokens with the scripted policy (${longest.grows})${out ? `, plus up to ${out.tokens} of output` : ''}`;
    if (ctx === undefined) {
      // Nearly every chat model today has 8k or more; past that, say what is needed.
      if (need.comfortable > 8192) doubt(`needs ≈${need.comfortable} tokens of context, which the server does not report: ${why}`);
    } else if (ctx >= need.comfortable) {
      note(`context ${ctx} ≥ the ≈${need.comfortable} it needs`);
    } else {
      const room = roundDown(ctx - longest.tokens * LLM_GROWTH, 64);
      const fix = out && room >= 256 && room < out.tokens ? room : undefined;
      if (fix) v.flags.push(`--max-tokens ${fix}`);
      if (ctx < need.minimum && !fix) block(`context ${ctx} is too short: ${why}; ${roundUpPow2(need.comfortable)} or more fits`);
      else doubt(`context ${ctx} is below the ≈${need.comfortable} an LLM's longer answers would take: ${why}${fix ? `; --max-tokens ${fix} leaves room for the prompt` : ''}`);
    }
  }
  const mn = a.modelNeeds;
  if (mn?.embeddings) {
    note(
      f.embeddings
        ? `action matching: this endpoint's embeddings with --embedding-model ${f.embeddings.model} (the paper's matcher); without it, the lexical fallback matcher`
        : 'action matching: the lexical fallback matcher (this endpoint serves no embeddings; --embedding-base-url can name another that does)',
    );
  }
  if (mn?.vision) {
    note(
      f.images === 'seen'
        ? 'images: this model reads images: --vision (a sweep\'s vision: true) sends the frames of a simulator that has cameras (the AI2-THOR adapter); without it, the text stand-in'
        : `images: the text stand-in${f.images === 'refused' ? ' (this model refuses images: leave --vision off)' : ''}`,
    );
  }
  return v;
}

/** The command line every run against this endpoint needs, and a sweep file's model section. */
export function runAdvice(f: Findings, c: AdviceContext): RunAdvice {
  if ((c.audience ?? 'cli') === 'vscode') return settingsAdvice(f, c);
  if (f.scripted) {
    const why = 'The reference server is a scripted policy, not an LLM: it picks each role\'s answer from the x-waypoint-* headers Waypoint sends with --model reference; called as openai:<name> it gets none and says so.';
    return { command: `waypoint run --model reference --base-url ${f.baseUrl}`, notes: [why] };
  }
  const notes: string[] = [];
  // The prompt's own temperature wins over --temperature, so only the prompts can stop asking for 0.
  if (f.temperatureZero === false) notes.push('The built-in prompts ask for temperature 0, which this model refuses: copy them (--prompts <dir>, or "Waypoint: Copy Prompt to Workspace") and delete their temperature line.');
  if (f.provider.id === 'ollama') notes.push("Ollama's context is set on the server: OLLAMA_CONTEXT_LENGTH=<tokens> ollama serve, or a Modelfile with PARAMETER num_ctx <tokens>.");
  const parts = [`waypoint run --model ${c.modelArg} --base-url ${c.azureDeploymentUrl ? 'https://<resource>.openai.azure.com/openai/v1' : f.baseUrl}`];
  if (c.keyGiven && c.apiKeyEnv !== 'OPENAI_API_KEY') parts.push(`--api-key-env ${c.apiKeyEnv}`);
  if (f.maxTokensField === 'max_completion_tokens') parts.push('--max-tokens-field max_completion_tokens');
  // LLaMAR matches free-form actions with embeddings when the run names a model for them.
  if (f.embeddings) parts.push(`--embedding-model ${f.embeddings.model}`);
  const rpm = Number(f.rateLimits?.['x-ratelimit-limit-requests']);
  const tpm = Number(f.rateLimits?.['x-ratelimit-limit-tokens']);
  const limits = [Number.isInteger(rpm) && rpm > 0 ? `requestsPerMinute: ${rpm}` : '', Number.isInteger(tpm) && tpm > 0 ? `tokensPerMinute: ${tpm}` : ''].filter(Boolean);
  const model = [`name: ${c.modelArg}`, `baseUrl: ${f.baseUrl}`, ...(c.apiKeyEnv !== 'OPENAI_API_KEY' ? [`apiKeyEnv: ${c.apiKeyEnv}`] : []), ...(f.maxTokensField === 'max_completion_tokens' ? ['maxTokensField: max_completion_tokens'] : []), ...(f.embeddings ? [`embeddingModel: ${f.embeddings.model}`] : [])];
  const sweep = `model: { ${model.join(', ')} }${limits.length ? `\nrateLimit: { ${limits.join(', ')} }${f.provider.id === 'openai' ? '  # OpenAI counts these per minute' : ''}` : ''}`;
  return { command: parts.join(' '), notes, sweep };
}

/** The same advice as VS Code settings. */
function settingsAdvice(f: Findings, c: AdviceContext): RunAdvice {
  if (f.scripted) return { command: '', settings: ['waypoint.model.provider: reference'], notes: [] };
  const settings = ['waypoint.model.provider: openai', `waypoint.model.baseUrl: ${c.azureDeploymentUrl ? 'https://<resource>.openai.azure.com/openai/v1' : f.baseUrl}`, `waypoint.model.name: ${c.modelArg.replace(/^openai:/, '')}`];
  if (f.maxTokensField === 'max_completion_tokens') settings.push('waypoint.model.maxTokensField: max_completion_tokens');
  const notes = f.temperatureZero === false ? ['The built-in prompts ask for temperature 0, which this model refuses: copy them ("Waypoint: Copy Prompt to Workspace") and delete their temperature line.'] : [];
  if (f.provider.id === 'ollama') notes.push("Ollama's context is set on the server: OLLAMA_CONTEXT_LENGTH=<tokens> ollama serve, or a Modelfile with PARAMETER num_ctx <tokens>.");
  return { command: '', settings, notes };
}

/** A per-architecture flag as the VS Code setting that does the same. */
export function flagAsSetting(flag: string): string {
  const m = /^--max-tokens (\d+)$/.exec(flag);
  return m ? `waypoint.model.maxTokens: ${m[1]}` : flag;
}

function roundDown(n: number, step: number): number {
  return Math.floor(n / step) * step;
}

function roundUpPow2(n: number): number {
  let p = 1024;
  while (p < n) p *= 2;
  return p;
}

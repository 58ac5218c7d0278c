// The prompt version of an episode: one hash over the text of every prompt file its agent topology uses (each file's
// sha256, as the trace's episode_start records it in `prompts`), the topology, and the ablation switches in effect
// after the variant and the sweep cell's overrides. A sweep computes it before running (from the files on disk) and
// again from each finished episode's trace (what really ran), so an edited prompt re-runs exactly the episodes that
// use it, and an edit made while the sweep ran is caught instead of counted.
import { createHash } from 'node:crypto';
import { sha256Hex } from '../engine/hash.js';
import type { HostIO } from '../host.js';
import { canonicalJson } from '../llm/cache.js';
import type { Preflight } from '../runs/preflight.js';

/** Characters of the version shown in matrices and kept in records (48 bits: no accidental collisions in a sweep). */
export const PROMPT_VERSION_CHARS = 12;

export interface PromptIdentity {
  /** Agent topology (e.g. MALMM's sa). */
  agent: string;
  /** Role -> sha256 of its prompt file's text, for the roles the topology calls. */
  prompts: Record<string, string>;
  /** Switches in effect (the variant's, with the cell's laid over). */
  ablations: Record<string, boolean>;
}

export function promptVersion(id: PromptIdentity): string {
  return createHash('sha256').update(canonicalJson(id)).digest('hex').slice(0, PROMPT_VERSION_CHARS);
}

/** From a run's checked inputs (preflightRun) and the files on disk now. */
export async function promptIdentityOf(io: HostIO, pre: Preflight): Promise<PromptIdentity> {
  const prompts: Record<string, string> = {};
  for (const role of pre.arch.topologies[pre.agent]?.roles ?? []) {
    const path = pre.promptPaths[role];
    if (path) prompts[role] = sha256Hex(await io.readText(path));
  }
  return { agent: pre.agent, prompts, ablations: { ...pre.variant.ablations } };
}

/** From a trace's episode_start: what the episode really ran. */
export function promptIdentityOfStart(start: { agentVariant?: string; prompts?: readonly { role: string; sha256: string }[]; ablations?: Record<string, boolean> }): PromptIdentity {
  // Tolerant of a partial start (a run refused before it began writes no prompts): it then matches no plan.
  return { agent: start.agentVariant ?? '', prompts: Object.fromEntries((start.prompts ?? []).map((p) => [p.role, p.sha256])), ablations: { ...(start.ablations ?? {}) } };
}

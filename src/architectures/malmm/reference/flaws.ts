// The reference-flawed profile's mistakes: a FIXTURE for exercising the tool (failure views, retry diffs, paired
// comparisons), never a finding about language models. Every draw is a hash of the request (the conversation
// after the system prompt, the role, the request seed and the mistake's name), so the same request always gets the
// same answer: replays, caches and forks stay coherent, and the same task seed makes the same mistakes. The system
// prompt is left out of the hash on purpose: switching an ablation changes behaviour through the rule it removes,
// not through a reshuffle of every draw. Rates and mechanics: docs/reference-model.md.
import { createHash } from 'node:crypto';
import type { ChatMessage } from '../../../protocol/trace.js';
import type { PolicyContext } from '../../../core/llm/reference/policy.js';

/** Per-opportunity probabilities of each mistake under `reference-flawed` (docs/reference-model.md). */
export const FLAW_RATES = {
  /** Per code block written after an earlier one: a value defined in an earlier block is used without defining it. */
  nameError: 0.1,
  /** Per step after the first in one block: the step uses a name the block never assigns (long blocks fail midway). */
  nameErrorInBlock: 0.04,
  /** After a NameError is reported: the retry still leaves the name undefined. */
  nameErrorNotFixed: 0.3,
  /** Per grasp in a plan: the yaw's sign is flipped. */
  wrongYaw: 0.12,
  /** Per pick in a plan: no lift after closing the gripper; the arm goes straight to the destination. */
  missingLift: 0.1,
  /** Per check by the Planner (or single agent) when some goal is done and another is not: declares the task done. */
  prematureDone: 0.08,
  /** Per pick in a plan: the grasp's x and y are rounded to one decimal instead of read from the state. */
  inventedCoordinates: 0.07,
  /** Per answer of the Coder, the single agent or the Supervisor: the answer breaks the output format. */
  formatSlip: 0.03,
} as const;

export type FlawKind = keyof typeof FLAW_RATES;

// Recovering is not harder in a long conversation, and a format slip is a matter of habit, not of context.
const UNSCALED: ReadonlySet<FlawKind> = new Set(['nameErrorNotFixed', 'formatSlip']);

/**
 * The rates hold for a request of this many characters (system prompt and chat); a longer request slips
 * proportionally more often (factor clamped to [1, 4]): the long-context effect the seeds
 * describe, where one agent that reads everything forgets more than a specialised one.
 */
export const CONTEXT_REF_CHARS = 12_000;
export const CONTEXT_FACTOR_RANGE: readonly [number, number] = [1, 4];

export function contextFactor(chars: number): number {
  return Math.min(CONTEXT_FACTOR_RANGE[1], Math.max(CONTEXT_FACTOR_RANGE[0], chars / CONTEXT_REF_CHARS));
}

export class Flaws {
  readonly #key: string;
  /** The context-length factor applied to every rate of this request. */
  readonly scale: number;
  constructor(
    readonly enabled: boolean,
    messages: readonly ChatMessage[],
    context: Pick<PolicyContext, 'seed' | 'meta'>,
  ) {
    const chat = messages.filter((m) => m.role !== 'system').map((m) => `${m.role}\u0000${m.content}`);
    this.scale = contextFactor(messages.reduce((n, m) => n + m.content.length, 0));
    this.#key = sha([context.meta?.role ?? '', context.meta?.agent ?? '', String(context.seed ?? ''), ...chat].join('\u0001'));
  }

  /** A uniform number in [0, 1) for this request, mistake and index. */
  roll(kind: string, index = 0): number {
    return parseInt(sha(`${this.#key}/${kind}/${index}`).slice(0, 12), 16) / 2 ** 48;
  }

  /** Whether mistake `kind` happens at opportunity `index` (never under the competent profile). */
  happens(kind: FlawKind, index = 0, scale = 1): boolean {
    const context = UNSCALED.has(kind) ? 1 : this.scale;
    return this.enabled && this.roll(kind, index) < FLAW_RATES[kind] * context * scale;
  }
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

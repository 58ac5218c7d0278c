// Scripted policies behind the reference model: deterministic functions from a chat to an answer in the role's
// format. They are labelled everywhere as "scripted, not an LLM". Per-architecture policies live in
// ./policies/ and register themselves with `registerPolicy(arch, role, fn)`.
import type { ChatMessage } from '../../../protocol/trace.js';
import type { RequestMeta } from '../client.js';
import { findRoleMarker } from '../roleMarker.js';

export const REFERENCE_MODEL_NAME = 'reference';
export const REFERENCE_LABEL = 'reference (scripted, not an LLM)';

/** The reference model's profiles: competent and deterministic, or with seeded mistakes (docs/reference-model.md). */
export const REFERENCE_PROFILES = ['reference', 'reference-flawed'] as const;
export type ReferenceProfile = (typeof REFERENCE_PROFILES)[number];

/** The label shown everywhere for a reference profile: never mistakable for an LLM. */
export function referenceLabel(profile: string): string {
  return profile === 'reference-flawed' ? 'reference-flawed (scripted, not an LLM; seeded mistakes)' : REFERENCE_LABEL;
}

/** What a policy may know beside the messages: who is asking (request metadata) and the request's seed. */
export interface PolicyRequest {
  meta?: RequestMeta;
  seed?: number;
}

export interface ScriptedPolicy {
  id: string;
  answer(messages: ChatMessage[], request?: PolicyRequest): string;
}

/** What a role policy is told: the profile it plays and the request. */
export interface PolicyContext extends PolicyRequest {
  profile: ReferenceProfile;
}

export type RolePolicyFn = (messages: ChatMessage[], context: PolicyContext) => string;

const NAME_RE = /^[a-z0-9_-]+$/;

/** Role policies keyed by "architecture/role". */
export class RolePolicyRegistry {
  readonly #byRole = new Map<string, RolePolicyFn>();

  register(architecture: string, role: string, fn: RolePolicyFn): void {
    if (!NAME_RE.test(architecture) || !NAME_RE.test(role)) {
      throw new Error(`registerPolicy: architecture and role must match [a-z0-9_-]+, got "${architecture}/${role}"`);
    }
    const key = `${architecture}/${role}`;
    if (this.#byRole.has(key)) throw new Error(`registerPolicy: a policy for "${key}" is already registered`);
    this.#byRole.set(key, fn);
  }

  get(architecture: string, role: string): RolePolicyFn | undefined {
    return this.#byRole.get(`${architecture}/${role}`);
  }

  /** Registered "architecture/role" keys, sorted. */
  list(): string[] {
    return [...this.#byRole.keys()].sort();
  }
}

/** The registry the `reference` model serves; ./policies/ fills it at import time. */
export const defaultRolePolicies = new RolePolicyRegistry();

export function registerPolicy(architecture: string, role: string, fn: RolePolicyFn): void {
  defaultRolePolicies.register(architecture, role, fn);
}

/**
 * A policy that finds the role in the request's metadata (the `x-waypoint-*` headers the engine sends) and hands
 * the chat to that role's policy. Clients that cannot send headers (curl, an old prompt) may put a
 * `[waypoint-role: <architecture>/<role>]` line in the system prompt instead. Without either, or without a policy
 * for the role, it answers with a plain explanation (the caller's parser then reports a format error) instead of
 * failing the HTTP request.
 */
export function roleDispatchPolicy(registry: RolePolicyRegistry, profile: ReferenceProfile = 'reference'): ScriptedPolicy {
  const label = referenceLabel(profile);
  return {
    id: profile,
    answer(messages, request = {}) {
      const marker = findRoleMarker(messages);
      const ref = request.meta ?? (marker ? { arch: marker.architecture, role: marker.role } : undefined);
      if (!ref) {
        return `The ${label} received no role (no x-waypoint-arch / x-waypoint-role headers), so it cannot tell which role to play.`;
      }
      const fn = registry.get(ref.arch, ref.role);
      if (!fn) {
        const known = registry.list();
        return `The ${label} has no policy for role "${ref.arch}/${ref.role}". Registered roles: ${known.length ? known.join(', ') : '(none)'}.`;
      }
      return fn(messages, { ...request, meta: { ...ref }, profile });
    },
  };
}

/** Models served by default: every profile, dispatching over `registry` (the default registry unless given). */
export function defaultReferenceModels(registry: RolePolicyRegistry = defaultRolePolicies): Map<string, ScriptedPolicy> {
  return new Map(REFERENCE_PROFILES.map((p) => [p, roleDispatchPolicy(registry, p)]));
}

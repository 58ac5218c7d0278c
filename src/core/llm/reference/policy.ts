// Scripted policies behind the reference model: deterministic functions from a chat to an answer in the role's
// format. They are labelled everywhere as "scripted, not an LLM". Per-architecture policies live in
// ./policies/ and register themselves with `registerPolicy(arch, role, fn)`.
import type { ChatMessage } from '../../../protocol/trace.js';
import { findRoleMarker } from '../roleMarker.js';

export const REFERENCE_MODEL_NAME = 'reference';
export const REFERENCE_LABEL = 'reference (scripted, not an LLM)';

export interface ScriptedPolicy {
  id: string;
  answer(messages: ChatMessage[]): string;
}

export type RolePolicyFn = (messages: ChatMessage[]) => string;

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
 * A policy that reads the role marker in the system prompt and hands the chat to that role's policy. Without a
 * marker or a policy for the role it answers with a plain explanation (the caller's parser will then report a
 * format error) instead of failing the HTTP request.
 */
export function roleDispatchPolicy(registry: RolePolicyRegistry, id = REFERENCE_MODEL_NAME): ScriptedPolicy {
  return {
    id,
    answer(messages) {
      const ref = findRoleMarker(messages);
      if (!ref) {
        return `The ${REFERENCE_LABEL} found no "[waypoint-role: <architecture>/<role>]" line in the system prompt, so it cannot tell which role to play.`;
      }
      const fn = registry.get(ref.architecture, ref.role);
      if (!fn) {
        const known = registry.list();
        return `The ${REFERENCE_LABEL} has no policy for role "${ref.architecture}/${ref.role}". Registered roles: ${known.length ? known.join(', ') : '(none)'}.`;
      }
      return fn(messages);
    },
  };
}

/** Models served by default: `reference`, dispatching over `registry` (the default registry unless given). */
export function defaultReferenceModels(registry: RolePolicyRegistry = defaultRolePolicies): Map<string, ScriptedPolicy> {
  return new Map([[REFERENCE_MODEL_NAME, roleDispatchPolicy(registry)]]);
}

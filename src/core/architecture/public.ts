// `waypoint/architecture`: the one module an architecture outside this repository (a workspace's
// .waypoint/architectures/<id>/, examples/architectures/) imports. Types are erased when its loop is compiled;
// the runtime helpers below are handed over by the host that loads it (src/core/node/loadModule.ts resolves the
// specifier to them), so a workspace loop shares the host's reference model and limit checks instead of copies.
import { limitFlag, limitNumber } from './limits.js';
import { registerPolicy } from '../llm/reference/policy.js';

export type {
  ArchitectureDefinition,
  ArchitectureManifest,
  ArchOutcome,
  CodeRunOutcome,
  EpisodeContext,
  LimitSpec,
  RoleCallOutcome,
  RoleSpec,
} from './types.js';
export type { PolicyContext, RolePolicyFn } from '../llm/reference/policy.js';
export type { ChatMessage } from '../../protocol/trace.js';

/** What a loaded module receives at run time when it imports `waypoint/architecture`: keep it small. */
export const ARCHITECTURE_RUNTIME = {
  /** Registers a reference-model policy for one role of this architecture (`registerReferencePolicies`). */
  registerPolicy,
  /** A numeric limit of this run by its manifest id (validated before the run). */
  limitNumber,
  /** A boolean limit of this run by its manifest id. */
  limitFlag,
} as const;

export { limitFlag, limitNumber, registerPolicy };

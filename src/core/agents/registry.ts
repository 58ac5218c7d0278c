// Architecture registry: each entry is a manifest (src/core/agents/manifests.ts) plus its loop. A test checks that
// every registered architecture has its prompts, its API family in the catalog and the simulator, and a reference
// policy for every role.
import { manifestProblems } from './limits.js';
import { actctx } from '../../architectures/actctx/index.js';
import { llamar } from '../../architectures/llamar/index.js';
import { malmm } from '../../architectures/malmm/index.js';
import { ARCH_MANIFESTS } from './manifests.js';
import { roco } from '../../architectures/roco/index.js';
import { trajgen } from '../../architectures/trajgen/index.js';
import type { ArchitectureDefinition } from './types.js';

export const ARCHITECTURES: Record<string, ArchitectureDefinition> = {
  malmm,
  roco,
  actctx,
  llamar,
  trajgen,
};

/** Ids the product promises. */
export const CANONICAL_ARCHITECTURE_IDS = ['malmm', 'roco', 'actctx', 'llamar', 'trajgen'] as const;

export function getArchitecture(id: string): ArchitectureDefinition {
  const arch = ARCHITECTURES[id];
  if (!arch) throw new Error(`unknown architecture '${id}'; known: ${Object.keys(ARCHITECTURES).sort().join(', ')}`);
  const problems = manifestProblems(arch);
  if (problems.length > 0) throw new Error(problems.join('; '));
  return arch;
}

/** Manifests and definitions must describe the same architectures. */
export function registryMismatches(): string[] {
  const out: string[] = [];
  for (const id of Object.keys(ARCHITECTURES)) if (!ARCH_MANIFESTS.has(id)) out.push(`architecture '${id}' has no manifest in manifests.ts`);
  for (const id of ARCH_MANIFESTS.keys()) if (!ARCHITECTURES[id]) out.push(`manifest '${id}' has no architecture in registry.ts`);
  return out;
}

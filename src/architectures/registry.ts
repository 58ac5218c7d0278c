// The architectures every host passes to the engine (src/core/architecture/registry.ts): the built-in five, each a
// folder here (manifest, loop, prompts, reference policies, views), and any registered later with
// registerArchitecture. A test checks that every registered architecture has its prompts, its API family in the
// catalog and the simulator, and a reference policy for every role.
import { ArchitectureRegistry } from '../core/architecture/registry.js';
import type { ArchitectureDefinition } from '../core/architecture/types.js';
import { actctx } from './actctx/index.js';
import { llamar } from './llamar/index.js';
import { malmm } from './malmm/index.js';
import { architectureManifests, BUILT_IN_MANIFESTS } from './manifests.js';
import { roco } from './roco/index.js';
import { trajgen } from './trajgen/index.js';

export const BUILT_IN_ARCHITECTURES: readonly ArchitectureDefinition[] = [malmm, roco, actctx, llamar, trajgen];

/** Ids the product promises. */
export const CANONICAL_ARCHITECTURE_IDS = ['malmm', 'roco', 'actctx', 'llamar', 'trajgen'] as const;

/** The built-ins, and whatever registerArchitecture added. */
export const architectures = new ArchitectureRegistry(BUILT_IN_ARCHITECTURES);

/** Adds an architecture to the hosts' registry and its manifest to the manifests' (an id taken is refused). */
export function registerArchitecture(def: ArchitectureDefinition): void {
  architectures.register(def);
  if (!architectureManifests.find(def.id)) architectureManifests.register(def);
}

/** Takes out an architecture registerArchitecture added (before its folder is loaded again); a built-in stays. */
export function unregisterArchitecture(id: string): void {
  if (BUILT_IN_ARCHITECTURES.some((a) => a.id === id)) throw new Error(`architecture '${id}' is built in and cannot be taken out`);
  architectures.unregister(id);
  architectureManifests.unregister(id);
}

/** Manifests and definitions must describe the same built-in architectures. */
export function registryMismatches(): string[] {
  const out: string[] = [];
  const manifestIds = new Set(BUILT_IN_MANIFESTS.map((m) => m.id));
  const defIds = new Set(BUILT_IN_ARCHITECTURES.map((a) => a.id));
  for (const id of defIds) if (!manifestIds.has(id)) out.push(`architecture '${id}' has no manifest in manifests.ts`);
  for (const id of manifestIds) if (!defIds.has(id)) out.push(`manifest '${id}' has no architecture in registry.ts`);
  return out;
}

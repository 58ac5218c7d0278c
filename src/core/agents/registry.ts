// Architecture registry. Each entry carries its metadata; a test checks the canonical id list against it.
import { malmm } from './malmm/index.js';
import type { ArchitectureDefinition } from './types.js';

export const ARCHITECTURES: Record<string, ArchitectureDefinition> = {
  malmm,
};

/** Ids the product promises; later issues add roco, actctx, llamar, trajgen. */
export const CANONICAL_ARCHITECTURE_IDS = ['malmm'] as const;

export function getArchitecture(id: string): ArchitectureDefinition {
  const arch = ARCHITECTURES[id];
  if (!arch) throw new Error(`unknown architecture '${id}'; known: ${Object.keys(ARCHITECTURES).sort().join(', ')}`);
  return arch;
}

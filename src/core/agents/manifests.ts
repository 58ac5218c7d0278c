// Every architecture's declarations without its loop: what the language server, the CLI's `archs` and the views
// need (roles, topologies, API family, limits, end reasons). Light enough for the LSP bundle.
import { getApiFamily } from '../apis/catalog.js';
import type { ApiFunctionSpec } from '../sim/simulator.js';
import { ACTCTX_MANIFEST } from '../../architectures/actctx/manifest.js';
import { LLAMAR_MANIFEST } from '../../architectures/llamar/manifest.js';
import { MALMM_MANIFEST } from '../../architectures/malmm/manifest.js';
import { ROCO_MANIFEST } from '../../architectures/roco/manifest.js';
import { TRAJGEN_MANIFEST } from '../../architectures/trajgen/manifest.js';
import type { ArchitectureManifest } from './types.js';

export const ARCH_MANIFESTS: ReadonlyMap<string, ArchitectureManifest> = new Map([MALMM_MANIFEST, ROCO_MANIFEST, ACTCTX_MANIFEST, LLAMAR_MANIFEST, TRAJGEN_MANIFEST].map((m) => [m.id, m]));

/** The robot functions an architecture's prompts and code see (its API family in the catalog). */
export function archApiFunctions(archId: string): readonly ApiFunctionSpec[] | undefined {
  const m = ARCH_MANIFESTS.get(archId);
  return m ? getApiFamily(m.api).functions : undefined;
}

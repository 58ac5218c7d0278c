// Every built-in architecture's declarations without its loop: what the language server, the CLI's `archs` and
// the views need (roles, topologies, API family, limits, end reasons). Light enough for the LSP bundle.
import { ArchitectureRegistry } from '../core/architecture/registry.js';
import type { ArchitectureManifest } from '../core/architecture/types.js';
import { ACTCTX_MANIFEST } from './actctx/manifest.js';
import { LLAMAR_MANIFEST } from './llamar/manifest.js';
import { MALMM_MANIFEST } from './malmm/manifest.js';
import { ROCO_MANIFEST } from './roco/manifest.js';
import { TRAJGEN_MANIFEST } from './trajgen/manifest.js';

export const BUILT_IN_MANIFESTS: readonly ArchitectureManifest[] = [MALMM_MANIFEST, ROCO_MANIFEST, ACTCTX_MANIFEST, LLAMAR_MANIFEST, TRAJGEN_MANIFEST];

/** The manifests a host without loops passes on (the language server); registerArchitecture adds to it too. */
export const architectureManifests = new ArchitectureRegistry<ArchitectureManifest>(BUILT_IN_MANIFESTS);

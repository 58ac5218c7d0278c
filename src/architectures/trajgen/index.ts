import type { ArchitectureDefinition } from '../../core/architecture/types.js';
import { runTrajgen } from './loop.js';
import { TRAJGEN_MANIFEST } from './manifest.js';
import { registerTrajgenPolicies } from './reference/index.js';

export const trajgen: ArchitectureDefinition = {
  ...TRAJGEN_MANIFEST,
  // The main prompt shows no scene: the model sees objects only through detect_object's print-outs.
  renderObservation: (observation) => observation.text,
  run: runTrajgen,
  registerReferencePolicies: registerTrajgenPolicies,
};

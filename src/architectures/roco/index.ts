import type { ArchitectureDefinition } from '../../core/architecture/types.js';
import { runRoco } from './loop.js';
import { ROCO_MANIFEST } from './manifest.js';
import { renderScene, renderSwitches } from './render.js';
import { registerRocoPolicies } from './reference/index.js';

export const roco: ArchitectureDefinition = {
  ...ROCO_MANIFEST,
  // RoCo's agents read a scene description (relations, positions, grippers) rendered from the structured state.
  renderObservation: (observation, agent, ablations) => renderScene(observation, agent, renderSwitches(ablations)),
  run: runRoco,
  registerReferencePolicies: registerRocoPolicies,
};

import type { ArchitectureDefinition } from '../../core/architecture/types.js';
import { runLlamar } from './loop.js';
import { LLAMAR_MANIFEST } from './manifest.js';
import { renderHouseholdObservation } from './render.js';
import { registerLlamarPolicies } from './reference/index.js';

export const llamar: ArchitectureDefinition = {
  ...LLAMAR_MANIFEST,
  // The modules read the released code's observation lines, rendered from the household's structured state.
  renderObservation: (observation, agent) => renderHouseholdObservation(observation, agent),
  run: runLlamar,
  registerReferencePolicies: registerLlamarPolicies,
};

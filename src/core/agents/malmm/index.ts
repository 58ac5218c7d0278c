import type { ArchitectureDefinition } from '../types.js';
import { formatMalmmState } from '../../sim/observationText.js';
import { runMalmm } from './loop.js';
import { MALMM_MANIFEST } from './manifest.js';

export const malmm: ArchitectureDefinition = {
  ...MALMM_MANIFEST,
  // MALMM's agents read the paper's state dump, whatever simulator produced the state.
  renderObservation: (observation) => formatMalmmState(observation.state),
  run: runMalmm,
};

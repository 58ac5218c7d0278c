import type { ArchitectureDefinition } from '../../core/architecture/types.js';
import { formatMalmmState } from '../../core/sim/observationText.js';
import { runMalmm } from './loop.js';
import { MALMM_MANIFEST, waypointAddition } from './manifest.js';
import { registerMalmmPolicies } from './reference/index.js';

export const malmm: ArchitectureDefinition = {
  ...MALMM_MANIFEST,
  // MALMM's agents read the paper's state dump, whatever simulator produced the state; the end effector's yaw and
  // gripper lines are one of our additions (off in the paper default).
  renderObservation: (observation, _agent, ablations = {}) =>
    formatMalmmState(observation.state, { eeDetails: waypointAddition(ablations, 'state.ee_details') }),
  run: runMalmm,
  registerReferencePolicies: registerMalmmPolicies,
};

import type { ArchitectureDefinition } from '../../core/architecture/types.js';
import { sceneContext, spatialRelationsOn } from './context.js';
import { runActctx } from './loop.js';
import { ACTCTX_MANIFEST } from './manifest.js';
import { registerActctxPolicies } from './reference/index.js';

export const actctx: ArchitectureDefinition = {
  ...ACTCTX_MANIFEST,
  // The planner sees a description of the scene in words (the paper's image description) and the label lists.
  renderObservation: (observation, _agent, ablations) => {
    const c = sceneContext(observation.state, spatialRelationsOn(ablations));
    return `${c.description}\nobjects = [${c.objects.map((o) => `'${o}'`).join(', ')}]\nlocations = [${c.locations.map((o) => `'${o}'`).join(', ')}]`;
  },
  run: runActctx,
  registerReferencePolicies: registerActctxPolicies,
};

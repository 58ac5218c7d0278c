// Every architecture's scripted policies for the reference model. Later issues add roco, llamar, trajgen.
import { registerActctxPolicies } from './actctx/index.js';
import { registerMalmmPolicies } from './malmm/index.js';
import { registerRocoPolicies } from './roco/index.js';

export function registerAllPolicies(): void {
  registerMalmmPolicies();
  registerActctxPolicies();
  registerRocoPolicies();
}

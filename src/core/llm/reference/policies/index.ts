// Every architecture's scripted policies for the reference model. Later issues add roco, actctx, llamar, trajgen.
import { registerMalmmPolicies } from './malmm/index.js';

export function registerAllPolicies(): void {
  registerMalmmPolicies();
}

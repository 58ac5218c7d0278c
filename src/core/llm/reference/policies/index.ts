// Every architecture's scripted policies for the reference model.
import { registerActctxPolicies } from '../../../../architectures/actctx/reference/index.js';
import { registerJudgePolicy } from './judge/index.js';
import { registerLlamarPolicies } from '../../../../architectures/llamar/reference/index.js';
import { registerMalmmPolicies } from '../../../../architectures/malmm/reference/index.js';
import { registerRocoPolicies } from '../../../../architectures/roco/reference/index.js';
import { registerTrajgenPolicies } from '../../../../architectures/trajgen/reference/index.js';

export function registerAllPolicies(): void {
  registerMalmmPolicies();
  registerActctxPolicies();
  registerRocoPolicies();
  registerLlamarPolicies();
  registerTrajgenPolicies();
  // Not an architecture: the failure inspector's judge (src/core/sweep/judge.ts).
  registerJudgePolicy();
}

// The reference model's policies: every registered architecture's (each contributes its own through its
// definition) and the failure inspector's judge, which belongs to no architecture (src/core/sweep/judge.ts).
import type { Architectures } from '../../architecture/registry.js';
import { registerJudgePolicy } from './judge.js';

export function registerReferencePolicies(architectures: Architectures): void {
  for (const a of architectures.list()) a.registerReferencePolicies?.();
  registerJudgePolicy();
}

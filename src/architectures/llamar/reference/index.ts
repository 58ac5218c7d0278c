// LLaMAR's roles for the reference model (scripted, NOT an LLM): see roles.ts.
import { registerPolicy } from '../../../core/llm/reference/policy.js';
import { actorPolicy, baselinePolicy, correctorPolicy, plannerPolicy, verifierPolicy } from './roles.js';

let registered = false;
/** Registers the LLaMAR role policies with the reference model (idempotent). */
export function registerLlamarPolicies(): void {
  if (registered) return;
  registered = true;
  registerPolicy('llamar', 'planner', (messages) => plannerPolicy(messages));
  registerPolicy('llamar', 'actor', (messages, ctx) => actorPolicy(messages, ctx));
  registerPolicy('llamar', 'corrector', (messages) => correctorPolicy(messages));
  registerPolicy('llamar', 'verifier', (messages) => verifierPolicy(messages));
  registerPolicy('llamar', 'central', (messages, ctx) => actorPolicy(messages, ctx, true));
  registerPolicy('llamar', 'act', (messages, ctx) => baselinePolicy(messages, ctx, 'act'));
  registerPolicy('llamar', 'react', (messages, ctx) => baselinePolicy(messages, ctx, 'react'));
}

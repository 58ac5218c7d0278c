// The reference model's MALMM policies (scripted, NOT an LLM): one per role, each deciding from the messages of
// its request only (the rendered system prompt, the task sentence, the state texts and the chat), as a model
// would. They share no code with the simulator. Layout: readers (scene, chat, rules), what to do (tasks/ per task
// family, motion, planning), the roles (supervisor, planner, coder, agent) and the flawed profile's dice (flaws).
import { registerPolicy } from '../../../core/llm/reference/policy.js';
import { agentAnswer } from './agent.js';
import { coderAnswer } from './coder.js';
import { plannerAnswer } from './planner.js';
import { supervisorAnswer } from './supervisor.js';

let registered = false;
/** Registers the MALMM role policies with the reference model (idempotent). */
export function registerMalmmPolicies(): void {
  if (registered) return;
  registered = true;
  registerPolicy('malmm', 'supervisor', supervisorAnswer);
  registerPolicy('malmm', 'planner', plannerAnswer);
  registerPolicy('malmm', 'coder', coderAnswer);
  registerPolicy('malmm', 'agent', agentAnswer);
}

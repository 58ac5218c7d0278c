// The reference model's LM Trajectory Generators policies (scripted, NOT an LLM): the main prompt (main.ts, with
// one solution per task in solutions/), the success detector (detector.ts) and the task summary (summary.ts).
import { registerPolicy } from '../../../core/llm/reference/policy.js';
import { trajgenDetector } from './detector.js';
import { trajgenMain } from './main.js';
import { trajgenSummary } from './summary.js';

let registered = false;

export function registerTrajgenPolicies(): void {
  if (registered) return;
  registered = true;
  registerPolicy('trajgen', 'main', trajgenMain);
  registerPolicy('trajgen', 'detector', trajgenDetector);
  registerPolicy('trajgen', 'summary', trajgenSummary);
}

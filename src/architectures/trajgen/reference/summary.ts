// The reference model's task summary (scripted, NOT an LLM): from the main conversation it lists the key poses
// of the code it ran (the waypoints of each numbered trajectory and the gripper calls between them), the latest
// detections, and carries over the summaries of earlier failed attempts from the system prompt.
import type { ChatMessage } from '../../../protocol/trace.js';
import type { PolicyContext } from '../../../core/llm/reference/policy.js';
import { Readout } from './solutions/readout.js';

export function trajgenSummary(messages: ChatMessage[], _ctx: PolicyContext): string {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const answers = messages.filter((m) => m.role === 'assistant').map((m) => m.content);
  const code = [...answers].reverse().find((a) => a.includes('execute_trajectory')) ?? '';
  const steps: string[] = [];
  for (const line of code.split('\n')) {
    const t = /^# (Trajectory \d+: .*)$/.exec(line);
    const w = /^trajectory_\d+ = waypoint_trajectory\([^,]+, (\[\[.*\]\]),/.exec(line);
    const g = /^(open|close)_gripper\(\)/.exec(line);
    if (t) steps.push(`- ${t[1]}`);
    else if (w) steps[steps.length - 1] += `; waypoints ${w[1]}`;
    else if (g) steps.push(`- gripper ${g[1] === 'open' ? 'opened' : 'closed'}`);
  }
  const seen = Readout.fromText(messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n'));
  const objects = seen.all.map((d) => `- ${d.label}: position [${d.pos.join(', ')}], width ${d.width}, length ${d.length}, height ${d.height}, orientation ${d.yawWidth}`);
  const earlier = /SUMMARY OF PREVIOUS FAILED ATTEMPTS:\n([\s\S]*?)\n\nPROBLEM RESOLUTION:/.exec(system)?.[1];
  return [
    '1. Executed trajectory (key end-effector poses [x, y, z, rotation]):',
    ...(steps.length > 0 ? steps : ['- no trajectory was executed']),
    '2. Latest object information:',
    ...(objects.length > 0 ? objects : ['- no object was detected']),
    ...(earlier ? ['3. Earlier failed attempts:', earlier] : []),
  ].join('\n');
}

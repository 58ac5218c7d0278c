// A real endpoint is never told which role is asking; test endpoints that stand in for a model tell roles apart
// the way a model reads them: from the opening words of the system prompt. Add a line per new role prompt.
import type { ChatMessage } from '../../src/protocol/trace.js';

const OPENINGS: [opening: string, arch: string, role: string][] = [
  ['You supervise the work of two agents', 'malmm', 'supervisor'],
  ['You are the planning AI of a robot arm', 'malmm', 'planner'],
  ['You are an AI that writes Python code to control', 'malmm', 'coder'],
  ['You are the AI that controls a robot arm alone', 'malmm', 'agent'],
  ['You are robot ', 'roco', 'dialog'],
  ['You plan for a team of robots', 'roco', 'central'],
  ['You plan the work of a team of', 'llamar', 'planner'],
  ['You control a team of', 'llamar', 'actor'],
  ['You diagnose failed actions for a team of', 'llamar', 'corrector'],
  ['You check the progress of a team of', 'llamar', 'verifier'],
  ['You are the single planner of a team of', 'llamar', 'central'],
  ['You decide whether a user command was carried out', 'trajgen', 'detector'],
];
/** LM Trajectory Generators' summary is asked in the main conversation: its last user message tells. */
const TRAJGEN_SYSTEM = 'You are in charge of a robot arm';
const TRAJGEN_SUMMARY = 'The task was not completed successfully';
/** Action Contextualization keeps one system prompt for every role; its request (the last user message) tells. */
const ACTCTX_SYSTEM = 'You are an expert in robotics and machine learning';
const ACTCTX_REQUESTS: [opening: string | RegExp, role: string][] = [
  ['The robot may fail to carry out an action function', 'evaluation_plan'],
  // The replan after success opens as the retune after success does; its second line asks for a new plan.
  [/^The task plan succeeded[^\n]*\nStarting from this plan/, 'improve_replan'],
  ['The task plan succeeded', 'improve'],
  ['The robot failed while carrying out the task_plan, and changing', 'replan'],
  ['The robot failed while carrying out the task_plan', 'retune'],
];

export function roleFromPrompt(messages: readonly ChatMessage[]): { arch: string; role: string } | undefined {
  const system = messages.find((m) => m.role === 'system')?.content.trimStart() ?? '';
  const hit = OPENINGS.find(([opening]) => system.startsWith(opening));
  if (hit) return { arch: hit[1], role: hit[2] };
  if (system.startsWith(TRAJGEN_SYSTEM)) {
    const users = messages.filter((m) => m.role === 'user');
    return { arch: 'trajgen', role: users[users.length - 1]?.content.trimStart().startsWith(TRAJGEN_SUMMARY) ? 'summary' : 'main' };
  }
  if (!system.startsWith(ACTCTX_SYSTEM)) return undefined;
  const users = messages.filter((m) => m.role === 'user');
  const last = users[users.length - 1]?.content.trimStart() ?? '';
  const req = ACTCTX_REQUESTS.find(([opening]) => (typeof opening === 'string' ? last.startsWith(opening) : opening.test(last)));
  // The first request is the task plan (it opens with the scene); anything else in that conversation is a repair.
  return { arch: 'actctx', role: req ? req[1] : users.length <= 1 ? 'task_plan' : 'repair' };
}

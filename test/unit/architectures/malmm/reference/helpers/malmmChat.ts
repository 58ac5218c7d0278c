// MALMM requests as the loop builds them (rendered role prompt + the shared chat seen from one role), for probing
// the reference policies without a simulator. States are hand-made WorldStates printed in MALMM's format.
import { join } from 'node:path';
import { historyFor, openingMessage } from '../../../../../../src/architectures/malmm/loop.js';
import { executorReply } from '../../../../../../src/architectures/malmm/parse.js';
import type { EpisodeContext } from '../../../../../../src/core/architecture/types.js';
import { MALMM_API } from '../../../../../../src/core/apis/malmm.js';
import { registerReferencePolicies } from '../../../../../../src/core/llm/reference/policies.js';
import { architectures } from '../../../../../../src/architectures/registry.js';
import { defaultRolePolicies, type ReferenceProfile } from '../../../../../../src/core/llm/reference/policy.js';
import { nodeIO } from '../../../../../../src/core/node/nodeHost.js';
import { loadPromptFile, renderPrompt } from '../../../../../../src/core/prompt/render.js';
import { formatMalmmState } from '../../../../../../src/core/sim/observationText.js';
import type { ChatMessage, ObjectState, WorldState } from '../../../../../../src/protocol/trace.js';

registerReferencePolicies(architectures);

export type Speaker = 'Supervisor' | 'Planner' | 'Coder' | 'Executor' | 'Agent';
/** Ablation ids to switch off, or explicit switches (to turn on a default="off" addition). */
export type Switches = string[] | Record<string, boolean>;
export type Role = 'supervisor' | 'planner' | 'coder' | 'agent';
const SPEAKER: Record<Role, Speaker> = { supervisor: 'Supervisor', planner: 'Planner', coder: 'Coder', agent: 'Agent' };
const FILE: Record<Role, string> = { supervisor: 'supervisor.prompt', planner: 'planner.prompt', coder: 'coder.prompt', agent: 'sa.prompt' };

export const WORKSPACE = {
  tableTopZ: 0.752,
  xRange: [-0.3, 0.3] as [number, number],
  yRange: [-0.05, 0.35] as [number, number],
  axes: 'x increases to the right, y increases away from the robot base, z points up; metres; yaw in radians about +z, counter-clockwise positive',
};

export function box(name: string, pos: [number, number, number], opts: { yaw?: number; size?: [number, number, number]; color?: string } = {}): ObjectState {
  return { name, pos, euler: [0, 0, opts.yaw ?? 0], size: opts.size ?? [0.05, 0.05, 0.05], color: opts.color ?? name.split(' ')[0]! };
}

export function world(objects: ObjectState[], ee: { pos?: [number, number, number]; yaw?: number; open?: boolean; grasped?: string | null } = {}): WorldState {
  return { objects, ee: { pos: ee.pos ?? [0, 0, 1.1], yawRad: ee.yaw ?? 0 }, gripperOpen: ee.open ?? !ee.grasped, grasped: ee.grasped ?? null };
}

/** A MALMM chat: the opening message, then whatever the test adds; `answer` asks a role's policy. */
export class MalmmChat {
  readonly chat: { speaker: Speaker; content: string }[] = [];

  constructor(
    readonly task: string,
    readonly initial: WorldState,
  ) {
    const ctx = { task: { instruction: task }, initial: { state: initial }, render: (o: { state: WorldState }) => formatMalmmState(o.state) } as unknown as EpisodeContext;
    this.chat.push({ speaker: 'Supervisor', content: openingMessage(ctx) });
  }

  say(speaker: Speaker, content: string): this {
    this.chat.push({ speaker, content });
    return this;
  }

  /** The Executor's report after a block: exit code, optional error, then the state. */
  executor(state: WorldState, error?: { type: string; message: string; line?: number }, stdout = ''): this {
    const r = error ? { ok: false, exitCode: 1, stdout, error } : { ok: true, exitCode: 0, stdout };
    return this.say('Executor', executorReply(r, formatMalmmState(state)));
  }

  /** The messages `role` receives, with the given ablations off (a list), or switched as given (a record). */
  async request(role: Role, off: Switches = []): Promise<ChatMessage[]> {
    const file = await loadPromptFile(nodeIO, join(process.cwd(), 'src', 'architectures', 'malmm', 'prompts', FILE[role]));
    const ee = this.initial.ee;
    const f4 = (x: number) => (Math.abs(x) < 5e-5 ? 0 : x).toFixed(4);
    const base = { task: this.task, ee_position: `[${ee.pos.map(f4).join(' ')}]`, ee_yaw: f4(ee.yawRad), state: formatMalmmState(this.initial) };
    const planner = { task: this.task, table_top_z: f4(WORKSPACE.tableTopZ), x_range: `[${WORKSPACE.xRange.join(', ')}]`, y_range: `[${WORKSPACE.yRange.join(', ')}]`, axes: WORKSPACE.axes };
    const coder = { api: MALMM_API.map((f) => ({ signature: f.signature, doc: f.doc })) };
    const variables = { supervisor: base, planner, coder, agent: { ...base, ...planner, ...coder } }[role];
    const rendered = await renderPrompt(file, { variables, history: historyFor(SPEAKER[role], this.chat), ablations: Array.isArray(off) ? Object.fromEntries(off.map((id) => [id, false])) : off });
    return rendered.messages;
  }

  async answer(role: Role, off: Switches = [], profile: ReferenceProfile = 'reference', seed?: number): Promise<string> {
    const fn = defaultRolePolicies.get('malmm', role)!;
    return fn(await this.request(role, off), { profile, meta: { arch: 'malmm', role }, ...(seed !== undefined ? { seed } : {}) });
  }

  /** Asks `role` and appends its answer to the chat. */
  async turn(role: Role, off: Switches = [], profile: ReferenceProfile = 'reference'): Promise<string> {
    const text = await this.answer(role, off, profile);
    this.say(SPEAKER[role], text);
    return text;
  }
}

/** The python block of an answer. */
export function codeOf(answer: string): string {
  return /```python\n([\s\S]*?)```/.exec(answer)?.[1] ?? '';
}

export const robotCalls = (code: string): string[] => code.match(/\b(?:execute_trajectory|open_gripper|close_gripper|task_completed)\([^\n]*\)/g) ?? [];

/** The waypoints of a plan text: "Step N: what: `execute_trajectory([x, y, z], yaw)`". */
export function planMoves(plan: string): { say: string; pos: number[]; yaw: number }[] {
  return [...plan.matchAll(/^Step \d+: (.*): `execute_trajectory\(\[([^\]]+)\], ([-\d.]+)\)`$/gm)].map((m) => ({ say: m[1]!, pos: m[2]!.split(',').map(Number), yaw: Number(m[3]) }));
}

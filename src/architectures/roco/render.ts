// The text RoCo's agents see, rendered from the simulator's structured state (`state.extra.multiArm`, written by
// multi-robot simulators): the current observation (RoCo's description function f^n), each robot's capability,
// the action options and the task's rules. A simulator without that structure still works: the observation falls
// back to its own text and the capability to the robot's name.
import type { ObjectState, RobotState, WorldState } from '../../protocol/trace.js';
import type { Observation } from '../../core/sim/simulator.js';

export interface RobotInfo {
  name: string;
  embodiment?: string;
  gripper?: string;
  reach?: string;
  /** Where it stands, in words ('in front of panel2'), as the paper's prompts say it. */
  stands?: string;
  /** This robot's own goal, when the task gives each robot one (Sort Cubes). */
  goal?: string;
  reachX?: [number, number];
  /** Where the robot stands on the table (x, y of its base). */
  base?: [number, number];
  holding?: string | null;
  /** The task's words after the gripper line ("in front of red_cube"). */
  note?: string;
}

export interface MultiArmState {
  self?: string;
  observation: 'shared' | 'partial';
  robots: RobotInfo[];
  relations: string[];
  facts: string[];
  actions: { verb: string; usage: string; doc: string }[];
  path: 'optional' | 'required';
  pathPoints?: number;
  rules: string[];
  /** Solving hints the paper's prompts lack (shown under `task.strategy_rules`). */
  strategy: string[];
  /**
   * Positions the paper's observation of this task gives: true all, 'grippers' the robots' grippers only, false
   * none; the rest are shown under `observation.coordinates`.
   */
  coordinates: boolean | 'grippers';
  /** 'own': the paper tells each robot only its own gripper (the others' under `observation.others_grippers`). */
  grippers: 'all' | 'own';
}

/** Waypoint's additions to the observation and capability texts, read in code (manifest `codeAblations`). */
export interface RenderSwitches {
  /** Positions in the scene text even where the paper's task gives none. */
  coordinates?: boolean;
  /** Each robot's base position in its capability line (the paper gives none). */
  basePositions?: boolean;
  /** Every robot's gripper in each robot's scene, where the paper tells each robot only its own. */
  othersGrippers?: boolean;
}

export function renderSwitches(ablations: Readonly<Record<string, boolean>> | undefined): RenderSwitches {
  return {
    coordinates: ablations?.['observation.coordinates'] === true,
    basePositions: ablations?.['observation.base_positions'] === true,
    othersGrippers: ablations?.['observation.others_grippers'] === true,
  };
}

/** The multi-robot structure of an observation, when the simulator provides it. */
export function multiArmOf(state: WorldState): MultiArmState | undefined {
  const m = state.extra?.['multiArm'];
  if (!m || typeof m !== 'object') return undefined;
  const x = m as Partial<MultiArmState>;
  if (!Array.isArray(x.robots) || !Array.isArray(x.actions)) return undefined;
  return { observation: x.observation ?? 'shared', relations: x.relations ?? [], facts: x.facts ?? [], path: x.path ?? 'optional', rules: x.rules ?? [], strategy: x.strategy ?? [], coordinates: x.coordinates ?? true, grippers: x.grippers ?? 'all', ...x } as MultiArmState;
}

const p3 = (v: readonly number[]) => `(${v.map((x) => x.toFixed(2)).join(', ')})`;
const p2 = (v: readonly number[]) => `(${v[0]!.toFixed(2)}, ${v[1]!.toFixed(2)})`;

function size(o: ObjectState): string {
  return `${o.size.map((v) => v.toFixed(2)).join(' x ')} m`;
}

/**
 * RoCo's scene description for one agent (or the whole scene): relations, places, task facts, grippers. Positions
 * are given where the paper's observation of the task has them (Pack Grocery, Move Rope, Arrange Cabinet; Sweep
 * Floor's grippers only); a task whose paper observation has none (Sort Cubes, Make Sandwich) is described by
 * relations and names only, unless the `observation.coordinates` ablation asks for positions. Where the paper tells
 * each robot only its own gripper (Sort Cubes), the others' appear under `observation.others_grippers`; the whole
 * scene (no agent: the Central Plan) always has every gripper.
 */
export function renderScene(observation: Observation, agent?: string, switches: RenderSwitches = {}): string {
  const m = multiArmOf(observation.state);
  if (!m) return observation.text;
  const at = m.coordinates === true || switches.coordinates === true;
  const gripperAt = at || m.coordinates === 'grippers';
  const byName = new Map(observation.state.objects.map((o) => [o.name, o]));
  const described = new Set<string>();
  const lines = ['[Scene]'];
  for (const r of m.relations) {
    const subject = r.split(' ')[0]!;
    const o = byName.get(subject);
    described.add(subject);
    lines.push(o && at ? `${r}, at ${p3(o.pos)}` : r);
  }
  const places = observation.state.objects.filter((o) => !described.has(o.name));
  if (places.length > 0) {
    if (at) lines.push(...places.map((o) => `${o.name} is at ${p3(o.pos)}, size ${size(o)}`));
    else lines.push(`Places: ${places.map((o) => o.name).join(', ')}`);
  }
  lines.push(...m.facts);
  lines.push('[Robots]');
  const self = agent ?? m.self;
  const robots: RobotState[] = observation.state.robots ?? [];
  const notes = new Map(m.robots.map((r) => [r.name, r.note]));
  for (const r of robots) {
    if (self !== undefined && r.name !== self && m.grippers === 'own' && switches.othersGrippers !== true) continue;
    const who = r.name === self ? 'Your gripper' : `${r.name}'s gripper`;
    const holds = (r.holding ? `holding ${r.holding}` : 'holding nothing') + (notes.get(r.name) ? `, ${notes.get(r.name)}` : '');
    lines.push(gripperAt ? `${who} is at ${p3(r.pos)}, ${holds}` : `${who} is ${holds}`);
  }
  return lines.join('\n');
}

/**
 * "You are Alice, a UR5E (6-DoF arm) with a Robotiq 2F-85 gripper. You can reach panel1, panel2, panel3." and, where
 * the task gives robots their own goals, "Your goal is to place blue_square on panel2." (RoCo App. 10.4: each robot
 * is told its own goal and reach only; the others' come from the dialog).
 */
export function capabilityText(state: WorldState, agent: string, switches: RenderSwitches = {}): string {
  const m = multiArmOf(state);
  const me = m?.robots.find((r) => r.name === agent);
  if (!me) return `You are ${agent}.`;
  const base = switches.basePositions && me.base ? ` based at ${p2(me.base)}` : '';
  const lines = [`You are ${agent}, a ${me.embodiment ?? 'robot arm'}${base}. You can reach ${me.reach ?? 'the whole table'}.`];
  if (me.stands) lines.push(`You stand ${me.stands}.`);
  if (me.goal) lines.push(`Your goal is to ${me.goal}.`);
  return lines.join('\n');
}

/**
 * The other robots' capabilities and goals, where the observation is shared: the prompt shows them only under the
 * `task.others_goals_reach` ablation, and the Central Plan (the paper's oracle) always. A partial view has none.
 */
export function othersText(state: WorldState, agent: string | undefined, switches: RenderSwitches = {}): string[] {
  const m = multiArmOf(state);
  if (!m) return [];
  return m.robots
    .filter((r) => r.name !== agent)
    .map((r) => `${r.name} is a ${r.embodiment ?? 'robot arm'}${switches.basePositions && r.base ? ` based at ${p2(r.base)}` : ''} and can reach ${r.reach ?? 'the whole table'}.${r.stands ? `\n${r.name} stands ${r.stands}.` : ''}${r.goal ? `\n${r.name}'s goal is to ${r.goal}.` : ''}`);
}

export interface ActionOption {
  n: number;
  usage: string;
  doc: string;
}

export function actionOptions(state: WorldState): ActionOption[] {
  const m = multiArmOf(state);
  const list = m?.actions ?? [
    { verb: 'PICK', usage: 'PICK <object>', doc: 'grasp the object' },
    { verb: 'PLACE', usage: 'PLACE <object> <target>', doc: 'put the held object on the target' },
    { verb: 'MOVE', usage: 'MOVE (x, y, z)', doc: 'move the gripper to a point' },
    { verb: 'WAIT', usage: 'WAIT', doc: 'stay' },
  ];
  return list.map((a, i) => ({ n: i + 1, usage: a.usage, doc: a.doc }));
}

/** An example EXECUTE block for the output instruction: WAIT for everyone but the first robot, who does the first action. */
export function exampleBlock(state: WorldState, agents: readonly string[]): string {
  const m = multiArmOf(state);
  const verbs = m?.actions.map((a) => a.usage) ?? ['PICK <object>'];
  const first = verbs.find((u) => !u.startsWith('WAIT')) ?? 'WAIT';
  const path = m?.path === 'required' ? ` PATH [${Array.from({ length: m.pathPoints ?? 4 }, (_, i) => `(x${i + 1}, y${i + 1}, z${i + 1})`).join(', ')}]` : '';
  return ['EXECUTE', ...agents.map((a, i) => `NAME ${a} ACTION ${i === 0 ? first + path : 'WAIT'}`)].join('\n');
}

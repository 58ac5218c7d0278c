// What each robot of a multi-arm task observes (RoCo's per-agent scene descriptions): a shared scene text, and a
// per-robot view with its own gripper, its reach, and the objects it can see ('partial': only those within its
// reach zone, what it holds and what it would put things on; 'shared': everything). Units metres, world frame.
import type { SimState } from './simState.js';
import type { SceneModel } from './sceneModel.js';
import type { MultiArmSetup } from './tasks/multiArm/multiArmCommon.js';
import type { TaskView } from './tasks/taskDefinition.js';
import { gripperCommandedOpen } from './robot/gripper.js';

export interface RobotView {
  robot: string;
  text: string;
  /** Names of the objects in this robot's view. */
  visible: string[];
}

const p3 = (v: readonly number[]) => `(${v.map((x) => x.toFixed(2)).join(', ')})`;

/** "X is on Y" / "X is in Y" / "X is on the table" / "X is held by Alice" for every free object. */
export function relations(scene: SceneModel, state: SimState, robots: string[], own?: (object: string) => string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const specs = scene.built.spec.objects;
  const tableZ = scene.built.spec.table.topZ;
  scene.objects.forEach((o, i) => {
    if (o.kind !== 'free' && o.kind !== 'cable' && o.kind !== 'cableEnd') return;
    const holder = state.grasps.findIndex((g) => g?.object === i);
    const task = holder < 0 ? own?.(o.name) : undefined;
    if (task) {
      out.set(o.name, task);
      return;
    }
    if (holder >= 0) {
      out.set(o.name, `${o.name} is held by ${robots[holder] ?? `robot ${holder + 1}`}`);
      return;
    }
    const p = state.objectPose(i).pos;
    const bottom = p[2] - specs[i]!.size[2] / 2;
    let best: string | null = null;
    let bestGap = 0.015;
    scene.objects.forEach((s, j) => {
      if (j === i) return;
      const q = state.objectPose(j).pos;
      const size = specs[j]!.size;
      if (Math.abs(p[0] - q[0]) > size[0] / 2 || Math.abs(p[1] - q[1]) > size[1] / 2) return;
      const inside = specs[j]!.features?.some((f) => f.name === 'rim') && bottom < q[2] + size[2] / 2 && bottom > q[2] - size[2] / 2 - 0.01;
      if (inside) {
        best = `${o.name} is in ${s.name}`;
        bestGap = -1;
        return;
      }
      const gap = Math.abs(bottom - (q[2] + size[2] / 2));
      if (gap < bestGap) {
        bestGap = gap;
        best = `${o.name} is on ${s.name}`;
      }
    });
    out.set(o.name, best ?? (Math.abs(bottom - tableZ) < 0.015 ? `${o.name} is on the table` : `${o.name} is at ${p3(p)}`));
  });
  return out;
}

export function robotViews(scene: SceneModel, state: SimState, setup: MultiArmSetup, view?: TaskView): RobotView[] {
  const names = setup.robots.map((r) => r.name);
  const rel = relations(scene, state, names, view && setup.relation ? (n) => setup.relation!(view, n) : undefined);
  return setup.robots.map((r, a) => {
    const held = state.graspedName(a);
    const visible = scene.objects
      .map((o, i) => ({ name: o.name, x: state.objectPose(i).pos[0], free: o.kind === 'free' }))
      .filter((o) => setup.observation === 'shared' || o.name === held || (o.x >= r.reachX[0] - 0.02 && o.x <= r.reachX[1] + 0.02))
      .map((o) => o.name);
    const lines = [
      `You are ${r.name}. Your gripper is at ${p3(state.tcp(a).pos)} and ${held ? `holds ${held}` : 'is empty'}. You can reach x from ${r.reachX[0].toFixed(2)} to ${r.reachX[1].toFixed(2)}.`,
      ...visible.map((n) => {
        const i = scene.objects.findIndex((o) => o.name === n);
        const pos = p3(state.objectPose(i).pos);
        return rel.has(n) ? `${rel.get(n)} ${pos}` : `${n} at ${pos}`;
      }),
    ];
    if (setup.observation === 'shared') {
      names.forEach((other, k) => k !== a && lines.push(`${other}'s gripper is at ${p3(state.tcp(k).pos)} and ${state.graspedName(k) ? `holds ${state.graspedName(k)}` : 'is empty'}`));
    }
    return { robot: r.name, text: lines.join('\n'), visible };
  });
}

/** The scene for everyone (the observation text of a multi-arm task): relations, then each robot's gripper. */
export function sharedSceneText(scene: SceneModel, state: SimState, setup: MultiArmSetup, view?: TaskView): string {
  const names = setup.robots.map((r) => r.name);
  const rel = relations(scene, state, names, view && setup.relation ? (n) => setup.relation!(view, n) : undefined);
  const lines = ['[Scene]', ...[...rel.values()], '[Robots]'];
  setup.robots.forEach((r, a) => {
    const held = state.graspedName(a);
    lines.push(`${r.name}: gripper at ${p3(state.tcp(a).pos)}, ${held ? `holding ${held}` : 'holding nothing'}; reaches x from ${r.reachX[0].toFixed(2)} to ${r.reachX[1].toFixed(2)}`);
  });
  return lines.join('\n');
}

/** The base verbs of a RoCo plan as the agents are told them. */
const BASE_VERBS: Record<'PICK' | 'PLACE' | 'MOVE' | 'WAIT', { usage: string; doc: string }> = {
  PICK: { usage: 'PICK <object>', doc: 'grasp the object (only with an empty gripper); the gripper ends 12 cm above where it grasped' },
  PLACE: { usage: 'PLACE <object> <target>', doc: 'put the held object on or into the target (an object or place named in the scene)' },
  MOVE: { usage: 'MOVE (x, y, z)', doc: 'move the gripper to a point (or MOVE <object>: 10 cm above it)' },
  WAIT: { usage: 'WAIT', doc: 'stay where you are (keep holding what you hold)' },
};

const COMBINED_PICK = { usage: 'PICK <object> PLACE <target>', doc: 'pick the object and put it on the target, in one action' };

/**
 * Structured state of a multi-robot task for the agents' prompts (observation `state.extra.multiArm`): every
 * robot's embodiment, reach and gripper, the scene's relations, task facts, the action options and rules. A
 * partial view (`self`) lists only what that robot sees: its own robot, and the relations of visible objects.
 */
export function multiArmExtra(scene: SceneModel, state: SimState, setup: MultiArmSetup, view: TaskView, visible: readonly string[] | null, self?: string): Record<string, unknown> {
  const names = setup.robots.map((r) => r.name);
  const rel = relations(scene, state, names, setup.relation ? (n) => setup.relation!(view, n) : undefined);
  const facts = setup.facts?.(view) ?? [];
  const robots = setup.robots
    .map((r, a) => ({
      name: r.name,
      embodiment: scene.arms[a]!.layout.embodiment,
      gripper: scene.arms[a]!.layout.gripper.kind,
      reachX: r.reachX,
      reach: r.reachText ?? `x from ${r.reachX[0].toFixed(2)} to ${r.reachX[1].toFixed(2)}`,
      ...(r.goalText ? { goal: r.goalText } : {}),
      ...(r.standsText ? { stands: r.standsText } : {}),
      base: [scene.arms[a]!.layout.spec.basePos[0], scene.arms[a]!.layout.spec.basePos[1]],
      gripperAt: state.tcp(a).pos.map((v) => Math.round(v * 1000) / 1000),
      holding: state.graspedName(a),
      gripperOpen: gripperCommandedOpen(state, a),
      ...(setup.robotNote?.(view, a) ? { note: setup.robotNote(view, a) } : {}),
    }))
    .filter((r) => setup.observation === 'shared' || self === undefined || r.name === self);
  const shown = visible ? new Set(visible) : null;
  const actions = [
    ...(['PICK', 'PLACE', 'MOVE', 'WAIT'] as const)
      .filter((v) => !(setup.without as string[] | undefined)?.includes(v) && !setup.verbs?.[v])
      .map((verb) => ({ verb, ...(setup.combinedPick && verb === 'PICK' ? COMBINED_PICK : BASE_VERBS[verb]) })),
    ...Object.entries(setup.verbs ?? {}).map(([verb, v]) => ({ verb, usage: v.usage, doc: v.doc })),
  ];
  return {
    multiArm: {
      ...(self ? { self } : {}),
      observation: setup.observation,
      robots,
      relations: [...rel.entries()].filter(([n]) => !shown || shown.has(n)).map(([, r]) => r),
      facts,
      actions,
      path: setup.path ?? 'optional',
      ...(setup.pathPoints ? { pathPoints: setup.pathPoints } : {}),
      rules: setup.rules ?? [],
      strategy: setup.strategy ?? [],
      coordinates: setup.coordinates ?? true,
      grippers: setup.grippers ?? 'all',
    },
  };
}

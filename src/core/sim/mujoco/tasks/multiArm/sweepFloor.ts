// sweep_floor (RoCoBench Sweep Floor): Alice (UR5E + Robotiq gripper) holds a dustpan, Bob (Franka Panda) a
// broom, from the start; they face each other across the table. For each cube both MOVE to it (the dustpan's
// mouth on Alice's side, the broom behind it on Bob's), then Bob SWEEPs it into the dustpan while Alice WAITs;
// Alice DUMPs the dustpan's cubes into the trash bin. The dustpan's floor lies flush with the table (it touches
// objects, not the table), so a pushed cube slides onto it. Each robot sees the cubes' states (on the table, inside
// dustpan, inside trash_bin) and its own gripper's position (App. 10.2; asymmetric observation), and, as RoCo's
// code says it, which cube its tool is in front of. Success: every cube inside the trash bin.
import { quatMul, yawQuat } from '../../math3.js';
import type { ToolTarget } from '../../robot/ik.js';
import { mjcfSafe, type ObjectSpec, type Vec3 } from '../../scene/sceneSpec.js';
import type { Quat } from '../../simState.js';
import { objectIndex, toolForObjectPose, type RocoGoal } from '../../apis/roco/rocoGoals.js';
import type { RobotApiContext } from '../../apis/robotApi.js';
import { container, cube, rgbaOf } from '../sceneObjects.js';
import { find, held, inside, localOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import type { TaskDefinition, TaskView } from '../taskDefinition.js';
import { armsFacing, FACING_WORKSPACE, multiArmScene, PANDA, UR5E_ROBOTIQ } from './multiArmCommon.js';

const CUBES = ['red_cube', 'green_cube', 'blue_cube'];
const CUBE_M = 0.04;
/** Dustpan, in its own frame (x toward the mouth, origin at the floor's centre). */
const PAN = { depthM: 0.13, widthM: 0.19, wallM: 0.004, wallHM: 0.035, floorM: 0.003 };
/** Grip bars of both tools: along the tool's x, this high above the tool's origin. */
const GRIP_Z = 0.17;
const PAN_GRIP_X = -(PAN.depthM / 2 + 0.04);
const BROOM = { headX: 0.03, headY: 0.06, headZ: 0.035 };
/** Lanes across the dustpan (its y), so cubes swept in one after another do not pile up. */
const LANES = [0, 0.055, -0.055];
const DUMP_TILT_RAD = 1.75;
/** The pan's mouth is tilted up this much while it is carried to the bin. */
const CARRY_TILT_RAD = 0.25;

const grip = (x: number): ObjectSpec['parts'] => [
  { shape: 'box', size: [0.0075, 0.0075, (GRIP_Z - 0.02) / 2], pos: [x, 0, (GRIP_Z - 0.02) / 2 + 0.01] },
  { shape: 'box', size: [0.03, 0.009, 0.009], pos: [x, 0, GRIP_Z], rgba: [0.15, 0.15, 0.17, 1] },
];

function dustpan(): ObjectSpec {
  const { depthM: d, widthM: w, wallM: t, wallHM: h, floorM: f } = PAN;
  return {
    name: 'dustpan',
    mjcfName: mjcfSafe('dustpan'),
    shape: 'compound',
    size: [d + 0.03, w, GRIP_Z + 0.01],
    color: 'blue',
    rgba: rgbaOf('blue'),
    massKg: 0.2,
    parts: [
      // The floor touches objects and arms but not the table: held flush with the table top, cubes slide onto it.
      { shape: 'box', size: [d / 2, w / 2, f / 2], noTable: true },
      { shape: 'box', size: [d / 2, t / 2, h / 2], pos: [0, w / 2 - t / 2, h / 2] },
      { shape: 'box', size: [d / 2, t / 2, h / 2], pos: [0, -w / 2 + t / 2, h / 2] },
      { shape: 'box', size: [t / 2, w / 2, h / 2], pos: [-d / 2 + t / 2, 0, h / 2] },
      ...grip(PAN_GRIP_X)!,
    ],
    interactive: true,
  };
}

function broom(): ObjectSpec {
  return {
    name: 'broom',
    mjcfName: mjcfSafe('broom'),
    shape: 'compound',
    size: [BROOM.headX, BROOM.headY, GRIP_Z + 0.01],
    color: 'yellow',
    rgba: rgbaOf('yellow'),
    massKg: 0.2,
    parts: [{ shape: 'box', size: [BROOM.headX / 2, BROOM.headY / 2, BROOM.headZ / 2] }, ...grip(0)!],
    interactive: true,
  };
}

/** The tool frame as seen from the held object: the grip bar's centre, tool z pointing down into it. */
const IN_TOOL_QUAT: Quat = [0, 1, 0, 0];

const holderOf = (ctx: RobotApiContext, name: string) => ctx.state.grasps.findIndex((g) => g?.object === objectIndex(ctx, name));
const up = (t: ToolTarget, dz: number): ToolTarget => ({ ...t, pos: [t.pos[0], t.pos[1], t.pos[2] + dz] });

/** Both tools stay level with their mouth / bristles toward the other robot: yaw 0 in the world. */
function toolGoal(ctx: RobotApiContext, arm: number, tool: string, pos: Vec3, quat: Quat, zone: Vec3, extra: Partial<RocoGoal> = {}): RocoGoal {
  const target = toolForObjectPose(ctx, arm, pos, quat);
  return { target, above: up(target, 0.1), zonePoint: zone, contact: [target], grip: null, depart: [], ...extra };
}

function cubePos(ctx: RobotApiContext, name: string): Vec3 {
  return ctx.state.objectPose(objectIndex(ctx, name)).pos;
}

/** MOVE <cube>: the dustpan's mouth 2.5 cm before the cube on Alice's side; the broom 3 cm behind it on Bob's. */
function moveGoal(ctx: RobotApiContext, arm: number, a: { object?: string; target?: string; point?: Vec3 }): RocoGoal {
  if (a.point) {
    // Stepping aside with the tool, level as it is held.
    const now = ctx.state.tcpPose(arm);
    const target: ToolTarget = { pos: a.point, yawRad: 0, R: now.R };
    return { target, above: target, zonePoint: a.point, contact: [], grip: null, depart: [] };
  }
  const name = a.target ?? a.object ?? '';
  const c = cubePos(ctx, name);
  const top = ctx.scene.built.spec.table.topZ;
  if (holderOf(ctx, 'dustpan') === arm) {
    // The cube enters the lane of the dustpan with the least cargo.
    const panIdx = objectIndex(ctx, 'dustpan');
    const pan = ctx.state.objectPose(panIdx);
    const cargo = CUBES.filter((n) => n !== name).map((n) => cubePos(ctx, n)).filter((p) => Math.abs(p[0] - pan.pos[0]) < PAN.depthM / 2 && Math.abs(p[1] - pan.pos[1]) < PAN.widthM / 2 && p[2] > top);
    const lane = LANES.reduce((best, y) => (Math.min(1, ...cargo.map((p) => Math.abs(p[1] - pan.pos[1] - y))) > Math.min(1, ...cargo.map((p) => Math.abs(p[1] - pan.pos[1] - best))) + 1e-9 ? y : best), LANES[0]!);
    const pos: Vec3 = [c[0] - CUBE_M / 2 - 0.025 - PAN.depthM / 2, c[1] - lane, top - PAN.floorM / 2 + 0.001];
    return toolGoal(ctx, arm, 'dustpan', pos, [1, 0, 0, 0], c);
  }
  if (holderOf(ctx, 'broom') === arm) {
    const pos: Vec3 = [c[0] + CUBE_M / 2 + 0.03 + BROOM.headX / 2, c[1], top + BROOM.headZ / 2 + 0.004];
    return toolGoal(ctx, arm, 'broom', pos, [1, 0, 0, 0], c);
  }
  const t = ctx.state.tcp(arm);
  const target: ToolTarget = { pos: [c[0], c[1], c[2] + 0.12], yawRad: t.yawRad };
  return { target, above: target, zonePoint: c, contact: [], grip: null, depart: [] };
}

/** SWEEP <cube>: the broom pushes along -x until the cube is 5 cm inside the dustpan's mouth, then lifts. */
function sweepGoal(ctx: RobotApiContext, arm: number, a: { object?: string }): RocoGoal {
  const c = cubePos(ctx, a.object ?? '');
  const pan = ctx.state.objectPose(objectIndex(ctx, 'dustpan')).pos;
  const broomPose = ctx.state.objectPose(objectIndex(ctx, 'broom'));
  // Pushed 6 cm past the mouth (the lanes keep cubes apart; deeper, the two wrists would meet).
  const mouthX = pan[0] + PAN.depthM / 2;
  const endX = mouthX - 0.06 + CUBE_M / 2 + BROOM.headX / 2;
  const end: Vec3 = [endX, broomPose.pos[1], broomPose.pos[2]];
  const target = toolForObjectPose(ctx, arm, end, broomPose.quat);
  return { target, above: null, zonePoint: c, contact: [target], grip: null, depart: [up(target, 0.1)] };
}

/** DUMP: the dustpan turned a quarter (the wrist can tip it that way) over the trash bin, tipped mouth-down, and levelled again. */
function dumpGoal(ctx: RobotApiContext, arm: number): RocoGoal {
  const bin = ctx.state.objectPose(objectIndex(ctx, 'trash_bin')).pos;
  const binTop = bin[2] + ctx.scene.built.spec.objects[objectIndex(ctx, 'trash_bin')]!.size[2] / 2;
  const center: Vec3 = [bin[0], bin[1], binTop + 0.09];
  const turned = yawQuat(Math.PI / 2);
  const level = toolForObjectPose(ctx, arm, center, turned);
  // Tipped about the pan's own y axis: its mouth (x) points down into the bin.
  const tipped = toolForObjectPose(ctx, arm, [center[0], center[1], center[2] + 0.02], quatMul(turned, [Math.cos(DUMP_TILT_RAD / 2), 0, Math.sin(DUMP_TILT_RAD / 2), 0]));
  // Carried on a straight tool path (not a joint-space one that could tip the cubes out on the way), with the mouth
  // tilted up so the cubes rest against the back wall (held level, a cube near the mouth slid out as the arm lagged
  // on seed 1): lifted, then across with the pan unturned until its centre is over the bin, turned there, tipped,
  // levelled again.
  const pan = ctx.state.objectPose(objectIndex(ctx, 'dustpan')).pos;
  const mouthUp: Quat = [Math.cos(-CARRY_TILT_RAD / 2), 0, Math.sin(-CARRY_TILT_RAD / 2), 0];
  const across = toolForObjectPose(ctx, arm, center, mouthUp);
  const lift = toolForObjectPose(ctx, arm, [pan[0], pan[1], Math.max(pan[2] + 0.12, center[2])], mouthUp);
  return { target: tipped, above: null, zonePoint: bin, contact: [lift, across, level, tipped], grip: null, depart: [level] };
}

/** A cube resting on the dustpan's floor, within its walls. */
function inPan(view: TaskView, c: TaskView['objects'][number]): boolean {
  const pan = find(view, 'dustpan');
  const l = localOf(c.pos, pan);
  return Math.abs(l[0]) <= PAN.depthM / 2 + 0.005 && Math.abs(l[1]) <= PAN.widthM / 2 && l[2] > -0.01 && l[2] < PAN.wallHM + 0.02;
}

/** The dustpan lies before the cube, its mouth toward it, flat on the table (where a SWEEP pushes the cube in). */
function panAt(view: TaskView, c: TaskView['objects'][number]): boolean {
  const p = find(view, 'dustpan').pos;
  return Math.abs(p[1] - c.pos[1]) <= PAN.widthM / 2 - CUBE_M / 2 - 0.01 && p[0] <= c.pos[0] && c.pos[0] - p[0] <= 0.2 && p[2] <= view.tableTopZ + 0.02;
}

/** The broom stands just behind the cube, low enough to push it. */
function broomAt(view: TaskView, c: TaskView['objects'][number]): boolean {
  const b = find(view, 'broom').pos;
  return Math.abs(b[1] - c.pos[1]) <= 0.05 && b[0] >= c.pos[0] && b[0] - c.pos[0] <= 0.12 && b[2] <= view.tableTopZ + 0.04;
}

export function sweepFloorTask(): TaskDefinition {
  const pan = dustpan();
  const brm = broom();
  const bin = container('trash_bin', 'grey', [0.22, 0.22, 0.12], { fixed: true, wallM: 0.01 });
  const cubes = CUBES.map((n) => cube(n, n.split('_')[0]!, CUBE_M));
  const objects = [pan, brm, bin, ...cubes];
  return {
    info: {
      id: 'sweep_floor',
      description: 'Alice (UR5E + Robotiq gripper) holds a dustpan and Bob (Franka Panda) a broom: they sweep three cubes into the dustpan, one at a time, and Alice dumps them into the trash bin.',
      instruction: 'Sweep up the red_cube, the green_cube and the blue_cube and put them in the trash_bin: Alice holds the dustpan, Bob holds the broom.',
      suite: 'multi-arm',
      arms: 2,
      imitates: 'RoCo / RoCoBench Sweep Floor',
    },
    workspace: FACING_WORKSPACE,
    defaultApi: 'roco',
    apis: ['roco'],
    heldAtStart: [
      { robot: 0, object: 'dustpan', inTool: { pos: [-PAN_GRIP_X, 0, GRIP_Z], quat: IN_TOOL_QUAT }, gripWidthM: 0.018 },
      { robot: 1, object: 'broom', inTool: { pos: [0, 0, GRIP_Z], quat: IN_TOOL_QUAT }, gripWidthM: 0.018 },
    ],
    multiArm: {
      robots: [
        { name: 'Alice', reachX: [-0.6, 0.6], reachText: 'the whole table; you hold the dustpan' },
        { name: 'Bob', reachX: [-0.6, 0.6], reachText: 'the whole table; you hold the broom' },
      ],
      observation: 'partial',
      without: ['PICK', 'PLACE'],
      verbs: {
        MOVE: { args: 'object', usage: 'MOVE <cube> | MOVE (x, y, z)', doc: 'bring the tool you hold to the cube (the dustpan to its side, the broom behind it), or step aside to a point', goal: (ctx, arm, a) => moveGoal(ctx, arm, a) },
        SWEEP: { args: 'object', usage: 'SWEEP <cube>', doc: 'only Bob: push the cube with the broom into the dustpan (both robots must have MOVEd to that cube; Alice WAITs)', goal: (ctx, arm, a) => sweepGoal(ctx, arm, a) },
        DUMP: { args: 'none', usage: 'DUMP', doc: 'only Alice, when cubes are in the dustpan: empty the dustpan into the trash_bin', goal: (ctx, arm) => dumpGoal(ctx, arm) },
      },
      rules: [
        'To sweep a cube, both robots first MOVE to that same cube; then Bob SWEEPs it while Alice WAITs.',
        'Sweep the cubes one at a time; when cubes are in the dustpan, Alice can DUMP them into the trash_bin.',
        'MOVE targets are cubes or a point (x, y, z) to step aside to; SWEEP targets are cubes.',
      ],
      relation(view, name) {
        if (!CUBES.includes(name)) return undefined;
        const c = find(view, name);
        if (inside(c, find(view, 'trash_bin'), 0.01)) return `${name} is inside trash_bin`;
        if (inPan(view, c)) return `${name} is inside dustpan`;
        // RoCo's code: anything not in the dustpan or the bin is "on the table".
        return `${name} is on the table`;
      },
      // App. 10.2: cube states and the robots' 3D gripper locations; the cubes' and tools' positions only under
      // the `observation.coordinates` ablation.
      coordinates: 'grippers',
      robotNote(view, robot) {
        const tool = view.grasped[robot];
        const c = CUBES.map((n) => find(view, n)).find((cube) => !inPan(view, cube) && !inside(cube, find(view, 'trash_bin'), 0.01) && (tool === 'dustpan' ? panAt(view, cube) : tool === 'broom' ? broomAt(view, cube) : false));
        return c ? `in front of ${c.name}` : undefined;
      },
    },
    planRules(plan, view) {
      const alice = plan.find((p) => p.robot === 'Alice');
      const bob = plan.find((p) => p.robot === 'Bob');
      for (const p of plan) {
        if (p.verb === 'MOVE' && p.point) continue;
        if ((p.verb === 'MOVE' || p.verb === 'SWEEP') && !CUBES.includes(p.target ?? p.object ?? '')) return `MOVE and SWEEP targets must be a cube, not ${p.target ?? p.object ?? 'a point'}`;
        if (p.verb === 'SWEEP' && p.robot !== 'Bob') return `only Bob (the broom) can SWEEP`;
        if (p.verb === 'DUMP' && p.robot !== 'Alice') return `only Alice (the dustpan) can DUMP`;
      }
      if (bob?.verb === 'SWEEP') {
        if (alice?.verb !== 'WAIT') return 'Alice must WAIT while Bob SWEEPs';
        const c = find(view, bob.object!);
        if (!panAt(view, c)) return `Alice's dustpan is not at ${bob.object}: both must MOVE to it before Bob SWEEPs`;
        if (!broomAt(view, c)) return `Bob's broom is not behind ${bob.object}: both must MOVE to it before Bob SWEEPs`;
      }
      if (alice?.verb === 'DUMP' && !CUBES.some((n) => inPan(view, find(view, n)))) return 'there is no cube in the dustpan to DUMP';
      return null;
    },
    locations: [{ name: 'trash_bin', kind: 'container', wallM: 0.01 }],
    scene: multiArmScene('sweep-floor', armsFacing(['Alice', 'Bob'], [UR5E_ROBOTIQ, PANDA]), objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      l.at(bin, [l.uniform(-0.17, -0.13), l.uniform(-0.4, -0.36)]);
      // The tools start in the robots' grippers (heldAtStart); these placements are overwritten.
      l.at(pan, [-0.45, 0.55]);
      l.at(brm, [0.45, 0.55]);
      for (const c of cubes) l.scatter(c, { x: [-0.1, 0.1], y: [-0.12, 0.3] }, { gapM: 0.1, yawRange: [-0.3, 0.3] });
      return l.placements(objects);
    },
    check(view) {
      const b = find(view, 'trash_bin');
      const problems: string[] = [];
      const out = CUBES.filter((n) => !inside(find(view, n), b, 0.01));
      if (out.length > 0) problems.push(`not in the trash bin: ${out.join(', ')}`);
      const heldCubes = held(view).filter((n) => CUBES.includes(n));
      if (heldCubes.length > 0) problems.push(`${heldCubes.join(', ')} grasped`);
      return verdict('sweep_floor', problems, 'all three cubes are in the trash bin');
    },
  };
}


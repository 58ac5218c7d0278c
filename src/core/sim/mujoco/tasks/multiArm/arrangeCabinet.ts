// arrange_cabinet (RoCoBench Arrange Cabinet): a cabinet with two hinged doors that swing shut on their springs
// when let go, two cups inside. Alice (UR5E + Robotiq gripper, left) reaches only the left door's handle, Bob
// (Franka Panda, right) only the right door's; Chad (UR5E + suction, in the middle) reaches the right door, the
// cups and the coasters. Alice and Bob OPEN their doors (grasp the handle, swing the door out along its arc) and
// hold them while Chad takes each cup out through the opening (a suction cup pressed on the cup's side: the
// cabinet has a roof, so no top-down pick) and PLACEs it on its coaster in front of the cabinet. Each robot sees
// what lies in its reach (asymmetric observation) and the doors' state. Success: each cup on its coaster,
// released and at rest.
import { topDownMat } from '../../math3.js';
import type { ToolTarget } from '../../robot/ik.js';
import { mjcfSafe, type ObjectSpec, type PartSpec, type Vec3 } from '../../scene/sceneSpec.js';
import { sideGraspMat } from '../../robot/skillMotion.js';
import { graspPlan } from '../../apis/actctx/graspPoses.js';
import { objectIndex, toolForObjectPose, type RocoGoal } from '../../apis/roco/rocoGoals.js';
import type { RobotApiContext } from '../../apis/robotApi.js';
import { cylinder, rgbaOf, targetArea } from '../sceneObjects.js';
import { atRest, find, held, onArea, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { TABLE_TOP_Z } from '../tabletopCommon.js';
import type { TaskDefinition, TaskView } from '../taskDefinition.js';
import { armsFacing, armsInRow, MULTI_ARM_WORKSPACE, multiArmScene, PANDA, UR5E_ROBOTIQ, UR5E_SUCTION } from './multiArmCommon.js';

/** Cabinet body (full extents, metres): open front toward the robots (-y), its floor `plinth` above the table. */
const CAB = { w: 0.56, d: 0.24, h: 0.33, t: 0.01, plinth: 0.1 };
const CAB_Y = 0.33;
const FRONT_Y = CAB_Y - CAB.d / 2;
const DOOR = { w: CAB.w / 2 - 0.004, t: 0.012, h: CAB.h - CAB.plinth - 0.012, z: CAB.plinth / 2 };
/**
 * The handle: a vertical bar this far proud of the door and this far in from its free edge, on posts at its ends.
 * A top-down grasp closes the fingers along the door (the hand's long side parallel to it, clear of the door).
 */
const HANDLE_OUT = 0.05;
const HANDLE_IN = 0.1;
const HANDLE_LEN = 0.1;
const HANDLE_Z = DOOR.h / 2 - 0.02 - HANDLE_LEN / 2;
/** A door counts as open from here (radians, ~57 deg); OPEN swings it to OPEN_RAD. */
export const DOOR_OPEN_MIN_RAD = 1.0;
const OPEN_RAD = 1.5;
const SPRING_NM_PER_RAD = 0.25;
const CUP = { r: 0.03, h: 0.12 };
/** The coasters lie on the cabinet's roof (out of the robots' way; Chad's arm cannot reach down to the table there). */
const ROOF_Z = CAB.h;
/** Cups stand on the cabinet's floor board. */
const CUP_Z = CAB.plinth + CAB.t + CUP.h / 2;
export const CABINET_GOALS: Record<string, string> = { red_cup: 'red_coaster', blue_mug: 'blue_coaster' };
const CUPS = Object.keys(CABINET_GOALS);
const ROBOTS = ['Alice', 'Bob', 'Chad'];
const DOORS = [
  { name: 'left_door', handle: 'left_door_handle', side: -1 },
  { name: 'right_door', handle: 'right_door_handle', side: 1 },
] as const;

function cabinet(): ObjectSpec {
  const { w, d, h, t } = CAB;
  const parts: PartSpec[] = [
    { shape: 'box', size: [w / 2, d / 2, t / 2], pos: [0, 0, h / 2 - t / 2] },
    { shape: 'box', size: [t / 2, d / 2, h / 2], pos: [w / 2 - t / 2, 0, 0] },
    { shape: 'box', size: [t / 2, d / 2, h / 2], pos: [-w / 2 + t / 2, 0, 0] },
    { shape: 'box', size: [w / 2, t / 2, h / 2], pos: [0, d / 2 - t / 2, 0] },
    { shape: 'box', size: [w / 2, d / 2, t / 2], pos: [0, 0, -h / 2 + CAB.plinth + t / 2] },
  ];
  return { name: 'cabinet', mjcfName: mjcfSafe('cabinet'), shape: 'compound', size: [w, d, h], color: 'white', rgba: rgbaOf('white'), massKg: 5, mount: { kind: 'fixed' }, parts };
}

/** A door hinged at the cabinet's outer front edge on its side (side -1: left); its frame sits on the hinge axis. */
function door(name: string, side: -1 | 1): ObjectSpec {
  const inward = -side;
  const barX = inward * (DOOR.w - HANDLE_IN);
  const dark = [0.3, 0.3, 0.32, 1] as [number, number, number, number];
  const post = (dz: number): PartSpec => ({ shape: 'box', size: [0.005, (HANDLE_OUT - 0.01) / 2, 0.005], pos: [barX, -DOOR.t / 2 - (HANDLE_OUT - 0.01) / 2, HANDLE_Z + dz], rgba: dark });
  return {
    name,
    mjcfName: mjcfSafe(name),
    shape: 'compound',
    size: [DOOR.w, DOOR.t, DOOR.h],
    color: 'white',
    rgba: rgbaOf('white'),
    massKg: 0.8,
    // Left door: turning about -z swings its free edge (+x) toward the robots (-y); right door about +z.
    mount: { kind: 'hinge', parent: 'cabinet', pos: [side * (CAB.w / 2), -CAB.d / 2 - DOOR.t / 2 - 0.001, DOOR.z], axis: [0, 0, side], rangeRad: [0, 1.7], dampingNms: 0.4, stiffnessNmPerRad: SPRING_NM_PER_RAD },
    parts: [{ shape: 'box', size: [DOOR.w / 2, DOOR.t / 2, DOOR.h / 2], pos: [(inward * DOOR.w) / 2, 0, 0] }, post(-HANDLE_LEN / 2 + 0.005), post(HANDLE_LEN / 2 - 0.005)],
    interactive: true,
  };
}

function handle(name: string, parent: string, side: -1 | 1): ObjectSpec {
  return {
    name,
    mjcfName: mjcfSafe(name),
    shape: 'box',
    // A little deeper than wide, so a top grasp closes the fingers across the door's width (see graspPlan).
    size: [0.012, 0.016, HANDLE_LEN],
    color: 'grey',
    rgba: [0.3, 0.3, 0.32, 1],
    massKg: 0.05,
    mount: { kind: 'part', parent, pos: [-side * (DOOR.w - HANDLE_IN), -DOOR.t / 2 - HANDLE_OUT + 0.008, HANDLE_Z] },
    interactive: true,
  };
}

const hingeAngle = (view: TaskView, name: string) => find(view, name).angleRad ?? 0;
const doorOpen = (view: TaskView, name: string) => hingeAngle(view, name) >= DOOR_OPEN_MIN_RAD;

function rotZ(p: Vec3, about: Vec3, a: number): Vec3 {
  const dx = p[0] - about[0];
  const dy = p[1] - about[1];
  return [about[0] + Math.cos(a) * dx - Math.sin(a) * dy, about[1] + Math.sin(a) * dx + Math.cos(a) * dy, p[2]];
}

/**
 * OPEN <handle>: top-down grasp of the handle bar, then the tool swings along the door's arc (turning with it)
 * until the door stands OPEN_RAD out; the robot keeps holding it.
 */
function openGoal(ctx: RobotApiContext, arm: number, handleName: string): RocoGoal {
  const d = DOORS.find((x) => x.handle === handleName);
  const h = objectIndex(ctx, handleName);
  const plan = graspPlan(ctx, h, 'top', arm);
  if (!d) return { target: plan.grasp, above: plan.pre, zonePoint: plan.grasp.pos, contact: [plan.grasp], grip: 'close', depart: [], graspObject: h };
  const doorIdx = objectIndex(ctx, d.name);
  const hinge = ctx.state.objectPose(doorIdx).pos;
  const now = ctx.state.hingeAngle(doorIdx) ?? 0;
  // World turn of the door per radian opened: the left door turns about -z, the right about +z.
  const turn = d.side < 0 ? -1 : 1;
  const arc: ToolTarget[] = [];
  const steps = Math.max(1, Math.ceil((OPEN_RAD - now) / 0.12));
  for (let k = 1; k <= steps; k++) {
    const da = (turn * (OPEN_RAD - now) * k) / steps;
    // Slightly lifted on the way so the fingers do not drag on the bar.
    arc.push({ pos: rotZ(plan.grasp.pos, hinge, da), yawRad: plan.grasp.yawRad + da, R: topDownMat(plan.grasp.yawRad + da) });
  }
  const grasp: ToolTarget = { ...plan.grasp, R: topDownMat(plan.grasp.yawRad) };
  return { target: arc[arc.length - 1] ?? grasp, above: plan.pre, zonePoint: ctx.state.objectPose(h).pos, contact: [grasp], grip: 'close', depart: arc, graspObject: h };
}

/** The suction cup points straight into the cabinet (+y). */
const INTO: [number, number] = [0, 1];

/** PICK <cup>: the suction cup pressed on the cup's front side through the open doors, then back out and up. */
function pickGoal(ctx: RobotApiContext, arm: number, name: string): RocoGoal {
  const i = objectIndex(ctx, name);
  const c = ctx.state.objectPose(i).pos;
  const r = ctx.scene.built.spec.objects[i]!.size[0] / 2;
  const R = sideGraspMat(INTO);
  const z = c[2] + CUP.h / 2 - 0.03;
  const grasp: ToolTarget = { pos: [c[0], c[1] - r + 0.004, z], yawRad: 0, R };
  const out = FRONT_Y - 0.1;
  const pre: ToolTarget = { pos: [c[0], out, z], yawRad: 0, R };
  return { target: grasp, above: pre, zonePoint: c, contact: [grasp], grip: 'close', depart: [{ ...pre, pos: [c[0], out, z + 0.01] }, { ...pre, pos: [c[0], out, z + 0.08] }], graspObject: i };
}

/** PLACE <cup> <coaster>: the held cup set upright on the coaster's centre, let go, the tool backs off. */
function placeGoal(ctx: RobotApiContext, arm: number, cupName: string, target: string): RocoGoal {
  const i = objectIndex(ctx, cupName);
  const t = ctx.state.objectPose(objectIndex(ctx, target)).pos;
  const top = ctx.scene.built.spec.table.topZ + ROOF_Z;
  const q = ctx.state.objectPose(i).quat;
  const h = ctx.scene.built.spec.objects[i]!.size[2];
  const on = toolForObjectPose(ctx, arm, [t[0], t[1], top + h / 2 + 0.004], q);
  const above: ToolTarget = { ...on, pos: [on.pos[0], on.pos[1], on.pos[2] + 0.1] };
  const back: ToolTarget = { ...on, pos: [on.pos[0], FRONT_Y - 0.06, on.pos[2] + 0.01] };
  return { target: on, above, zonePoint: t, contact: [on], grip: 'open', depart: [back, { ...back, pos: [back.pos[0], back.pos[1], back.pos[2] + 0.08] }] };
}

export function arrangeCabinetTask(): TaskDefinition {
  const cab = cabinet();
  const doors = DOORS.map((d) => door(d.name, d.side));
  const handles = DOORS.map((d) => handle(d.handle, d.name, d.side));
  const cups = [cylinder('red_cup', 'red', CUP.r, CUP.h, 0.12), cylinder('blue_mug', 'blue', CUP.r, CUP.h, 0.12)];
  const coasters = [targetArea('red_coaster', 'red', 0.09), targetArea('blue_coaster', 'blue', 0.09)];
  const objects = [cab, ...doors, ...handles, ...cups, ...coasters];
  // Alice and Bob stand at the table's left and right ends facing each other (each beside its door), Chad at the
  // near edge facing the cabinet's opening (robot order = speaking order).
  const [alice, bob] = armsFacing(['Alice', 'Bob'], [UR5E_ROBOTIQ, PANDA]).map((a) => ({ ...a, basePos: [a.basePos[0] * 1.05, 0.12, a.basePos[2]] as Vec3, homeTcp: { ...a.homeTcp, pos: [a.homeTcp.pos[0] * 1.5, 0.12, 1.1] as Vec3 } }));
  const [chad] = armsInRow(['Chad'], 0, [UR5E_SUCTION]);
  const arms = [alice!, bob!, chad!];
  const robotOf = (plan: { robot: string; verb: string }[], name: string) => plan.find((p) => p.robot === name);
  return {
    info: {
      id: 'arrange_cabinet',
      description: 'Three arms at a cabinet whose hinged doors close on their springs: Alice and Bob each OPEN and hold one door, Chad (suction) takes the two cups out through the opening and puts each on its coaster.',
      // As RoCo's agent prompt (App. 10.7): the shared task; each robot hears only its own reach.
      instruction: 'Take the cups out of the cabinet and put them on the correct coasters: red_cup goes on red_coaster, blue_mug on blue_coaster. Both doors must be OPENed and held open while anything inside is PICKed.',
      suite: 'multi-arm',
      arms: 3,
      imitates: 'RoCo / RoCoBench Arrange Cabinet',
    },
    workspace: MULTI_ARM_WORKSPACE,
    defaultApi: 'roco',
    apis: ['roco'],
    multiArm: {
      robots: [
        { name: 'Alice', reachX: [-0.6, 0.0], reachText: 'the left door (left_door_handle) only', standsText: 'on the left side of the table' },
        { name: 'Bob', reachX: [0.0, 0.6], reachText: 'the right door (right_door_handle) only', standsText: 'on the right side of the table' },
        { name: 'Chad', reachX: [-0.3, 0.3], reachText: 'the right door, the cups inside the cabinet and the coasters', standsText: 'in front of the cabinet' },
      ],
      observation: 'partial',
      verbs: {
        OPEN: { args: 'object', usage: 'OPEN <door handle>', doc: 'grasp a door handle you reach and swing that door open; you keep holding it (it swings shut when let go)', goal: (ctx, arm, a) => openGoal(ctx, arm, a.object ?? '') },
        PICK: { args: 'object', usage: 'PICK <cup>', doc: 'only when both doors are open: take a cup out of the cabinet', goal: (ctx, arm, a) => pickGoal(ctx, arm, a.object ?? '') },
        PLACE: { args: 'object', usage: 'PLACE <cup> <coaster>', doc: 'put the cup you hold on a coaster', goal: (ctx, arm, a) => placeGoal(ctx, arm, a.object ?? '', a.target ?? '') },
      },
      rules: [
        'A cup can be taken out only while both doors are open, and a door stays open only while a robot holds its handle.',
        'Each cup goes on its own coaster: red_cup on red_coaster, blue_mug on blue_coaster.',
      ],
      facts(view) {
        return DOORS.map((d) => {
          const a = hingeAngle(view, d.name);
          const holder = view.grasped.findIndex((g) => g === d.handle);
          const who = holder >= 0 ? `, held by ${ROBOTS[holder]}` : '';
          return a >= DOOR_OPEN_MIN_RAD ? `${d.name} is open (${Math.round((a * 180) / Math.PI)} degrees)${who}` : `${d.name} is closed${who}`;
        });
      },
      relation(view, name) {
        if (!CUPS.includes(name)) return undefined;
        const c = find(view, name);
        for (const k of coasters) if (onArea(c, find(view, k.name)) && Math.abs(c.pos[2] - CUP.h / 2 - ROOF_Z - view.tableTopZ) < 0.015) return `${name} is on ${k.name}`;
        const l = c.pos;
        if (Math.abs(l[0]) < CAB.w / 2 && l[1] > FRONT_Y && l[1] < CAB_Y + CAB.d / 2) return `${name} is inside cabinet`;
        return undefined;
      },
    },
    planRules(plan, view) {
      for (const p of plan) {
        if (p.verb === 'OPEN') {
          const d = DOORS.find((x) => x.handle === p.object);
          if (!d) return `OPEN takes a door handle (left_door_handle or right_door_handle), not ${p.object}`;
          if (p.robot === 'Alice' && d.side > 0) return 'Alice cannot reach the right door';
          if ((p.robot === 'Bob' || p.robot === 'Chad') && d.side < 0) return `${p.robot} cannot reach the left door`;
          if (view.grasped.includes(d.handle)) return `${d.name} is already held open`;
        }
        if ((p.verb === 'PICK' || p.verb === 'PLACE') && p.robot !== 'Chad') return `only Chad can reach the cups and the coasters, not ${p.robot}`;
        if ((p.verb === 'PICK' || p.verb === 'PLACE') && !CUPS.includes(p.object ?? '')) return `${p.verb} takes a cup (${CUPS.join(', ')}), not ${p.object}`;
        if (p.verb === 'PLACE' && CABINET_GOALS[p.object!] !== p.target) return `${p.object} goes on ${CABINET_GOALS[p.object!]}, not ${p.target}`;
        if (p.verb === 'PICK') {
          const shut = DOORS.filter((d) => !doorOpen(view, d.name)).map((d) => d.name);
          if (shut.length > 0) return `both doors must be open before Chad can PICK ${p.object}: ${shut.join(' and ')} ${shut.length > 1 ? 'are' : 'is'} closed`;
          const moving = DOORS.map((d) => ROBOTS[view.grasped.indexOf(d.handle)]).filter((r): r is string => !!r && (robotOf(plan, r)?.verb ?? 'WAIT') !== 'WAIT');
          if (moving.length > 0) return `${moving.join(' and ')} must WAIT holding the door while Chad takes a cup out`;
        }
      }
      return null;
    },
    locations: coasters.map((c) => ({ name: c.name, kind: 'surface' as const, single: true })),
    scene: multiArmScene('arrange-cabinet', arms, objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      l.at(cab, [0, CAB_Y]);
      for (const o of [...doors, ...handles]) l.attached(o, 0);
      // The cups stand inside near the front, in random order left and right.
      const xs = l.shuffle([-0.07, 0.07]);
      cups.forEach((c, i) => l.at(c, [xs[i]! + l.uniform(-0.01, 0.01), FRONT_Y + 0.036 + l.uniform(0, 0.01)], 0, { z: TABLE_TOP_Z + CUP_Z }));
      const cx = l.shuffle([-0.075, 0.075]);
      coasters.forEach((c, i) => l.at(c, [cx[i]! + l.uniform(-0.005, 0.005), CAB_Y + 0.04 + l.uniform(-0.01, 0.01)], 0, { z: TABLE_TOP_Z + ROOF_Z + c.size[2] / 2 }));
      return l.placements(objects);
    },
    check(view) {
      const problems: string[] = [];
      const heldCups = held(view).filter((n) => CUPS.includes(n));
      if (heldCups.length > 0) problems.push(`${heldCups.join(', ')} still held`);
      for (const [c, k] of Object.entries(CABINET_GOALS)) {
        const o = find(view, c);
        if (!onArea(o, find(view, k)) || Math.abs(o.pos[2] - CUP.h / 2 - ROOF_Z - view.tableTopZ) > 0.015) problems.push(`${c} is not on ${k}`);
        else if (!atRest(o)) problems.push(`${c} is still moving`);
      }
      return verdict('arrange_cabinet', problems, 'red_cup is on red_coaster and blue_mug on blue_coaster');
    },
  };
}

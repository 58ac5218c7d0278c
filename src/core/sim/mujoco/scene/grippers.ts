// End effectors an arm can carry, built as the innermost body of the arm (the hand, mounted on the flange):
// the Panda hand and a Robotiq-style 2-finger gripper (an Allegro-class hand is in allegroHand.ts) (two position-servo fingers whose pads close along the
// hand's y axis) and a suction gripper (a cup whose face is the tool centre point, with an adhesion actuator
// switched on to hold). The hand frame: z along the approach direction (out of the flange); the `ee` site sits
// at the tool centre point with the hand's orientation.
import type { CollisionBits } from './collisionGroups.js';
import { buildAllegroHand } from './allegroHand.js';
import { axisAngleQuat, el, type MjcfElement } from './mjcf.js';
import type { ArmSpec, BodyLabel, GripperLayout, Vec3 } from './sceneSpec.js';

const DARK: [number, number, number, number] = [0.2, 0.2, 0.22, 1];

export interface BuiltGripper {
  body: MjcfElement;
  actuators: MjcfElement[];
  bodies: BodyLabel[];
  layout: GripperLayout;
  /** Tool centre point in the hand frame. */
  tcpInHand: Vec3;
  label: string;
}

/** Dimensions of a parallel-jaw gripper (metres): palm box half extents and centre, finger base, pad half extents, travel. */
interface ParallelSpec {
  label: string;
  palmHalf: Vec3;
  palmZ: number;
  fingerZ: number;
  padHalf: Vec3;
  travel: number;
  palmMassKg: number;
  rgba: [number, number, number, number];
}

/** Franka hand: palm 0.05 x 0.18 x 0.06, pads from 6 to 11.7 cm past the flange's hand mount, 4 cm travel per finger. */
export const PANDA_HAND: ParallelSpec = {
  label: 'Franka hand',
  palmHalf: [0.025, 0.09, 0.03],
  palmZ: 0.03,
  fingerZ: 0.06,
  padHalf: [0.011, 0.006, 0.0287],
  travel: 0.04,
  palmMassKg: 0.7,
  rgba: [0.92, 0.92, 0.94, 1],
};

/** A Robotiq 2F-85-class gripper: 85 mm stroke, about 15 cm from the coupling to the finger tips. */
export const ROBOTIQ_2F85: ParallelSpec = {
  label: 'Robotiq 2F-85 gripper',
  palmHalf: [0.032, 0.055, 0.045],
  palmZ: 0.045,
  fingerZ: 0.09,
  padHalf: [0.011, 0.007, 0.03],
  travel: 0.0425,
  palmMassKg: 0.9,
  rgba: [0.25, 0.25, 0.28, 1],
};

/** The tool centre point sits 1.4 cm above the pads' tips (between the pads), as on the Panda. */
function parallelTcpZ(g: ParallelSpec): number {
  return g.fingerZ + 2 * g.padHalf[2] - 0.014;
}

export function buildParallelGripper(spec: ArmSpec, bits: CollisionBits, g: ParallelSpec, mount: { pos: Vec3; yawRad: number }): BuiltGripper {
  const p = spec.prefix;
  const L = spec.label;
  const tcpZ = parallelTcpZ(g);
  const padCenterZ = g.padHalf[2];
  const finger = (side: 'left' | 'right'): MjcfElement => {
    const sign = side === 'left' ? 1 : -1;
    return el('body', { name: `${p}finger_${side}`, pos: [0, 0, g.fingerZ], gravcomp: 1 }, [
      el('joint', { name: `${p}finger_${side}_joint`, type: 'slide', axis: [0, sign, 0], range: [0, g.travel], armature: 0.01, damping: 2 }),
      // The inner face sits at the joint value, so the opening equals the sum of both joint values.
      el('geom', {
        name: `${p}finger_${side}_geom`,
        type: 'box',
        pos: [0, sign * g.padHalf[1], padCenterZ],
        size: g.padHalf,
        rgba: DARK,
        friction: [1.5, 0.01, 0.001],
        mass: 0.05,
        ...bits,
      }),
    ]);
  };
  const body = el('body', { name: `${p}hand`, pos: mount.pos, quat: axisAngleQuat([0, 0, 1], mount.yawRad), gravcomp: 1 }, [
    el('geom', { name: `${p}hand_geom`, type: 'box', pos: [0, 0, g.palmZ], size: g.palmHalf, rgba: g.rgba, mass: g.palmMassKg, ...bits }),
    el('site', { name: `${p}ee`, pos: [0, 0, tcpZ], size: [0.005], rgba: [1, 0, 0, 0.5] }),
    finger('left'),
    finger('right'),
  ]);
  const fingerAct = (side: 'left' | 'right') =>
    el('position', { name: `${p}finger_${side}_act`, joint: `${p}finger_${side}_joint`, kp: 400, kv: 20, ctrlrange: [0, g.travel], forcerange: [-40, 40] });
  return {
    body,
    actuators: [fingerAct('left'), fingerAct('right')],
    bodies: [
      { mjcf: `${p}hand`, label: `${L}hand` },
      { mjcf: `${p}finger_left`, label: `${L}left finger` },
      { mjcf: `${p}finger_right`, label: `${L}right finger` },
    ],
    layout: {
      kind: 'parallel',
      joints: [`${p}finger_left_joint`, `${p}finger_right_joint`],
      actuators: [`${p}finger_left_act`, `${p}finger_right_act`],
      bodies: [`${p}finger_left`, `${p}finger_right`],
      range: [0, g.travel],
    },
    tcpInHand: [0, 0, tcpZ],
    label: g.label,
  };
}

/** Suction gripper: a 10 cm body, a 2.2 cm cup; the cup's face is the tool centre point. */
const SUCTION = { bodyHalfLen: 0.045, bodyRadius: 0.028, cupRadius: 0.022, cupHalf: 0.006 } as const;

export function buildSuctionGripper(spec: ArmSpec, bits: CollisionBits, mount: { pos: Vec3; yawRad: number }): BuiltGripper {
  const p = spec.prefix;
  const L = spec.label;
  const cupZ = 2 * SUCTION.bodyHalfLen;
  const tcpZ = cupZ + 2 * SUCTION.cupHalf;
  const cup = el('body', { name: `${p}suction_cup`, pos: [0, 0, cupZ], gravcomp: 1 }, [
    el('geom', {
      name: `${p}suction_cup_geom`,
      type: 'cylinder',
      pos: [0, 0, SUCTION.cupHalf],
      size: [SUCTION.cupRadius, SUCTION.cupHalf],
      rgba: [0.1, 0.35, 0.75, 1],
      friction: [1.5, 0.01, 0.001],
      mass: 0.05,
      ...bits,
    }),
  ]);
  const body = el('body', { name: `${p}hand`, pos: mount.pos, quat: axisAngleQuat([0, 0, 1], mount.yawRad), gravcomp: 1 }, [
    el('geom', { name: `${p}hand_geom`, type: 'cylinder', pos: [0, 0, SUCTION.bodyHalfLen], size: [SUCTION.bodyRadius, SUCTION.bodyHalfLen], rgba: DARK, mass: 0.4, ...bits }),
    el('site', { name: `${p}ee`, pos: [0, 0, tcpZ], size: [0.005], rgba: [1, 0, 0, 0.5] }),
    cup,
  ]);
  return {
    body,
    // Adhesion pulls along contact normals while switched on; the grasp itself is the same weld as for fingers.
    actuators: [el('adhesion', { name: `${p}suction_act`, body: `${p}suction_cup`, ctrlrange: [0, 1], gain: 5 })],
    bodies: [
      { mjcf: `${p}hand`, label: `${L}hand` },
      { mjcf: `${p}suction_cup`, label: `${L}suction cup` },
    ],
    layout: { kind: 'suction', body: `${p}suction_cup`, actuator: `${p}suction_act` },
    tcpInHand: [0, 0, tcpZ],
    label: 'suction gripper',
  };
}

export function buildGripper(spec: ArmSpec, bits: CollisionBits, mount: { pos: Vec3; yawRad: number }): BuiltGripper {
  switch (spec.gripper ?? 'panda') {
    case 'suction':
      return buildSuctionGripper(spec, bits, mount);
    case 'robotiq':
      return buildParallelGripper(spec, bits, ROBOTIQ_2F85, mount);
    case 'allegro':
      return buildAllegroHand(spec, bits, { pos: mount.pos, quat: axisAngleQuat([0, 0, 1], mount.yawRad) });
    default:
      return buildParallelGripper(spec, bits, PANDA_HAND, mount);
  }
}

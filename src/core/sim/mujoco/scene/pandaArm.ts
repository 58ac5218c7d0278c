// A 7-DoF Franka-class arm with a parallel-jaw gripper, authored from the public kinematic parameters
// (Craig-convention DH table of the Panda) and the datasheet joint limits. Geometry is deliberately simple:
// one capsule per link segment, a box palm and two box fingers. Collision bits: arm geoms collide with the
// world (table, objects, other arms) but not with each other, so self-collision never blocks a motion.
import type { CollisionBits } from './collisionGroups.js';
import { axisAngleQuat, el, type MjcfElement } from './mjcf.js';
import type { ArmLayout, ArmSpec, BodyLabel } from './sceneSpec.js';

/** Public Panda parameters (metres, radians). Modified DH: frame i = RotX(alpha) TransX(a) RotZ(q) TransZ(d). */
export const PANDA = {
  dh: [
    { a: 0, d: 0.333, alpha: 0 },
    { a: 0, d: 0, alpha: -Math.PI / 2 },
    { a: 0, d: 0.316, alpha: Math.PI / 2 },
    { a: 0.0825, d: 0, alpha: Math.PI / 2 },
    { a: -0.0825, d: 0.384, alpha: -Math.PI / 2 },
    { a: 0, d: 0, alpha: Math.PI / 2 },
    { a: 0.088, d: 0, alpha: Math.PI / 2 },
  ],
  flangeD: 0.107,
  jointRanges: [
    [-2.8973, 2.8973],
    [-1.7628, 1.7628],
    [-2.8973, 2.8973],
    [-3.0718, -0.0698],
    [-2.8973, 2.8973],
    [-0.0175, 3.7525],
    [-2.8973, 2.8973],
  ] as [number, number][],
  /** The usual "ready" configuration: gripper pointing down in front of the base. */
  readyQ: [0, -Math.PI / 4, 0, (-3 * Math.PI) / 4, 0, Math.PI / 2, Math.PI / 4],
  /** A side-grasp configuration: tool horizontal and forward, pads vertical (wrist pitched past 90 degrees, rolled a quarter turn). */
  sideQ: [0, 0.2, 0, -2.2, 0, 3.0, Math.PI / 4 - Math.PI / 2],
  /** Hand mount about the flange axis: chosen so that at the ready pose (q7 = pi/4) the pads lie along world x for a base facing +y; the q7 range then covers yaw -pi/2..pi/2 with margin. */
  handYawRad: Math.PI / 4,
  /** Tool centre point (between the finger pads) from the flange along its axis. */
  tcpOffset: 0.1034,
  /** Max travel of each finger; opening = 2x = 0.08 m. */
  fingerTravel: 0.04,
  /** Joint speeds used for planned motions: about half the datasheet limits (2.175 / 2.61 rad/s). */
  motionSpeed: [1.1, 1.1, 1.1, 1.1, 1.3, 1.3, 1.3],
} as const;

// Position-servo gains per joint (N m/rad and N m s/rad). Bodies have gravity compensation, so the servos
// only fight inertia; kv adds damping that the implicit integrator handles stably.
const KP = [3000, 3000, 3000, 3000, 1200, 1200, 1200];
const KV = [250, 250, 200, 200, 80, 80, 60];
const FORCE = [87, 87, 87, 87, 12, 12, 12].map((f) => f * 3);
const LINK_RADIUS = [0.07, 0.06, 0.06, 0.06, 0.055, 0.05, 0.045, 0.04];
const ROBOT_RGBA: [number, number, number, number] = [0.92, 0.92, 0.94, 1];
const JOINT_RGBA: [number, number, number, number] = [0.25, 0.25, 0.28, 1];


function dhBodyPos(i: number): [number, number, number] {
  const { a, d, alpha } = PANDA.dh[i]!;
  // TransX(a) RotX(alpha) then TransZ(d) along the rotated z (RotZ(q) commutes with TransZ(d)).
  return [a, -d * Math.sin(alpha), d * Math.cos(alpha)];
}

/** Segment from a body's origin to its child's origin, as a capsule (or a sphere if the child sits at the origin). */
function linkGeom(name: string, to: [number, number, number], radius: number, bits: CollisionBits): MjcfElement {
  const len = Math.hypot(to[0], to[1], to[2]);
  if (len < 1e-6) return el('geom', { name, type: 'sphere', size: [radius], rgba: JOINT_RGBA, ...bits });
  return el('geom', { name, type: 'capsule', fromto: [0, 0, 0, ...to], size: [radius], rgba: ROBOT_RGBA, ...bits });
}

export interface BuiltArm {
  body: MjcfElement;
  actuators: MjcfElement[];
  layout: ArmLayout;
}

/** `bits`: this arm's collision bits (collisionGroups.ts); its own links never collide with each other. */
export function buildPandaArm(spec: ArmSpec, bits: CollisionBits): BuiltArm {
  const p = spec.prefix;
  const L = spec.label;
  const bodies: BodyLabel[] = [{ mjcf: `${p}link0`, label: `${L}link0` }];
  const joints: string[] = [];
  const actuators: MjcfElement[] = [];

  // Innermost first: hand with fingers, then wrap links 7..1 around it.
  const hand = buildHand(spec, bits);
  let child: MjcfElement = hand.body;
  for (let i = 6; i >= 0; i--) {
    const jointName = `${p}joint${i + 1}`;
    const range = PANDA.jointRanges[i]!;
    const next: [number, number, number] = i === 6 ? [0, 0, PANDA.flangeD] : dhBodyPos(i + 1);
    const body = el(
      'body',
      { name: `${p}link${i + 1}`, pos: dhBodyPos(i), quat: axisAngleQuat([1, 0, 0], PANDA.dh[i]!.alpha), gravcomp: 1 },
      [
        el('joint', { name: jointName, type: 'hinge', axis: [0, 0, 1], range, armature: 0.1, damping: 1 }),
        linkGeom(`${p}link${i + 1}_geom`, next, LINK_RADIUS[i + 1]!, bits),
        child,
      ],
    );
    child = body;
  }
  for (let i = 0; i < 7; i++) {
    joints.push(`${p}joint${i + 1}`);
    bodies.push({ mjcf: `${p}link${i + 1}`, label: `${L}link${i + 1}` });
    actuators.push(
      el('position', {
        name: `${p}act${i + 1}`,
        joint: `${p}joint${i + 1}`,
        kp: KP[i]!,
        kv: KV[i]!,
        ctrlrange: PANDA.jointRanges[i]!,
        forcerange: [-FORCE[i]!, FORCE[i]!],
      }),
    );
  }
  bodies.push(...hand.bodies);
  actuators.push(...hand.actuators);

  const base = el('body', { name: `${p}link0`, pos: spec.basePos, quat: axisAngleQuat([0, 0, 1], spec.baseYawRad) }, [
    el('geom', { name: `${p}link0_geom`, type: 'cylinder', pos: [0, 0, 0.07], size: [0.09, 0.07], rgba: ROBOT_RGBA, ...bits }),
    el('geom', { name: `${p}link0_column`, type: 'capsule', fromto: [0, 0, 0.1, 0, 0, 0.2], size: [LINK_RADIUS[0]!], rgba: ROBOT_RGBA, ...bits }),
    child,
  ]);

  return {
    body: base,
    actuators,
    layout: {
      spec,
      joints,
      actuators: joints.map((_, i) => `${p}act${i + 1}`),
      fingerJoints: [`${p}finger_left_joint`, `${p}finger_right_joint`],
      fingerActuators: [`${p}finger_left_act`, `${p}finger_right_act`],
      eeSite: `${p}ee`,
      handBody: `${p}hand`,
      fingerBodies: [`${p}finger_left`, `${p}finger_right`],
      bodies,
      jointRanges: PANDA.jointRanges.map((r) => [r[0], r[1]] as [number, number]),
      fingerRange: [0, PANDA.fingerTravel],
      seedQ: [...PANDA.readyQ],
      sideSeedQ: [...PANDA.sideQ],
      servoLeadSecs: KP.map((kp, i) => KV[i]! / kp),
      maxJointSpeed: [...PANDA.motionSpeed],
    },
  };
}

/**
 * Hand frame: z along the approach direction (out of the flange), fingers slide along +-y, the finger pads are
 * plates parallel to the hand's x axis. The `ee` site (tool centre point) sits between the pads.
 */
function buildHand(spec: ArmSpec, bits: CollisionBits): { body: MjcfElement; actuators: MjcfElement[]; bodies: BodyLabel[] } {
  const p = spec.prefix;
  const L = spec.label;
  const fingerZ = 0.06;
  const padHalf: [number, number, number] = [0.011, 0.006, 0.0287];
  const padCenterZ = 0.1174 - padHalf[2] - fingerZ; // pad spans hand z 0.06 .. 0.1174; TCP at 0.1034
  const finger = (side: 'left' | 'right'): MjcfElement => {
    const sign = side === 'left' ? 1 : -1;
    return el('body', { name: `${p}finger_${side}`, pos: [0, 0, fingerZ], gravcomp: 1 }, [
      el('joint', { name: `${p}finger_${side}_joint`, type: 'slide', axis: [0, sign, 0], range: [0, PANDA.fingerTravel], armature: 0.01, damping: 2 }),
      // The inner face sits at the joint value, so the opening equals the sum of both joint values.
      el('geom', {
        name: `${p}finger_${side}_geom`,
        type: 'box',
        pos: [0, sign * padHalf[1], padCenterZ],
        size: padHalf,
        rgba: [0.2, 0.2, 0.22, 1],
        friction: [1.5, 0.01, 0.001],
        mass: 0.05,
        ...bits,
      }),
    ]);
  };
  const body = el('body', { name: `${p}hand`, pos: [0, 0, PANDA.flangeD], quat: axisAngleQuat([0, 0, 1], PANDA.handYawRad), gravcomp: 1 }, [
    el('geom', { name: `${p}hand_geom`, type: 'box', pos: [0, 0, 0.03], size: [0.025, 0.09, 0.03], rgba: ROBOT_RGBA, mass: 0.7, ...bits }),
    el('site', { name: `${p}ee`, pos: [0, 0, PANDA.tcpOffset], size: [0.005], rgba: [1, 0, 0, 0.5] }),
    finger('left'),
    finger('right'),
  ]);
  const fingerAct = (side: 'left' | 'right') =>
    el('position', {
      name: `${p}finger_${side}_act`,
      joint: `${p}finger_${side}_joint`,
      kp: 400,
      kv: 20,
      ctrlrange: [0, PANDA.fingerTravel],
      forcerange: [-40, 40],
    });
  return {
    body,
    actuators: [fingerAct('left'), fingerAct('right')],
    bodies: [
      { mjcf: `${p}hand`, label: `${L}hand` },
      { mjcf: `${p}finger_left`, label: `${L}left finger` },
      { mjcf: `${p}finger_right`, label: `${L}right finger` },
    ],
  };
}

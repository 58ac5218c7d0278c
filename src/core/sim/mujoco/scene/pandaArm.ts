// A 7-DoF Franka-class arm with a parallel-jaw gripper, authored from the public kinematic parameters
// (Craig-convention DH table of the Panda) and the datasheet joint limits. Geometry is deliberately simple:
// one capsule per link segment, a box palm and two box fingers. Collision bits: arm geoms collide with the
// world (table, objects, other arms) but not with each other, so self-collision never blocks a motion.
import type { CollisionBits } from './collisionGroups.js';
import { buildGripper } from './grippers.js';
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
  /** Joint speeds used for planned motions: about half the datasheet limits (speedLimit). */
  motionSpeed: [1.1, 1.1, 1.1, 1.1, 1.3, 1.3, 1.3],
  /** Datasheet joint speed limits (rad/s). */
  speedLimit: [2.175, 2.175, 2.175, 2.175, 2.61, 2.61, 2.61],
} as const;

// Position-servo gains per joint (N m/rad and N m s/rad). Bodies have gravity compensation, so the servos
// only fight inertia; kv adds damping that the implicit integrator handles stably.
const KP = [3000, 3000, 3000, 3000, 1200, 1200, 1200];
const KV = [250, 250, 200, 200, 80, 80, 60];
const FORCE = [87, 87, 87, 87, 12, 12, 12].map((f) => f * 3);
const LINK_RADIUS = [0.07, 0.06, 0.06, 0.06, 0.055, 0.05, 0.045, 0.04];
export const ROBOT_RGBA: [number, number, number, number] = [0.92, 0.92, 0.94, 1];
const JOINT_RGBA: [number, number, number, number] = [0.25, 0.25, 0.28, 1];


function dhBodyPos(i: number): [number, number, number] {
  const { a, d, alpha } = PANDA.dh[i]!;
  // TransX(a) RotX(alpha) then TransZ(d) along the rotated z (RotZ(q) commutes with TransZ(d)).
  return [a, -d * Math.sin(alpha), d * Math.cos(alpha)];
}

/** Segment from a body's origin to its child's origin, as a capsule (or a sphere if the child sits at the origin). */
export function linkGeom(name: string, to: [number, number, number], radius: number, bits: CollisionBits, rgba = ROBOT_RGBA): MjcfElement {
  const len = Math.hypot(to[0], to[1], to[2]);
  if (len < 1e-6) return el('geom', { name, type: 'sphere', size: [radius], rgba: JOINT_RGBA, ...bits });
  return el('geom', { name, type: 'capsule', fromto: [0, 0, 0, ...to], size: [radius], rgba, ...bits });
}

export interface BuiltArm {
  body: MjcfElement;
  actuators: MjcfElement[];
  layout: ArmLayout;
}

/** What an arm builder knows about its model: joint limits and the two IK seed configurations. */
interface ArmModel {
  jointRanges: readonly (readonly number[])[];
  readyQ: readonly number[];
  sideQ: readonly number[];
}

/**
 * The names and numbers controllers read from a built arm (`p`: its name prefix), the same for every arm model;
 * what differs (embodiment text, speed limits, servo gains) comes in.
 */
export function armLayout(
  p: string,
  a: { spec: ArmSpec; joints: string[]; hand: { layout: ArmLayout['gripper']; tcpInHand: ArmLayout['tcpInHand'] }; embodiment: string; bodies: BodyLabel[]; model: ArmModel; kp: readonly number[]; kv: readonly number[]; maxJointSpeed: number[]; jointSpeedLimit: number[] },
): ArmLayout {
  return {
    spec: a.spec,
    joints: a.joints,
    actuators: a.joints.map((_, i) => `${p}act${i + 1}`),
    gripper: a.hand.layout,
    eeSite: `${p}ee`,
    handBody: `${p}hand`,
    embodiment: a.embodiment,
    bodies: a.bodies,
    jointRanges: a.model.jointRanges.map((r) => [r[0]!, r[1]!] as [number, number]),
    tcpInHand: a.hand.tcpInHand,
    seedQ: [...a.model.readyQ],
    sideSeedQ: [...a.model.sideQ],
    servoLeadSecs: a.kp.map((kp, i) => a.kv[i]! / kp),
    maxJointSpeed: a.maxJointSpeed,
    jointSpeedLimit: a.jointSpeedLimit,
  };
}

/** `bits`: this arm's collision bits (collisionGroups.ts); its own links never collide with each other. */
export function buildPandaArm(spec: ArmSpec, bits: CollisionBits): BuiltArm {
  const p = spec.prefix;
  const L = spec.label;
  const bodies: BodyLabel[] = [{ mjcf: `${p}link0`, label: `${L}link0` }];
  const joints: string[] = [];
  const actuators: MjcfElement[] = [];

  // Innermost first: the gripper (hand), then wrap links 7..1 around it.
  const hand = buildGripper(spec, bits, { pos: [0, 0, PANDA.flangeD], yawRad: PANDA.handYawRad });
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
    ...(spec.torso ? torsoGeoms(p, bits) : []),
    child,
  ]);

  return {
    body: base,
    actuators,
    layout: armLayout(p, {
      spec,
      joints,
      hand,
      embodiment: `${spec.torso ? 'humanoid (a Franka-class 7-DoF arm on a torso)' : 'Franka Panda (7-DoF arm)'} with a ${hand.label}`,
      bodies,
      model: PANDA,
      kp: KP,
      kv: KV,
      maxJointSpeed: [...PANDA.motionSpeed],
      jointSpeedLimit: [...PANDA.speedLimit],
    }),
  };
}

/**
 * RoCo's humanoid, as an arm on a torso: a torso below the shoulder (the arm's base) and a head above and
 * behind it, in the base frame (x forward). Fixed to the world like the base, so they never collide with the table.
 */
export function torsoGeoms(prefix: string, bits: CollisionBits, forward: 1 | -1 = 1): MjcfElement[] {
  const skin: [number, number, number, number] = [0.78, 0.8, 0.86, 1];
  const b = -0.13 * forward;
  return [
    el('geom', { name: `${prefix}torso`, type: 'box', pos: [b, 0, -0.02], size: [0.09, 0.17, 0.16], rgba: skin, ...bits }),
    el('geom', { name: `${prefix}neck`, type: 'capsule', fromto: [b, 0, 0.14, b, 0, 0.22], size: [0.035], rgba: JOINT_RGBA, ...bits }),
    el('geom', { name: `${prefix}head`, type: 'sphere', pos: [b, 0, 0.3], size: [0.09], rgba: skin, ...bits }),
    el('geom', { name: `${prefix}visor`, type: 'box', pos: [b + 0.075 * forward, 0, 0.31], size: [0.02, 0.06, 0.025], rgba: [0.1, 0.12, 0.16, 1], contype: 0, conaffinity: 0 }),
  ];
}

// A 7-DoF KUKA LBR iiwa 7 R800 with an Allegro-class hand (Action Contextualization's robot), built from published
// kinematics with primitive shapes. Sources of the numbers:
//   joint origins (xyz, rpy) and the flange offset: iiwa_description/urdf/iiwa7.xacro of IFL-CAMP's iiwa_stack
//     (base to A2 0.34 m, A2 to A4 0.40 m, A4 to A6 0.40 m, A6 to the flange 0.126 m: KUKA's LBR iiwa 7 R800 data);
//   joint limits (+-170, 120, 170, 120, 170, 120, 175 deg) and speed limits (98, 98, 100, 130, 140, 180, 180 deg/s):
//     KUKA's LBR iiwa 7 R800 specification (the same limits as the xacro);
//   maximum torques (176, 176, 110, 110, 110, 40, 40 N m): KUKA's LBR iiwa 7 R800 specification;
//   link radii: approximate, from the housings' diameters in KUKA's dimension drawing (about 12-14 cm at the
//     shoulder and elbow, 10 cm at the wrist).
// The authors' simulation file (iiwa7_allegro_llm.xml) is named iiwa7 but carries the R820's offsets (0.36, 0.42);
// the R800's are used here. Geometry: one capsule per segment between joints, a cylinder for the base.
import { buildAllegroHand, rpyQuat } from './allegroHand.js';
import { buildGripper } from './grippers.js';
import type { CollisionBits } from './collisionGroups.js';
import { axisAngleQuat, el, type MjcfElement } from './mjcf.js';
import { armLayout, type BuiltArm } from './pandaArm.js';
import type { ArmSpec, BodyLabel, Vec3 } from './sceneSpec.js';

const deg = (d: number) => (d * Math.PI) / 180;

/** URDF chain: joint k's origin (xyz, rpy) in link k-1; every joint turns about its own z. */
export const IIWA7 = {
  joints: [
    { xyz: [0, 0, 0.15] as Vec3, rpy: [0, 0, 0] as Vec3 },
    { xyz: [0, 0, 0.19] as Vec3, rpy: [Math.PI / 2, 0, Math.PI] as Vec3 },
    { xyz: [0, 0.21, 0] as Vec3, rpy: [Math.PI / 2, 0, Math.PI] as Vec3 },
    { xyz: [0, 0, 0.19] as Vec3, rpy: [Math.PI / 2, 0, 0] as Vec3 },
    { xyz: [0, 0.21, 0] as Vec3, rpy: [-Math.PI / 2, Math.PI, 0] as Vec3 },
    { xyz: [0, 0.0607, 0.19] as Vec3, rpy: [Math.PI / 2, 0, 0] as Vec3 },
    { xyz: [0, 0.081, 0.0607] as Vec3, rpy: [-Math.PI / 2, Math.PI, 0] as Vec3 },
  ],
  /** The flange (media flange face) on link 7. */
  flange: [0, 0, 0.045] as Vec3,
  jointRanges: [170, 120, 170, 120, 170, 120, 175].map((d) => [-deg(d), deg(d)] as [number, number]),
  speedLimit: [98, 98, 100, 130, 140, 180, 180].map(deg),
  torqueNm: [176, 176, 110, 110, 110, 40, 40],
  /** Tool pointing down in front of the base, elbow up. */
  readyQ: [0, 0.6, 0, -1.4, 0, 1.1, 0],
  /** The hand level and pointing forward, palm down (the authors' top and side grasps hold the hand level). */
  sideQ: [0, 0.9, 0, -1.6, 0, -0.9, 0],
} as const;

// Radii of the capsules from link k's origin to link k+1's (index k-1), and the base.
const LINK_RADIUS = [0.07, 0.07, 0.065, 0.065, 0.06, 0.055, 0.045];
/**
 * The segment each link's capsule covers, in its own frame: from its origin to the next joint's, except at the wrist,
 * where the URDF puts joint 6's and joint 7's origins 0.0607 m off the arm's centre line (along joint 6's axis): the
 * forearm (link 5) runs straight to where joint 6's axis crosses it, and link 6 from there to joint 7.
 */
function linkSegment(i: number): { from: Vec3; to: Vec3 } {
  const next = i === IIWA7.joints.length - 1 ? IIWA7.flange : IIWA7.joints[i + 1]!.xyz;
  if (i === 4) return { from: [0, 0, 0], to: [0, 0, next[2]] };
  if (i === 5) return { from: [0, 0, next[2]], to: next };
  return { from: [0, 0, 0], to: next };
}
const BASE_RADIUS = 0.1;
const KP = [3000, 3000, 2500, 2500, 1500, 800, 800];
const KV = [250, 250, 200, 200, 100, 60, 60];
const ORANGE: [number, number, number, number] = [1, 0.42, 0.04, 1];
const GREY: [number, number, number, number] = [0.45, 0.45, 0.47, 1];

export function buildIiwaArm(spec: ArmSpec, bits: CollisionBits): BuiltArm {
  const p = spec.prefix;
  const L = spec.label;
  const n = IIWA7.joints.length;
  // The Allegro hand unless another end effector is named.
  const hand = (spec.gripper ?? 'allegro') === 'allegro' ? buildAllegroHand(spec, bits, { pos: IIWA7.flange }) : buildGripper(spec, bits, { pos: IIWA7.flange, yawRad: 0 });
  let child: MjcfElement = hand.body;
  for (let i = n - 1; i >= 0; i--) {
    const j = IIWA7.joints[i]!;
    const seg = linkSegment(i);
    child = el('body', { name: `${p}link${i + 1}`, pos: j.xyz, quat: rpyQuat(j.rpy[0], j.rpy[1], j.rpy[2]), gravcomp: 1 }, [
      el('joint', { name: `${p}joint${i + 1}`, type: 'hinge', axis: [0, 0, 1], range: IIWA7.jointRanges[i]!, armature: 0.1, damping: 1 }),
      el('geom', { name: `${p}link${i + 1}_geom`, type: 'capsule', fromto: [...seg.from, ...seg.to], size: [LINK_RADIUS[i]!], rgba: i === n - 1 ? GREY : ORANGE, ...bits }),
      child,
    ]);
  }
  const joints = IIWA7.joints.map((_, i) => `${p}joint${i + 1}`);
  const bodies: BodyLabel[] = [{ mjcf: `${p}link0`, label: `${L}link0` }, ...joints.map((_, i) => ({ mjcf: `${p}link${i + 1}`, label: `${L}link${i + 1}` })), ...hand.bodies];
  const actuators: MjcfElement[] = joints.map((jn, i) =>
    el('position', { name: `${p}act${i + 1}`, joint: jn, kp: KP[i]!, kv: KV[i]!, ctrlrange: IIWA7.jointRanges[i]!, forcerange: [-3 * IIWA7.torqueNm[i]!, 3 * IIWA7.torqueNm[i]!] }),
  );
  actuators.push(...hand.actuators);
  const pedestal = spec.pedestal;
  const base = el('body', { name: `${p}link0`, pos: spec.basePos, quat: axisAngleQuat([0, 0, 1], spec.baseYawRad) }, [
    el('geom', { name: `${p}link0_geom`, type: 'cylinder', pos: [0, 0, 0.075], size: [BASE_RADIUS, 0.075], rgba: GREY, ...bits }),
    // The pedestal stands on the floor; it turns with nothing, so it is part of the fixed base.
    ...(pedestal ? [el('geom', { name: `${p}pedestal_geom`, type: 'box', pos: [0, 0, -spec.basePos[2] / 2], size: [pedestal.halfXY[0], pedestal.halfXY[1], spec.basePos[2] / 2], rgba: [0.3, 0.3, 0.32, 1], ...bits })] : []),
    child,
  ]);
  return {
    body: base,
    actuators,
    layout: armLayout(p, {
      spec,
      joints,
      hand,
      embodiment: `KUKA LBR iiwa 7 R800 (7-DoF arm) with an ${hand.label}`,
      bodies,
      model: IIWA7,
      kp: KP,
      kv: KV,
      // Planned motions at about half the datasheet's speeds, as for the other arms.
      maxJointSpeed: IIWA7.speedLimit.map((v) => v / 2),
      jointSpeedLimit: [...IIWA7.speedLimit],
    }),
  };
}

// A 6-DoF UR5E-class arm, authored from Universal Robots' published kinematic parameters (standard DH:
// d1 = 0.1625, a2 = -0.425, a3 = -0.3922, d4 = 0.1333, d5 = 0.0997, d6 = 0.0996; alpha = pi/2, 0, 0, pi/2, -pi/2, 0)
// and datasheet figures (joint speed 180 deg/s, torques 150 / 150 / 150 / 28 / 28 / 28 N m). Geometry is one
// capsule per DH segment. The datasheet allows +-360 deg on every joint; the model limits base, shoulder and
// elbow to +-180 deg, which keeps IK and sampling-based planning on one branch and loses no reachable pose.
import type { CollisionBits } from './collisionGroups.js';
import { buildGripper } from './grippers.js';
import { axisAngleQuat, el, type MjcfElement } from './mjcf.js';
import { armLayout, linkGeom, torsoGeoms, type BuiltArm } from './pandaArm.js';
import type { ArmSpec, BodyLabel } from './sceneSpec.js';

/** Standard DH: frame k = frame k-1 * RotZ(q_k) * TransZ(d_k) * TransX(a_k) * RotX(alpha_k). */
export const UR5E = {
  dh: [
    { a: 0, d: 0.1625, alpha: Math.PI / 2 },
    { a: -0.425, d: 0, alpha: 0 },
    { a: -0.3922, d: 0, alpha: 0 },
    { a: 0, d: 0.1333, alpha: Math.PI / 2 },
    { a: 0, d: 0.0997, alpha: -Math.PI / 2 },
    { a: 0, d: 0.0996, alpha: 0 },
  ],
  // The three wrist joints keep the datasheet's +-360 deg: tools are turned and tipped a lot.
  jointRanges: Array.from({ length: 6 }, (_, i) => (i >= 3 ? [-2 * Math.PI, 2 * Math.PI] : [-Math.PI, Math.PI]) as [number, number]),
  /** Tool pointing down about 0.3 m in front of the base, elbow up (with the base mounted a half turn round, below). */
  readyQ: [0, -2.0, 1.9, -1.47, -Math.PI / 2, 0],
  /** Tool horizontal and forward (side and front approaches). */
  sideQ: [0, -1.6, 1.8, -0.2, Math.PI / 2, 0],
  /** Half the datasheet's 180 deg/s for planned motions. */
  motionSpeed: [1.5, 1.5, 1.5, 1.5, 1.5, 1.5],
} as const;

const KP = [2500, 2500, 2000, 800, 800, 800];
const KV = [220, 220, 180, 60, 60, 50];
const FORCE = [150, 150, 150, 28, 28, 28].map((f) => f * 3);
const LINK_RADIUS = [0.065, 0.06, 0.055, 0.045, 0.042, 0.042, 0.04];
const UR_RGBA: [number, number, number, number] = [0.55, 0.7, 0.85, 1];


export function buildUr5eArm(spec: ArmSpec, bits: CollisionBits): BuiltArm {
  const p = spec.prefix;
  const L = spec.label;
  const bodies: BodyLabel[] = [{ mjcf: `${p}link0`, label: `${L}link0` }];
  const joints: string[] = [];
  const actuators: MjcfElement[] = [];
  const n = UR5E.dh.length;
  const last = UR5E.dh[n - 1]!;
  const hand = buildGripper(spec, bits, { pos: [last.a, 0, last.d], yawRad: 0 });
  let child: MjcfElement = hand.body;
  for (let i = n - 1; i >= 0; i--) {
    // Body i+1 sits where frame i starts: after the previous segment's TransZ(d) TransX(a) RotX(alpha).
    const prev = i === 0 ? { a: 0, d: 0, alpha: 0 } : UR5E.dh[i - 1]!;
    const seg = UR5E.dh[i]!;
    const body = el('body', { name: `${p}link${i + 1}`, pos: [prev.a, 0, prev.d], quat: axisAngleQuat([1, 0, 0], prev.alpha), gravcomp: 1 }, [
      el('joint', { name: `${p}joint${i + 1}`, type: 'hinge', axis: [0, 0, 1], range: UR5E.jointRanges[i]!, armature: 0.1, damping: 1 }),
      i === 0 ? shoulderColumn(p, seg.d, bits) : linkGeom(`${p}link${i + 1}_geom`, [seg.a, 0, seg.d], LINK_RADIUS[i + 1]!, bits, UR_RGBA),
      child,
    ]);
    child = body;
  }
  for (let i = 0; i < n; i++) {
    joints.push(`${p}joint${i + 1}`);
    bodies.push({ mjcf: `${p}link${i + 1}`, label: `${L}link${i + 1}` });
    actuators.push(el('position', { name: `${p}act${i + 1}`, joint: `${p}joint${i + 1}`, kp: KP[i]!, kv: KV[i]!, ctrlrange: UR5E.jointRanges[i]!, forcerange: [-FORCE[i]!, FORCE[i]!] }));
  }
  bodies.push(...hand.bodies);
  actuators.push(...hand.actuators);
  // At q1 = 0 the UR's arm reaches along its base's -x; the base is mounted a half turn round so that q1 = 0 faces
  // the spec's forward direction and the base joint turns either way from there within its +-180 deg.
  const base = el('body', { name: `${p}link0`, pos: spec.basePos, quat: axisAngleQuat([0, 0, 1], spec.baseYawRad + Math.PI) }, [
    el('geom', { name: `${p}link0_geom`, type: 'cylinder', pos: [0, 0, 0.045], size: [0.075, 0.045], rgba: UR_RGBA, ...bits }),
    // The first segment (shoulder column) belongs to link1 and turns with it; link0 is the fixed mounting flange.
    ...(spec.torso ? torsoGeoms(p, bits, -1) : []),
    child,
  ]);
  return {
    body: base,
    actuators,
    layout: armLayout(p, {
      spec,
      joints,
      hand,
      embodiment: `${spec.torso ? 'humanoid (a UR5E-class 6-DoF arm on a torso)' : 'UR5E (6-DoF arm)'} with a ${hand.label}`,
      bodies,
      model: UR5E,
      kp: KP,
      kv: KV,
      maxJointSpeed: [...UR5E.motionSpeed],
      // The datasheet's 180 deg/s on every joint.
      jointSpeedLimit: UR5E.dh.map(() => Math.PI),
    }),
  };
}


/** The shoulder column turns with joint 1 but starts above the fixed base plate, clear of the table. */
function shoulderColumn(p: string, d1: number, bits: CollisionBits): MjcfElement {
  return el('geom', { name: `${p}link1_geom`, type: 'capsule', fromto: [0, 0, 0.15, 0, 0, d1], size: [LINK_RADIUS[1]!], rgba: UR_RGBA, ...bits });
}

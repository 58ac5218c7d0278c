// A four-finger Allegro-class hand (Wonik Robotics' Allegro Hand, left version: the one Action Contextualization's
// authors mount on their iiwa), built from primitive shapes. Every number below is from the public robot
// description `allegro_hand_description_left.urdf` (Wonik / SimLab's allegro_hand_ros, as shipped in the authors'
// repository epfl-lasa/Action_contextualisation, ros_ws/src/llm_simulator/src/description/allegro_all/): the palm
// and link collision boxes, the 1.2 cm fingertip spheres, the joint origins, axes and limits. The mount (palm 1.25 cm
// off the flange, 1.5 cm off its axis) is the authors' (iiwa7_allegro_llm.xml, allegro_left_bodies.xml).
// Simplifications: the fingers' spread joints (URDF joint_0/4/8, +-0.47 rad) are left out (the fingers stay
// straight ahead); every other joint is a position servo driven to one pose for "open" and one for "closed", as the
// authors' hand controller does ("a joint position controller controls the hand to achieve open and close poses").
// Grasps hold by friction by default (robot/gripper.ts, as the parallel grippers'): the servos drive the curls toward
// their closed targets, stop where the links meet the object and press on with up to FORCE_NM per joint; the links
// and tips have friction 1.5 against the objects' condim 4 or 6 contacts, under the scene's elliptic cones and
// impratio 10 (the same options for every robot). The grasp counts while the thumb and the fingers both touch it.
// Hand frame: z out of the flange; the fingers extend along +z and curl toward +x (the palm's front); y across the
// palm (index at -y, ring at +y, thumb at -y behind the palm, swinging round to face the fingers).
import type { CollisionBits } from './collisionGroups.js';
import type { BuiltGripper } from './grippers.js';
import { el, type MjcfElement } from './mjcf.js';
import type { ArmSpec, BodyLabel, Vec3 } from './sceneSpec.js';

type Quat = [number, number, number, number];

/** Quaternion (w, x, y, z) of URDF rpy (fixed axes: R = Rz(y) Ry(p) Rx(r)). */
export function rpyQuat(r: number, p: number, y: number): Quat {
  const [cr, sr] = [Math.cos(r / 2), Math.sin(r / 2)];
  const [cp, sp] = [Math.cos(p / 2), Math.sin(p / 2)];
  const [cy, sy] = [Math.cos(y / 2), Math.sin(y / 2)];
  return [cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy];
}

export const ALLEGRO = {
  /** palm_link in the hand (flange) frame: the authors' mount. */
  palmOrigin: [0.015, 0, 0.1075] as Vec3,
  /** URDF palm collision box: size 0.0408 x 0.1130 x 0.095 at (-0.0093, 0, -0.0475) in palm_link. */
  palmBox: { pos: [-0.0093, 0, -0.0475] as Vec3, half: [0.0204, 0.0565, 0.0475] as Vec3 },
  /** Finger link boxes are 0.0196 x 0.0275 (URDF), lengths per link; fingertip spheres r = 0.012. */
  linkHalfXY: [0.0098, 0.01375] as [number, number],
  tipRadius: 0.012,
  /** Index, middle, ring: URDF joint_0 / joint_4 / joint_8 origins (the spread joint's), with their rpy. */
  fingers: [
    { name: 'index', pos: [0, -0.0435, -0.001542] as Vec3, roll: 0.08726646255 },
    { name: 'middle', pos: [0, 0, 0.0007] as Vec3, roll: 0 },
    { name: 'ring', pos: [0, 0.0435, -0.001542] as Vec3, roll: -0.08726646255 },
  ],
  /** Finger links after the spread joint: knuckle 0.0164, proximal 0.054, middle 0.0384, distal 0.0267 (URDF). */
  fingerLinks: [0.0164, 0.054, 0.0384, 0.0267],
  /** URDF limits of the three curl joints (joint_1..3), radians. */
  fingerRanges: [
    [-0.196, 1.61],
    [-0.174, 1.709],
    [-0.227, 1.618],
  ] as [number, number][],
  thumb: {
    /** URDF joint_12: origin and rpy in palm_link, axis +x (the thumb's swing round to face the fingers). */
    base: { pos: [-0.0182, -0.019333, -0.045987] as Vec3, rpy: [0, -1.65806278845, 1.5707963259] as Vec3, range: [0.263, 1.396] as [number, number] },
    /** link_12 box 0.0358 x 0.034 x 0.0455 at (-0.0179, -0.009, 0.0145). */
    baseBox: { pos: [-0.0179, -0.009, 0.0145] as Vec3, half: [0.0179, 0.017, 0.02275] as Vec3 },
    /** joint_13 at (-0.027, -0.005, 0.0399), axis -z; joint_14 and joint_15 about y after links of 0.0177 and 0.0514. */
    rotOrigin: [-0.027, -0.005, 0.0399] as Vec3,
    rotRange: [-0.105, 1.163] as [number, number],
    links: [0.0177, 0.0514, 0.0423],
    curlRanges: [
      [-0.189, 1.644],
      [-0.162, 1.719],
    ] as [number, number][],
  },
  /** URDF effort limit of every joint (N m). */
  effortNm: 15,
  massKg: { palm: 0.4154, link: 0.03 },
} as const;

/**
 * Servo targets (radians) of the hand's 13 joints, in build order: index, middle, ring (3 curl joints each), then the
 * thumb (swing, rotation, two curls). After the authors' poses (controller_base.py `qz`, js_lds.py): closed = every
 * curl at its upper limit, the thumb swung fully round (its upper limit); the servos stop where the links meet the
 * object. Their open pose keeps the thumb swung round (openThumbIn), where it stands 14 cm out in front of the palm: a
 * palm-down hand over a small thing on the table would have it in the table, so the plain open pose swings it
 * part-way out to the side (0.55 rad: its tip 9 cm in front of the palm, 14 cm to the side) and a side grasp uses
 * openThumbIn.
 */
export const ALLEGRO_POSES = {
  open: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0.45, 0, 0.3, 0],
  openThumbIn: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1.396, 0, 0.3, 0],
  closed: [1.61, 1.709, 1.618, 1.61, 1.709, 1.618, 1.61, 1.709, 1.618, 1.396, 0, 1.644, 1.719],
} as const;

const DARK: [number, number, number, number] = [0.18, 0.18, 0.2, 1];
const TIP: [number, number, number, number] = [0.9, 0.9, 0.9, 1];
/** Servo gain (N m / rad) and damping of each finger joint; the torque is capped at the URDF's 15 N m / 20. */
const KP = 3;
const KV = 0.15;
const FORCE_NM = ALLEGRO.effortNm / 20;

function box(name: string, pos: Vec3, half: readonly number[], bits: CollisionBits, rgba = DARK, massKg?: number): MjcfElement {
  return el('geom', { name, type: 'box', pos, size: half, rgba, friction: [1.5, 0.01, 0.001], ...(massKg !== undefined ? { mass: massKg } : {}), ...bits });
}

export function buildAllegroHand(spec: ArmSpec, bits: CollisionBits, mount: { pos: Vec3; quat?: Quat }): BuiltGripper {
  const p = spec.prefix;
  const L = spec.label;
  const joints: string[] = [];
  const bodies: BodyLabel[] = [{ mjcf: `${p}hand`, label: `${L}hand` }];
  const [hx, hy] = ALLEGRO.linkHalfXY;
  const hinge = (name: string, axis: Vec3, range: readonly [number, number]): MjcfElement => {
    joints.push(name);
    return el('joint', { name, type: 'hinge', axis, range, armature: 0.001, damping: 0.05 });
  };
  /** A chain of links along z: each a hinge about `axis` then a box of its length; the last carries the tip sphere. */
  const chain = (prefix: string, label: string, lengths: readonly number[], ranges: readonly (readonly [number, number])[], tipSite: string | null): MjcfElement => {
    let inner: MjcfElement | null = null;
    for (let k = lengths.length - 1; k >= 0; k--) {
      const len = lengths[k]!;
      const last = k === lengths.length - 1;
      const kids: MjcfElement[] = [hinge(`${prefix}_joint${k + 1}`, [0, 1, 0], ranges[k]!), box(`${prefix}_link${k + 1}_geom`, [0, 0, len / 2], [hx, hy, len / 2], bits, DARK, ALLEGRO.massKg.link)];
      if (last) {
        kids.push(el('geom', { name: `${prefix}_tip_geom`, type: 'sphere', pos: [0, 0, len], size: [ALLEGRO.tipRadius], rgba: TIP, friction: [1.5, 0.01, 0.001], mass: 0.005, ...bits }));
        if (tipSite) kids.push(el('site', { name: tipSite, pos: [0, 0, len], size: [0.004], rgba: [1, 0, 0, 0.4] }));
      }
      if (inner) kids.push(inner);
      inner = el('body', { name: `${prefix}_link${k + 1}`, pos: [0, 0, k === 0 ? 0 : lengths[k - 1]!], gravcomp: 1 }, kids);
      bodies.push({ mjcf: `${prefix}_link${k + 1}`, label: `${L}${label} link ${k + 1}` });
    }
    return inner!;
  };

  // Index, middle, ring under one fixed body: the "fingers" side of a grasp is its subtree.
  const knuckle = ALLEGRO.fingerLinks[0];
  const fingerBodies = ALLEGRO.fingers.map((f) =>
    el('body', { name: `${p}${f.name}_root`, pos: f.pos, quat: rpyQuat(f.roll, 0, 0) }, [
      // The knuckle (URDF link_0/4/8) is fixed here: its spread joint is left out.
      box(`${p}${f.name}_knuckle_geom`, [0, 0, knuckle / 2], [hx, hy, knuckle / 2], bits, DARK, 0.009),
      el('body', { name: `${p}${f.name}_base`, pos: [0, 0, knuckle] }, [chain(`${p}${f.name}`, `${f.name} finger`, ALLEGRO.fingerLinks.slice(1), ALLEGRO.fingerRanges, f.name === 'middle' ? `${p}middle_tip` : null)]),
    ]),
  );
  const fingersRoot = el('body', { name: `${p}fingers`, pos: [0, 0, 0] }, fingerBodies);

  // Thumb: swing (URDF joint_12, axis +x), rotation (joint_13, axis -z), two curls (joint_14, joint_15, axis y).
  const t = ALLEGRO.thumb;
  const curls = chain(`${p}thumb`, 'thumb', t.links.slice(1), t.curlRanges, `${p}thumb_tip`);
  // chain() names its joints thumb_joint1..2; they are the URDF's joint_14 and joint_15.
  const thumbRot = el('body', { name: `${p}thumb_rot`, pos: t.rotOrigin }, [
    hinge(`${p}thumb_rot_joint`, [0, 0, -1], t.rotRange),
    box(`${p}thumb_rot_geom`, [0, 0, t.links[0] / 2], [hx, hy, t.links[0] / 2], bits, DARK, 0.01),
    el('body', { name: `${p}thumb_prox`, pos: [0, 0, t.links[0]] }, [curls]),
  ]);
  const thumbRoot = el('body', { name: `${p}thumb`, pos: t.base.pos, quat: rpyQuat(t.base.rpy[0], t.base.rpy[1], t.base.rpy[2]) }, [
    hinge(`${p}thumb_swing_joint`, [1, 0, 0], t.base.range),
    box(`${p}thumb_base_geom`, t.baseBox.pos, t.baseBox.half, bits, DARK, 0.055),
    thumbRot,
  ]);
  const palm = el('body', { name: `${p}palm`, pos: ALLEGRO.palmOrigin }, [
    box(`${p}palm_geom`, ALLEGRO.palmBox.pos, ALLEGRO.palmBox.half, bits, DARK, ALLEGRO.massKg.palm),
    fingersRoot,
    thumbRoot,
  ]);
  // Joint order: index, middle, ring curls, then the thumb's swing, rotation and curls (ALLEGRO_POSES' order).
  const allJoints = [...ALLEGRO.fingers.flatMap((f) => [1, 2, 3].map((k) => `${p}${f.name}_joint${k}`)), `${p}thumb_swing_joint`, `${p}thumb_rot_joint`, `${p}thumb_joint1`, `${p}thumb_joint2`];
  if (allJoints.length !== joints.length || allJoints.some((j) => !joints.includes(j)) || allJoints.length !== ALLEGRO_POSES.open.length) throw new Error('allegro hand: joint list and poses disagree');
  const body = el('body', { name: `${p}hand`, pos: mount.pos, ...(mount.quat ? { quat: mount.quat } : {}), gravcomp: 1 }, [
    // The mounting plate between the flange and the palm.
    el('geom', { name: `${p}hand_geom`, type: 'cylinder', pos: [0, 0, 0.00625], size: [0.04, 0.00625], rgba: DARK, mass: 0.1, ...bits }),
    el('site', { name: `${p}ee`, pos: [0, 0, 0], size: [0.005], rgba: [1, 0, 0, 0.5] }),
    palm,
  ]);
  const actuators = allJoints.map((j) => el('position', { name: `${j}_act`, joint: j, kp: KP, kv: KV, forcerange: [-FORCE_NM, FORCE_NM] }));
  bodies.push({ mjcf: `${p}palm`, label: `${L}palm` }, { mjcf: `${p}fingers`, label: `${L}fingers` }, { mjcf: `${p}thumb`, label: `${L}thumb` });
  for (const f of ALLEGRO.fingers) bodies.push({ mjcf: `${p}${f.name}_root`, label: `${L}${f.name} finger knuckle` }, { mjcf: `${p}${f.name}_base`, label: `${L}${f.name} finger base` });
  bodies.push({ mjcf: `${p}thumb_rot`, label: `${L}thumb rotator` }, { mjcf: `${p}thumb_prox`, label: `${L}thumb base` });
  return {
    body,
    actuators,
    bodies,
    layout: {
      kind: 'hand',
      joints: allJoints,
      actuators: allJoints.map((j) => `${j}_act`),
      open: [...ALLEGRO_POSES.open],
      closed: [...ALLEGRO_POSES.closed],
      openThumbIn: [...ALLEGRO_POSES.openThumbIn],
      sides: [`${p}thumb`, `${p}fingers`],
      tipSites: [`${p}thumb_tip`, `${p}middle_tip`],
    },
    tcpInHand: [0, 0, 0],
    label: 'Allegro hand (four fingers)',
  };
}

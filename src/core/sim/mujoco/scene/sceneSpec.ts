// What a tabletop scene is made of, as plain data. Tasks describe their scene with these types; the scene
// builder turns them into MJCF; SceneModel indexes the compiled model by the names recorded here.
// World frame: z up, metres, radians. Quaternions are (w, x, y, z).

export type Vec3 = [number, number, number];

/** One arm to place in the scene. The next issue adds scenes with 1-3 arms, so every name is prefixed. */
export interface ArmSpec {
  /** MJCF name prefix, e.g. '' for a single arm or 'arm1_'. */
  prefix: string;
  /** Label prefix for humans, e.g. '' or 'Alice '. Body labels become `${label}hand`. */
  label: string;
  basePos: Vec3;
  /** Rotation of the base about +z; 0 means the arm faces +x, pi/2 means it faces +y. */
  baseYawRad: number;
  /** Where the tool centre point (between the finger pads) rests after reset; gripper pointing down. */
  homeTcp: { pos: Vec3; yawRad: number };
  /** The joint configuration after reset, when it is given as one (homeTcp is then where it puts the tool). */
  homeQ?: number[];
  /** Kinematics: a 7-DoF Franka-class arm (default), a 6-DoF UR5E-class arm, or a 7-DoF KUKA LBR iiwa 7 R800. */
  model?: 'panda' | 'ur5e' | 'iiwa';
  /** End effector: the Panda hand (default), a Robotiq-style 2-finger gripper, a suction cup, or a four-finger Allegro-class hand. */
  gripper?: 'panda' | 'robotiq' | 'suction' | 'allegro';
  /** A box under the base from the floor up (the arm stands beside the table, not on it). */
  pedestal?: { halfXY: [number, number] };
  /** Mount the arm's shoulder on a torso with a head standing behind it (RoCo's humanoid, as an arm on a torso). */
  torso?: boolean;
}

/** How the end effector of an arm is built: two position-servo fingers, or a suction cup with an on/off control. */
export type GripperLayout =
  | {
      kind: 'parallel';
      joints: [string, string];
      actuators: [string, string];
      bodies: [string, string];
      /** Travel per finger, metres (opening = 2x). */
      range: [number, number];
    }
  | {
      kind: 'suction';
      /** The cup body (its face is the tool centre point). */
      body: string;
      /** Adhesion actuator on the cup: control 1 = suction on, 0 = off. */
      actuator: string;
    }
  | {
      /** A multi-finger hand: every finger joint a position servo driven to an open or a closed pose. */
      kind: 'hand';
      joints: string[];
      actuators: string[];
      /** Servo targets per joint (radians) for the open and the closed hand. */
      open: number[];
      closed: number[];
      /** Open with the thumb swung round in front of the palm (a side grasp: the plain open pose keeps it out to the side). */
      openThumbIn: number[];
      /**
       * The two sides a grasp needs touching, as subtree roots: the thumb, and the fingers opposite it. They play the
       * parallel gripper's two pads (contact sensors, holding(), friction grasps).
       */
      sides: [string, string];
      /** Sites at the thumb tip and the middle finger's tip: their distance is the hand's opening. */
      tipSites: [string, string];
    };

/** RGBA, each 0..1. */
export type Rgba = [number, number, number, number];

/**
 * One geom of an object, in the object's frame. Sizes are MuJoCo's: box half extents; cylinder [radius, half
 * height]; sphere [radius]; capsule [radius, half length].
 */
export interface PartSpec {
  shape: 'box' | 'cylinder' | 'sphere' | 'capsule';
  size: number[];
  pos?: Vec3;
  /** (w, x, y, z) */
  quat?: [number, number, number, number];
  /** Defaults to the object's colour. */
  rgba?: Rgba;
  /** Mass of this geom (free and sliding objects); the object's massKg is split evenly when no part gives one. */
  massKg?: number;
  /** Seen but not touched: markers, target areas, liquid. */
  visual?: boolean;
  /** Touches objects and arms but not the table (a dustpan's floor held flush with the table top). */
  noTable?: boolean;
  friction?: [number, number, number];
}

/** A named feature of an object for detect_object ("handle", "rim"): centre and full extents in the object frame. */
export interface FeatureSpec {
  name: string;
  pos: Vec3;
  size: Vec3;
}

/**
 * How an object is attached. 'free' (default): a free body placed at reset. 'fixed': a fixture placed at reset
 * (a mocap body, so the seed decides where) that never moves. 'slide': a part sliding along `axis` (parent frame)
 * inside a fixed parent, e.g. a drawer or a button cap; `pos` is its closed position in the parent's frame.
 */
export type MountSpec =
  | { kind: 'free' }
  | { kind: 'fixed' }
  | { kind: 'slide'; parent: string; pos: Vec3; axis: Vec3; rangeM: [number, number]; frictionLossN?: number; dampingNspm?: number; stiffnessNpm?: number }
  /** A part turning about `axis` through `pos` (parent frame) inside a fixed parent: a door, a lid. */
  | { kind: 'hinge'; parent: string; pos: Vec3; axis: Vec3; rangeRad: [number, number]; dampingNms?: number; frictionLossNm?: number; /** A spring pulling it back to 0 (a self-closing door). */ stiffnessNmPerRad?: number }
  /** Rigidly attached to another object's body (a handle on a door): graspable, moves with its parent. */
  | { kind: 'part'; parent: string; pos: Vec3; quat?: [number, number, number, number] }
  /**
   * A rope: MuJoCo's composite cable of `segments` capsules (ball joints, damped), free at its first segment, which
   * this object names; its bodies are named `${prefix}B_first`, `${prefix}B_1`, ..., `${prefix}B_last`.
   */
  | { kind: 'cable'; prefix: string; segments: number; lengthM: number; radiusM: number; dampingNms?: number; stiffnessNmpr?: number }
  /** The last segment of a cable object (named by `cable`), as an object of its own: a rope's other end. */
  | { kind: 'cableEnd'; cable: string };

export type MountKind = MountSpec['kind'];

export interface ObjectSpec {
  /** Display name used by the robot API and the observation text, e.g. 'red block'. */
  name: string;
  /** MJCF-safe identifier derived from the name. */
  mjcfName: string;
  /** Shape reported in observations; with no `parts`, the single geom (box or cylinder/sphere filling `size`). */
  shape: 'box' | 'cylinder' | 'sphere' | 'compound';
  /** Full extents [length (x), width (y), height (z)] in the object's frame, metres. */
  size: Vec3;
  color: string;
  rgba: Rgba;
  massKg: number;
  /** Geoms in the object frame; absent for a single primitive. */
  parts?: PartSpec[];
  mount?: MountSpec;
  /** Touching it is the point (tools, buttons, handles, things to push): contacts with the arm are not collisions. */
  interactive?: boolean;
  features?: FeatureSpec[];
  /** Extra sliding friction etc. for the whole object (default [1, 0.005, 0.0001]). */
  friction?: [number, number, number];
}

export interface TableSpec {
  /** z of the top surface. */
  topZ: number;
  center: [number, number];
  halfExtents: [number, number];
}

export interface SceneSpec {
  /** Identifies the compiled model for caching: same key, same MJCF. */
  key: string;
  table: TableSpec;
  arms: ArmSpec[];
  objects: ObjectSpec[];
  timestepSecs: number;
}

/** A body as the outside world names it (trace, replay, collision messages). */
export interface BodyLabel {
  mjcf: string;
  label: string;
}

/** Names inside the MJCF for one arm, so controllers can look up ids without knowing the builder. */
export interface ArmLayout {
  spec: ArmSpec;
  /** Arm joints, base first (7 for the Panda, 6 for the UR5E). */
  joints: string[];
  actuators: string[];
  gripper: GripperLayout;
  eeSite: string;
  handBody: string;
  /** What the agents are told this robot is, e.g. 'UR5E with a suction gripper'. */
  embodiment: string;
  /** Every body of the arm, base first. */
  bodies: BodyLabel[];
  /** Joint limits [lo, hi] per arm joint, radians. */
  jointRanges: [number, number][];
  /** Tool centre point in the hand body's frame, metres (the 3D replay draws each arm's tool path from it). */
  tcpInHand: Vec3;
  /** A joint configuration used to seed IK for the home pose. */
  seedQ: number[];
  /** A configuration with the tool horizontal (side grasps), to seed and bias IK for such poses. */
  sideSeedQ: number[];
  /** kv/kp of each joint servo (seconds): commanding q + lead * qdot cancels the servo's damping lag. */
  servoLeadSecs: number[];
  /** Speed limits used when timing motions (rad/s per joint). */
  maxJointSpeed: number[];
  /** The datasheet's joint speed limits (rad/s per joint): what a velocity-controlled motion is clipped to. */
  jointSpeedLimit: number[];
}

/**
 * A contact sensor counting contacts between two things. `other` indexes SceneSpec.objects, or is
 * FIXTURE_TABLE / FIXTURE_FLOOR. Kinds: 'arm' = the arm's whole subtree (fingers included) vs other;
 * 'finger' = one finger vs an object; 'object' = object `object` vs other.
 */
export type ContactPairSensor =
  | { kind: 'arm'; sensor: string; arm: number; other: number }
  /** Arm `arm` (whole subtree) against arm `otherArm` (> arm): always a collision. */
  | { kind: 'arms'; sensor: string; arm: number; otherArm: number }
  /** One finger (side 0 / 1) vs an object; a suction cup is side 0 only. */
  | { kind: 'finger'; sensor: string; arm: number; side: 0 | 1; other: number }
  | { kind: 'object'; sensor: string; object: number; other: number };

export const FIXTURE_TABLE = -1;
export const FIXTURE_FLOOR = -2;

export interface BuiltScene {
  spec: SceneSpec;
  xml: string;
  arms: ArmLayout[];
  /** Bodies in replay order (world first), with their labels. */
  bodies: BodyLabel[];
  contactSensors: ContactPairSensor[];
  /** Weld equality name for (arm, object), used as the grasp model; '' for fixtures (never carried). */
  graspWelds: string[][];
}

export function mjcfSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

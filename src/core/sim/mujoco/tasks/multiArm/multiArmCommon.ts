// Multi-arm tabletop (RoCoBench-style): 2-3 Franka-class arms on one side of the table or facing each other,
// each with a reach zone (an x interval of the table) that the RoCo API's task-constraint check enforces.
import type { WorkspaceInfo } from '../../../simulator.js';
import type { RocoAction } from '../../apis/roco/planParser.js';
import type { RocoGoal } from '../../apis/roco/rocoGoals.js';
import type { RobotApiContext } from '../../apis/robotApi.js';
import type { ArmSpec, ObjectSpec, SceneSpec } from '../../scene/sceneSpec.js';
import type { TaskView } from '../taskDefinition.js';
import { TABLE, TABLE_TOP_Z, TIMESTEP_SECS } from '../tabletopCommon.js';

/** A robot of a multi-arm task, as the agents know it. */
export interface RobotSpec {
  /** RoCo-style agent name: Alice, Bob, Chad. */
  name: string;
  /** Table x interval the robot may pick from and place into. */
  reachX: [number, number];
  /** How the robot's reach is told to the agents when it is not an x interval, e.g. 'panel1, panel2, panel3'. */
  reachText?: string;
  /** Where the robot stands, in the paper's words ('in front of panel2', 'on the left side of the table'). */
  standsText?: string;
  /** This robot's own goal, told only to it (RoCoBench Sort Cubes: 'put blue_square on panel2'). */
  goalText?: string;
}

/** A task's own RoCo verb (RoCoBench's SWEEP, DUMP, OPEN): arguments, prompt text, who may use it, its stages. */
export interface TaskVerb {
  args: 'none' | 'object';
  usage: string;
  doc: string;
  goal(ctx: RobotApiContext, arm: number, action: RocoAction): RocoGoal;
}

export interface MultiArmSetup {
  robots: RobotSpec[];
  /** 'shared': every robot sees the whole scene; 'partial': only what lies in its reach zone (and what it holds). */
  observation: 'shared' | 'partial';
  /** Verbs beyond PICK, PLACE, MOVE, WAIT. */
  verbs?: Record<string, TaskVerb>;
  /** Offer PICK as RoCoBench's one-round `PICK <object> PLACE <target>` (Sort Cubes, Arrange Cabinet). */
  combinedPick?: boolean;
  /** Verbs of the base set this task does not offer (Sweep Floor has no PICK or PLACE). */
  without?: ('PICK' | 'PLACE' | 'MOVE')[];
  /** 'required': every moving action needs a PATH of `pathPoints` waypoints (RoCoBench Pack Grocery, Move Rope). */
  path?: 'optional' | 'required';
  pathPoints?: number;
  /** The task's rules as the agents are told them (the plan rules enforce them). */
  rules?: string[];
  /**
   * Hints on how to solve the task that the paper's prompts do not give (pass cubes along, carry the rope
   * together); the agents see them only when the variant turns the `task.strategy_rules` ablation on.
   */
  strategy?: string[];
  /**
   * Which positions the paper's observation of this task gives: true all (Pack Grocery, Move Rope); 'grippers' the
   * robots' 3D gripper locations only (Sweep Floor, App. 10.2); false none (Sort Cubes, Make Sandwich, App. 10.3-10.4).
   * The agents see the others only under the `observation.coordinates` ablation. Default true.
   */
  coordinates?: boolean | 'grippers';
  /**
   * Whose gripper a robot is told about: 'all' (default), or 'own' where the paper's observation has no other
   * robot's gripper (Sort Cubes, App. 10.4); the others' come back under `observation.others_grippers`.
   */
  grippers?: 'all' | 'own';
  /** A task's words after a robot's gripper line ("in front of red_cube", as RoCo's Sweep Floor code says it). */
  robotNote?(view: TaskView, robot: number): string | undefined;
  /** Allowed spread (standard deviation, metres) of a PATH's step lengths; default PATH_STD_MAX_M. */
  pathStdMaxM?: number;
  /** Task facts every robot is told beside the objects' relations ("left_door is closed", "red_cube is inside dustpan"). */
  facts?(view: TaskView): string[];
  /** The task's own relation line for an object ("red_cube is inside dustpan"), or undefined for the generic one. */
  relation?(view: TaskView, object: string): string | undefined;
}

/** The kind of robot at a seat: kinematics, gripper, torso (see ArmSpec). */
export type Embodiment = Pick<ArmSpec, 'model' | 'gripper' | 'torso'>;

/** RoCoBench's robots by the names its code gives them (Alice is usually the UR5E with the Robotiq gripper). */
export const UR5E_ROBOTIQ: Embodiment = { model: 'ur5e', gripper: 'robotiq' };
export const UR5E_SUCTION: Embodiment = { model: 'ur5e', gripper: 'suction' };
export const PANDA: Embodiment = { model: 'panda', gripper: 'panda' };
/** RoCo's 20-DoF humanoid is approximated by a Franka-class arm with a suction cup on a torso. */
export const HUMANOID_SUCTION: Embodiment = { model: 'panda', gripper: 'suction', torso: true };

/** How far a torso lifts the arm's shoulder above the table. */
const TORSO_SHOULDER_M = 0.2;

/** Arms in a row along the near edge (y = -0.35), facing +y, `spacingM` apart. */
export function armsInRow(names: string[], spacingM: number, kinds: Embodiment[] = []): ArmSpec[] {
  const n = names.length;
  return names.map((name, i) => {
    const x = (i - (n - 1) / 2) * spacingM;
    const kind = kinds[i] ?? {};
    return {
      prefix: `${name.toLowerCase()}_`,
      label: `${name} `,
      basePos: [x, -0.35, TABLE_TOP_Z + (kind.torso ? TORSO_SHOULDER_M : 0)],
      baseYawRad: Math.PI / 2,
      homeTcp: { pos: [x, 0.0, 1.1], yawRad: 0 },
      ...kind,
    };
  });
}

/** Two arms facing each other across the table (x = -+0.55), each reaching its own half plus the middle. */
export function armsFacing(names: [string, string], kinds: Embodiment[] = []): ArmSpec[] {
  return names.map((name, i) => {
    const sign = i === 0 ? -1 : 1;
    return {
      prefix: `${name.toLowerCase()}_`,
      label: `${name} `,
      basePos: [sign * 0.55, 0.05, TABLE_TOP_Z],
      baseYawRad: i === 0 ? 0 : Math.PI,
      homeTcp: { pos: [sign * 0.2, 0.05, 1.1], yawRad: 0 },
      ...(kinds[i] ?? {}),
    };
  });
}

export function multiArmScene(key: string, arms: ArmSpec[], objects: ObjectSpec[]): SceneSpec {
  return { key, table: TABLE, arms, objects, timestepSecs: TIMESTEP_SECS };
}

export const MULTI_ARM_WORKSPACE: WorkspaceInfo = {
  tableTopZ: TABLE_TOP_Z,
  xRange: [-0.55, 0.55],
  yRange: [-0.2, 0.45],
  axes: 'x increases to the right (along the row of robots), y increases away from the near edge, z points up; metres; yaw in radians about +z',
};

/** Two robots facing each other along x (armsFacing). */
export const FACING_WORKSPACE: WorkspaceInfo = {
  tableTopZ: TABLE_TOP_Z,
  xRange: [-0.45, 0.45],
  yRange: [-0.3, 0.45],
  axes: 'Alice stands at x = -0.55 and Bob at x = +0.55, facing each other; x points from Alice toward Bob, y to Alice\'s left, z up; metres; yaw in radians about +z',
};

// What a task is: metadata, the scene it needs (compiled once per task id), a seeded initial layout, an optional
// seeded goal (which drawer, which shape), an optional monitor of things that happen during the episode (a
// pressed button, a drawn trace), and a geometric success check over ground truth. Tasks never touch MuJoCo.
import type { Rng } from '../../../host.js';
import type { TaskCheckResult, TaskInfo, WorkspaceInfo } from '../../simulator.js';
import type { Quat } from '../simState.js';
import type { SceneSpec, Vec3 } from '../scene/sceneSpec.js';
import type { MultiArmSetup } from './multiArm/multiArmCommon.js';

export interface ObjectPlacement {
  /** Free and fixed objects: where the object's frame goes (world). Ignored for sliding parts. */
  pos: Vec3;
  yawRad: number;
  /** Full orientation (w, x, y, z) when not upright; overrides yawRad. */
  quat?: Quat;
  /** Sliding parts: initial opening along the slide axis, metres (default 0). */
  slideM?: number;
  /** Hinged parts: initial angle, radians (default 0). */
  angleRad?: number;
}

/** A tool a robot holds from the start: its frame in the robot's tool frame, and the gripper opening on its grip. */
export interface HeldAtStart {
  robot: number;
  object: string;
  inTool: { pos: Vec3; quat: Quat };
  gripWidthM: number;
}

/** Ground truth a success check reads. Objects are in SceneSpec order. */
export interface TaskView {
  objects: { name: string; pos: Vec3; quat: Quat; size: Vec3; linearSpeed: number; angularSpeed: number; slideM?: number; angleRad?: number; links?: Vec3[] }[];
  /** Held object per arm. */
  grasped: (string | null)[];
  tableTopZ: number;
  /** Tool centre point of each arm, world frame, and the commanded gripper state. */
  ee?: { pos: Vec3; yawRad: number; open: boolean }[];
  /** The episode's goal from TaskDefinition.goal (absent for tasks without one). */
  goal?: TaskGoal;
  /** The monitor's state (absent for tasks without a monitor). */
  monitor?: unknown;
}

/** Seed-dependent part of a task beyond placements: the instruction given to the agents and what check() wants. */
export interface TaskGoal {
  instruction: string;
  /** Plain JSON. */
  params: Record<string, unknown>;
}

/**
 * Watches an episode on the 50 Hz grid (only while API calls step physics). Its state is plain JSON and travels
 * in snapshots.
 */
export interface TaskMonitor {
  sample(view: TaskView): void;
  state(): unknown;
  load(state: unknown): void;
}

/**
 * A named place objects go to (Action Contextualization's `location` argument): an object of the scene that is
 * a container (objects go inside, onto its floor) or a surface (objects rest on its top).
 */
export interface LocationSpec {
  name: string;
  kind: 'container' | 'surface';
  /** Wall and floor thickness of a container. */
  wallM?: number;
  /** A spot for one thing (a panel, a cutting board): always its centre. */
  single?: boolean;
  /** RoCo PLACE: release this far above the surface (into a groove whose rails the open fingers would hit). */
  dropM?: number;
}

/** The arms of a task's scene, for listings ("waypoint tasks --arch"): which robot APIs it can be driven by. */
export type ApiId = 'malmm' | 'lmtg' | 'actctx' | 'roco';

/** The robots a single-arm tabletop task can have (--robot): the Franka-class arm every task has, or the iiwa. */
export const ROBOT_IDS = ['panda', 'iiwa'] as const;
export type RobotId = (typeof ROBOT_IDS)[number];

export interface TaskDefinition {
  info: TaskInfo;
  workspace: WorkspaceInfo;
  /** Robot API used when reset() gets no `api` option. */
  defaultApi: string;
  scene: SceneSpec;
  /** Robot APIs the task works with (defaultApi first). */
  apis?: ApiId[];
  /**
   * Other robots the task can be run with (--robot): the scene with that robot in place of its own arm (table
   * clearing: the KUKA iiwa with an Allegro hand of Action Contextualization).
   */
  robots?: Partial<Record<RobotId, { scene: SceneSpec; /** Its own placements (the task's when absent). */ layout?(rng: Rng): ObjectPlacement[] }>>;
  /** Places for place()/drop()/at_location() (Action Contextualization) and RoCo's PLACE targets. */
  locations?: LocationSpec[];
  /** Multi-arm tasks: the robots (agent names, reach zones) and what each observes. */
  multiArm?: MultiArmSetup;
  /**
   * Task-specific rules of a RoCo plan (e.g. the sandwich's recipe order): the feedback text of the first rule the
   * plan breaks, or null. Runs after the generic constraints (reach zones, gripper state).
   */
  planRules?(plan: { robot: string; verb: string; object?: string; target?: string; point?: Vec3 }[], view: TaskView): string | null;
  /** One placement per scene object, from the seed's RNG only. */
  layout(rng: Rng): ObjectPlacement[];
  /** Seeded goal (its own RNG stream, so adding a goal never moves a layout). */
  goal?(rng: Rng): TaskGoal;
  monitor?(): TaskMonitor;
  /** Tools the robots hold from the start. */
  heldAtStart?: HeldAtStart[];
  check(view: TaskView): TaskCheckResult;
}

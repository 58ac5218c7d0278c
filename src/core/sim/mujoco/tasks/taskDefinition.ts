// What a task is: metadata, the scene it needs (compiled once per task id), a seeded initial layout, and a
// geometric success check over ground truth. Tasks never touch MuJoCo directly.
import type { Rng } from '../../../host.js';
import type { TaskCheckResult, TaskInfo, WorkspaceInfo } from '../../simulator.js';
import type { Quat } from '../simState.js';
import type { SceneSpec, Vec3 } from '../scene/sceneSpec.js';

export interface ObjectPlacement {
  /** Free and fixed objects: where the object's frame goes (world). Ignored for sliding parts. */
  pos: Vec3;
  yawRad: number;
  /** Full orientation (w, x, y, z) when not upright; overrides yawRad. */
  quat?: Quat;
  /** Sliding parts: initial opening along the slide axis, metres (default 0). */
  slideM?: number;
}

/** Ground truth a success check reads. Objects are in SceneSpec order. */
export interface TaskView {
  objects: { name: string; pos: Vec3; quat: Quat; size: Vec3; linearSpeed: number; angularSpeed: number; slideM?: number }[];
  /** Held object per arm. */
  grasped: (string | null)[];
  tableTopZ: number;
}

export interface TaskDefinition {
  info: TaskInfo;
  workspace: WorkspaceInfo;
  /** Robot API used when reset() gets no `api` option. */
  defaultApi: string;
  scene: SceneSpec;
  /** One placement per scene object, from the seed's RNG only. */
  layout(rng: Rng): ObjectPlacement[];
  check(view: TaskView): TaskCheckResult;
}

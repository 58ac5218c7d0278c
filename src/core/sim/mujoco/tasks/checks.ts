// Geometric predicates shared by task success checks, over the ground truth in a TaskView.
import type { TaskCheckResult } from '../../simulator.js';
import type { Vec3 } from '../scene/sceneSpec.js';
import type { TaskView } from './taskDefinition.js';

export type ViewObject = TaskView['objects'][number];

export const REST_LINEAR_MPS = 0.01;
export const REST_ANGULAR_RADPS = 0.1;

export function find(view: TaskView, name: string): ViewObject {
  const o = view.objects.find((x) => x.name === name);
  if (!o) throw new Error(`task check: no object '${name}' in the scene`);
  return o;
}

/** Angle between the object's z axis and world z (radians). */
export function tiltOf(o: { quat: readonly number[] }): number {
  const [, x, y] = o.quat as [number, number, number, number];
  return Math.acos(Math.max(-1, Math.min(1, 1 - 2 * (x * x + y * y))));
}

/** Yaw of the object's x axis about world z. */
export function yawOf(o: { quat: readonly number[] }): number {
  const [w, x, y, z] = o.quat as [number, number, number, number];
  return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
}

/** `p` in the frame of `frame` (rotation about z only; fixtures and upright things). */
export function localOf(p: Vec3, frame: { pos: Vec3; quat: readonly number[] }): Vec3 {
  const yaw = yawOf(frame);
  const dx = p[0] - frame.pos[0];
  const dy = p[1] - frame.pos[1];
  const c = Math.cos(yaw);
  const s = Math.sin(yaw);
  return [c * dx + s * dy, -s * dx + c * dy, p[2] - frame.pos[2]];
}

export function atRest(o: ViewObject): boolean {
  return o.linearSpeed <= REST_LINEAR_MPS && o.angularSpeed <= REST_ANGULAR_RADPS;
}

/** Centre inside the rectangle of a flat area (its local x/y half extents, shrunk by `marginM`). */
export function onArea(o: ViewObject, area: ViewObject, marginM = 0): boolean {
  const l = localOf(o.pos, area);
  return Math.abs(l[0]) <= area.size[0] / 2 - marginM && Math.abs(l[1]) <= area.size[1] / 2 - marginM;
}

/** Centre inside an open container: within its inner walls (wall `wallM`) and below its rim. */
export function inside(o: ViewObject, box: ViewObject, wallM: number): boolean {
  const l = localOf(o.pos, box);
  return Math.abs(l[0]) <= box.size[0] / 2 - wallM && Math.abs(l[1]) <= box.size[1] / 2 - wallM && l[2] > -box.size[2] / 2 && l[2] < box.size[2] / 2;
}

/** Bottom of an upright object within `tolM` of the table top. */
export function onTable(o: ViewObject, view: TaskView, tolM = 0.01): boolean {
  return Math.abs(o.pos[2] - o.size[2] / 2 - view.tableTopZ) <= tolM && tiltOf(o) < 0.2;
}

export function held(view: TaskView): string[] {
  return view.grasped.filter((g): g is string => g !== null);
}

/** "task not done: a; b" or the success line. */
export function verdict(task: string, problems: string[], success: string): TaskCheckResult {
  return problems.length > 0 ? { success: false, detail: `${task} not done: ${problems.join('; ')}` } : { success: true, detail: success };
}

export function fmt(v: readonly number[]): string {
  return `[${v.map((x) => x.toFixed(3)).join(', ')}]`;
}

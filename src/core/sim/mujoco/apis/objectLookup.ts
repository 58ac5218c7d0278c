// Finding objects and object parts by a free-text query, as LM Trajectory Generators' detect_object does with
// an open-vocabulary detector, but from ground truth: "red block", "block" (every block), "handle" (every
// handle), "left drawer handle" / "handle of the left drawer" / "rim of the red cup" (one part).
import { quatRotate } from '../math3.js';
import type { SceneModel } from '../sceneModel.js';
import type { SimState } from '../simState.js';
import type { Vec3 } from '../scene/sceneSpec.js';

export interface Detection {
  /** What was found, e.g. "red block" or "left drawer handle". */
  label: string;
  /** Object index in the scene. */
  object: number;
  /** Centre, world frame. */
  pos: Vec3;
  /** Full extents in the object's frame [x, y, z]. */
  size: Vec3;
  /** Yaw of the object's x axis. */
  yawRad: number;
  /** For a part (rim, handle, slot): the whole object's box, as the detector model's failures need it. */
  whole?: { name: string; pos: Vec3; size: Vec3; yawRad: number };
}

function normalize(q: string): string {
  return q
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .replace(/\b(the|a|an)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function yawOfQuat(q: readonly number[]): number {
  const [w, x, y, z] = q as [number, number, number, number];
  return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
}

/**
 * The box as a top-down view fits it: the object axis nearest vertical gives the height, the other two the
 * horizontal sides, and the yaw is that of the first horizontal one. An upright object keeps its own size and yaw;
 * a bottle lying on its side reads as long and low, pointing where its axis points.
 */
export function seenFromAbove(quat: readonly number[], size: readonly number[]): { size: Vec3; yawRad: number } {
  const axes = [0, 1, 2].map((k) => quatRotate(quat, [k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0]));
  let up = 2;
  for (const k of [0, 1]) if (Math.abs(axes[k]![2]) > Math.abs(axes[up]![2]) + 1e-9) up = k;
  const [a, b] = [0, 1, 2].filter((k) => k !== up) as [number, number];
  const ax = axes[a]!;
  return { size: [size[a]!, size[b]!, size[up]!], yawRad: Math.atan2(ax[1], ax[0]) };
}

/** Every object and part matching `query`, in scene order. */
export function detectObjects(scene: SceneModel, state: SimState, query: string): Detection[] {
  const q = normalize(query);
  if (q.length === 0) return [];
  const specs = scene.built.spec.objects;
  const whole = (i: number): Detection => {
    const pose = state.objectPose(i);
    return { label: specs[i]!.name, object: i, pos: pose.pos, ...seenFromAbove(pose.quat, specs[i]!.size) };
  };
  const part = (i: number, f: number): Detection => {
    const pose = state.objectPose(i);
    const spec = specs[i]!.features![f]!;
    const off = quatRotate(pose.quat, spec.pos);
    return {
      label: `${specs[i]!.name} ${spec.name}`,
      object: i,
      pos: [pose.pos[0] + off[0], pose.pos[1] + off[1], pose.pos[2] + off[2]],
      size: [...spec.size] as Vec3,
      yawRad: yawOfQuat(pose.quat),
      whole: { name: specs[i]!.name, pos: pose.pos, ...seenFromAbove(pose.quat, specs[i]!.size) },
    };
  };
  // 1. An exact object name, also written "<part> of <object>" when the part is an object of its own ("cap of the
  // bottle" for the object "bottle cap").
  const of = /^(.+) of (.+)$/.exec(q);
  const exact = specs.findIndex((o) => normalize(o.name) === q || (of !== null && normalize(o.name) === `${of[2]} ${of[1]}`));
  if (exact >= 0) return [whole(exact)];
  // 2. A part of a named object: "<object> <part>" or "<part> of <object>".
  for (let i = 0; i < specs.length; i++) {
    const name = normalize(specs[i]!.name);
    for (const [f, feature] of (specs[i]!.features ?? []).entries()) {
      const fname = normalize(feature.name);
      if (q === `${name} ${fname}` || q === `${fname} of ${name}`) return [part(i, f)];
    }
  }
  // 3. A part name alone: that part of every object that has one.
  const parts: Detection[] = [];
  specs.forEach((o, i) => (o.features ?? []).forEach((f, k) => normalize(f.name) === q && parts.push(part(i, k))));
  if (parts.length > 0) return parts;
  // 4. Every object whose name contains all the query's words ("block", "red", "cup").
  const words = q.split(' ');
  const found: Detection[] = [];
  specs.forEach((o, i) => {
    const n = normalize(o.name).split(' ');
    if (words.every((w) => n.includes(w) || n.includes(w.replace(/s$/, '')))) found.push(whole(i));
  });
  return found;
}

function r3(x: number): string {
  const s = x.toFixed(3);
  return s === '-0.000' ? '0.000' : s;
}

function wrap(a: number): number {
  let r = a % (2 * Math.PI);
  if (r > Math.PI) r -= 2 * Math.PI;
  if (r <= -Math.PI) r += 2 * Math.PI;
  return r;
}

/**
 * LMTG's print-out (Appendix F of the paper), 3 decimals: width is the longer horizontal side, length the
 * shorter; the two orientations are the yaws of those sides (a quarter turn apart).
 */
export function formatDetection(d: Detection): string {
  const xLonger = d.size[0] >= d.size[1];
  const width = xLonger ? d.size[0] : d.size[1];
  const length = xLonger ? d.size[1] : d.size[0];
  const alongWidth = wrap(xLonger ? d.yawRad : d.yawRad + Math.PI / 2);
  const alongLength = wrap(alongWidth - Math.PI / 2);
  return [
    `Position of ${d.label}: [${d.pos.map(r3).join(', ')}]`,
    'Dimensions:',
    `Width: ${r3(width)}`,
    `Length: ${r3(length)}`,
    `Height: ${r3(d.size[2])}`,
    `Orientation along shorter side (length): ${r3(alongLength)}`,
    `Orientation along longer side (width): ${r3(alongWidth)}`,
  ].join('\n');
}

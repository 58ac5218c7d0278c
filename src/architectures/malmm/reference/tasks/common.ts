// Geometry the families share: where a placed object rests, whether it is in or on its destination, and slots
// when several objects share one destination.
import type { Placement } from '../motion.js';
import { bottom, dxy, findObject, insideFootprint, isContainer, isFlat, isHollow, top, type Scene, type SceneObject } from '../scene.js';

export function obj(scene: Scene, name: string): SceneObject {
  const o = scene.objects.find((x) => x.name === name);
  if (!o) throw new Error(`the state lists no object named "${name}"`);
  return o;
}

/** Resolves phrases to object names, or says which one matches nothing. */
export function resolve(scene: Scene, phrases: string[]): string[] | string {
  const out: string[] = [];
  for (const p of phrases) {
    const o = findObject(scene, p);
    if (!o) return `no object in the state matches "${p}" (objects: ${scene.objects.map((x) => x.name).join(', ')})`;
    out.push(o.name);
  }
  return out;
}

/** The highest surface under `xy` (objects other than `except` and the held one), or the lowest bottom in the scene. */
export function surfaceAt(scene: Scene, xy: readonly number[], except: string): number {
  let z = -Infinity;
  for (const o of scene.objects) {
    if (o.name === except || o.name === scene.grasped) continue;
    if (insideFootprint(o, xy, 0.005)) z = Math.max(z, top(o));
  }
  return Number.isFinite(z) ? z : Math.min(...scene.objects.map(bottom));
}

export function prepositionFor(d: SceneObject): string {
  return isFlat(d) ? `on the ${d.name}` : isContainer(d) || isHollow(d) ? `into the ${d.name}` : `on the ${d.name}`;
}

/** Whether `o` is where "put o in/on d" wants it, released. */
export function placedIn(scene: Scene, o: SceneObject, d: SceneObject): boolean {
  if (scene.grasped === o.name) return false;
  if (isFlat(d)) return insideFootprint(d, o.pos) && bottom(o) < top(d) + 0.02;
  if (isHollow(d)) {
    const room = (Math.max(d.width, d.length) - Math.max(o.width, o.length)) / 2 + 0.005;
    return dxy(o.pos, d.pos) < room && bottom(o) < top(d) && o.tilt < 0.3;
  }
  if (isContainer(d)) return insideFootprint(d, o.pos, -0.005) && bottom(o) < top(d);
  // Something wider than a thin post that went down around it (a ring on a peg) is on it too.
  const threaded = Math.min(o.width, o.length) > Math.max(d.width, d.length) + 0.01 && dxy(o.pos, d.pos) < 0.02 && bottom(o) < top(d) && top(o) > bottom(d);
  return threaded || (dxy(o.pos, d.pos) < 0.03 && bottom(o) > top(d) - 0.015 && o.tilt < 0.35);
}

/** Slot `i` of `n` objects of width `w` side by side along the destination's length axis. */
export function slotXY(d: SceneObject, i: number, n: number, w: number): [number, number] {
  if (n <= 1 || isHollow(d)) return [d.pos[0], d.pos[1]];
  const room = Math.max(d.length, d.width) - 0.02;
  const spacing = Math.min(w + 0.012, Math.max(0, (room - w) / (n - 1)));
  const off = (i - (n - 1) / 2) * spacing;
  const along = d.length >= d.width ? d.yaw : d.yaw + Math.PI / 2;
  return [d.pos[0] + off * Math.cos(along), d.pos[1] + off * Math.sin(along)];
}

/** The placement of `o` into/onto `d` at slot i of n. */
export function placement(scene: Scene, o: SceneObject, d: SceneObject, i: number, n: number): Placement {
  const xy = slotXY(d, i, n, Math.max(o.width, o.length));
  const into = !isFlat(d) && (isContainer(d) || isHollow(d));
  return { xy, surfaceZ: surfaceAt(scene, xy, o.name), yaw: d.yaw, phrase: prepositionFor(d), ...(into ? { restZ: bottom(d) + 0.01 + o.height / 2 } : {}) };
}

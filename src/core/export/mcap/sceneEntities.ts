// The trace's scene geometry as Foxglove SceneEntities: one entity per body, drawn in the body's own frame
// (frame_locked, so it follows the body's transforms). MuJoCo sizes are half extents and radii; Foxglove's are
// full sizes. Capsules become a cylinder plus two spheres; meshes are not in the trace and are counted as skipped.
import type { EventOf } from '../../../protocol/trace.js';

type Geom = EventOf<'scene'>['geoms'][number];
type Vec3 = { x: number; y: number; z: number };
type Pose = { position: Vec3; orientation: { x: number; y: number; z: number; w: number } };
type Color = { r: number; g: number; b: number; a: number };
type Prim = { pose: Pose; size: Vec3; color: Color };

export interface SceneEntity {
  timestamp: { sec: number; nsec: number };
  frame_id: string;
  id: string;
  lifetime: { sec: number; nsec: number };
  frame_locked: boolean;
  metadata: { key: string; value: string }[];
  arrows: { pose: Pose; shaft_length: number; shaft_diameter: number; head_length: number; head_diameter: number; color: Color }[];
  cubes: Prim[];
  spheres: Prim[];
  cylinders: (Prim & { bottom_scale: number; top_scale: number })[];
  lines: never[];
  triangles: never[];
  texts: { pose: Pose; billboard: boolean; font_size: number; scale_invariant: boolean; color: Color; text: string }[];
  models: never[];
}

/** (w, x, y, z) -> Foxglove's (x, y, z, w). */
function orientation(q: readonly number[]): Pose['orientation'] {
  return { x: q[1]!, y: q[2]!, z: q[3]!, w: q[0]! };
}

/** Rotates v by the w-first quaternion q. */
function rotate(q: readonly number[], v: readonly number[]): [number, number, number] {
  const [w, x, y, z] = q as [number, number, number, number];
  const tx = 2 * (y * v[2]! - z * v[1]!), ty = 2 * (z * v[0]! - x * v[2]!), tz = 2 * (x * v[1]! - y * v[0]!);
  return [v[0]! + w * tx + (y * tz - z * ty), v[1]! + w * ty + (z * tx - x * tz), v[2]! + w * tz + (x * ty - y * tx)];
}

export function sceneEntities(scene: EventOf<'scene'>, frameOf: (body: string) => string, time: { sec: number; nsec: number }): { entities: SceneEntity[]; skipped: number } {
  const byBody = new Map<string, SceneEntity>();
  let skipped = 0;
  const entity = (body: string): SceneEntity => {
    let e = byBody.get(body);
    if (!e) {
      e = {
        timestamp: time, frame_id: frameOf(body), id: `body/${frameOf(body)}`, lifetime: { sec: 0, nsec: 0 }, frame_locked: true,
        metadata: [{ key: 'body', value: body }], arrows: [], cubes: [], spheres: [], cylinders: [], lines: [], triangles: [], texts: [], models: [],
      };
      byBody.set(body, e);
    }
    return e;
  };
  for (const g of scene.geoms) {
    const color = { r: g.rgba[0], g: g.rgba[1], b: g.rgba[2], a: g.rgba[3] };
    const pose: Pose = { position: { x: g.pos[0], y: g.pos[1], z: g.pos[2] }, orientation: orientation(g.quat) };
    const s = g.size;
    const e = entity(g.body);
    switch (g.kind) {
      case 'box':
        e.cubes.push({ pose, size: { x: 2 * s[0]!, y: 2 * s[1]!, z: 2 * s[2]! }, color });
        break;
      case 'plane':
        // MuJoCo planes are infinite for contacts; their size is what is drawn.
        e.cubes.push({ pose, size: { x: 2 * (s[0] || 5), y: 2 * (s[1] || 5), z: 0.001 }, color });
        break;
      case 'sphere':
        e.spheres.push({ pose, size: { x: 2 * s[0]!, y: 2 * s[0]!, z: 2 * s[0]! }, color });
        break;
      case 'ellipsoid':
        e.spheres.push({ pose, size: { x: 2 * s[0]!, y: 2 * s[1]!, z: 2 * s[2]! }, color });
        break;
      case 'cylinder':
        e.cylinders.push({ pose, size: { x: 2 * s[0]!, y: 2 * s[0]!, z: 2 * s[1]! }, bottom_scale: 1, top_scale: 1, color });
        break;
      case 'capsule': {
        e.cylinders.push({ pose, size: { x: 2 * s[0]!, y: 2 * s[0]!, z: 2 * s[1]! }, bottom_scale: 1, top_scale: 1, color });
        for (const sign of [1, -1]) {
          const off = rotate(g.quat, [0, 0, sign * s[1]!]);
          e.spheres.push({ pose: { position: { x: g.pos[0] + off[0], y: g.pos[1] + off[1], z: g.pos[2] + off[2] }, orientation: pose.orientation }, size: { x: 2 * s[0]!, y: 2 * s[0]!, z: 2 * s[0]! }, color });
        }
        break;
      }
      default:
        skipped++;
    }
  }
  return { entities: [...byBody.values()], skipped };
}

// Seeded placement of a task's objects. Footprints are circles on the table; rejection sampling keeps them
// apart. The seed's RNG alone decides, and placements come out in scene order.
import type { Rng } from '../../../host.js';
import type { ObjectSpec, Vec3 } from '../scene/sceneSpec.js';
import { TABLE_TOP_Z } from './tabletopCommon.js';
import type { ObjectPlacement } from './taskDefinition.js';

export interface Region {
  x: [number, number];
  y: [number, number];
}

/** Footprint radius of an upright object: half the diagonal of its xy extents. */
export function footprint(o: ObjectSpec): number {
  return Math.hypot(o.size[0], o.size[1]) / 2;
}

export class LayoutBuilder {
  private readonly taken: { x: number; y: number; r: number }[] = [];
  private readonly out = new Map<string, ObjectPlacement>();

  constructor(private readonly rng: Rng) {}

  uniform(lo: number, hi: number): number {
    return lo + this.rng.next() * (hi - lo);
  }

  /** Picks one of `items` uniformly. */
  pick<T>(items: readonly T[]): T {
    return items[Math.min(items.length - 1, Math.floor(this.rng.next() * items.length))]!;
  }

  /** Fisher-Yates with the seed's RNG. */
  shuffle<T>(items: readonly T[]): T[] {
    const a = [...items];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(this.rng.next() * (i + 1));
      [a[i], a[j]] = [a[j]!, a[i]!];
    }
    return a;
  }

  /** Places an object at a given pose; `clearM` is extra keep-out around it. Resting on the table by default. */
  at(o: ObjectSpec, xy: [number, number], yawRad = 0, options: { z?: number; clearM?: number; quat?: ObjectPlacement['quat'] } = {}): ObjectPlacement {
    const pos: Vec3 = [xy[0], xy[1], options.z ?? TABLE_TOP_Z + o.size[2] / 2];
    const p: ObjectPlacement = { pos, yawRad, ...(options.quat ? { quat: options.quat } : {}) };
    this.taken.push({ x: xy[0], y: xy[1], r: footprint(o) + (options.clearM ?? 0) });
    this.out.set(o.name, p);
    return p;
  }

  /** A sliding part: no footprint of its own (its parent has one). */
  slide(o: ObjectSpec, openM = 0): ObjectPlacement {
    const p: ObjectPlacement = { pos: [0, 0, 0], yawRad: 0, slideM: openM };
    this.out.set(o.name, p);
    return p;
  }

  /** A part that follows another object (a handle, a hinged lid at `angleRad`, a rope's far end): no footprint. */
  attached(o: ObjectSpec, angleRad = 0): ObjectPlacement {
    const p: ObjectPlacement = { pos: [0, 0, 0], yawRad: 0, angleRad };
    this.out.set(o.name, p);
    return p;
  }

  /**
   * Places an object uniformly in `region` (centre coordinates), yaw uniform in `yawRange`, at least `gapM`
   * between its footprint and every footprint placed so far.
   */
  scatter(o: ObjectSpec, region: Region, options: { yawRange?: [number, number]; gapM?: number; z?: number; /** Only centres this accepts (a reach band). */ accept?: (x: number, y: number) => boolean } = {}): ObjectPlacement {
    const [y0, y1] = options.yawRange ?? [-Math.PI / 4, Math.PI / 4];
    const gap = options.gapM ?? 0.03;
    const r = footprint(o);
    for (let attempt = 0; attempt < 2000; attempt++) {
      const x = this.uniform(region.x[0], region.x[1]);
      const y = this.uniform(region.y[0], region.y[1]);
      const yaw = this.uniform(y0, y1);
      if ((options.accept?.(x, y) ?? true) && this.taken.every((t) => Math.hypot(t.x - x, t.y - y) >= t.r + r + gap)) return this.at(o, [x, y], yaw, options.z === undefined ? {} : { z: options.z });
    }
    throw new Error(`could not place '${o.name}' in x [${region.x.join(', ')}], y [${region.y.join(', ')}] clear of ${this.taken.length} placed objects`);
  }

  /** Placements in scene order; every object must have been placed. */
  placements(objects: readonly ObjectSpec[]): ObjectPlacement[] {
    return objects.map((o) => {
      const p = this.out.get(o.name);
      if (!p) throw new Error(`layout: no placement for '${o.name}'`);
      return p;
    });
  }
}

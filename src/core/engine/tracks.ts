// Object pose histories for architectures that judge motion after the fact (LM Trajectory Generators' success
// detector reads object tracks). Built from the trajectory samples the engine drains anyway: a simulator that puts
// body poses in its samples (the embedded tabletop, and any protocol server that fills `bodies`) gives 50 Hz
// tracks; one that does not gives a point per observation.
import type { TrajectorySample, WorldState } from '../../protocol/trace.js';
import type { ObjectTrack } from '../sim/simulator.js';

interface Point {
  t: number;
  /** Per tracked object: [x, y, z, qw, qx, qy, qz], or undefined where the sample lacked it. */
  poses: (number[] | undefined)[];
  /** The (first) arm's tool centre: [x, y, z, yaw]. */
  tool?: readonly number[];
}

/** The name of the tool-centre track (`toolSince`). */
export const TOOL_TRACK = 'tool centre';

export class TrackStore {
  private names: string[] = [];
  /** Object index -> index into a sample's `bodies` (7 numbers per body), when the scene lists it. */
  private bodyIndex: (number | undefined)[] = [];
  private points: Point[] = [];
  private fromSamples = false;

  /** `objects`: the objects to track (the initial state's); `bodies`: the scene's body order in samples. */
  configure(objects: readonly string[], bodies: readonly string[]): void {
    this.names = [...objects];
    this.bodyIndex = this.names.map((n) => {
      const i = bodies.indexOf(n);
      return i >= 0 ? i : undefined;
    });
    this.points = [];
    this.fromSamples = false;
  }

  addSamples(samples: readonly TrajectorySample[]): void {
    for (const s of samples) {
      if (!s.bodies) continue;
      // Samples are the better source: points taken from observations before them are dropped, not mixed in.
      if (!this.fromSamples) this.points = [];
      this.fromSamples = true;
      const b = s.bodies;
      this.points.push({
        t: s.tSecs,
        tool: s.ee,
        poses: this.bodyIndex.map((i) => (i === undefined || b.length < 7 * (i + 1) ? undefined : b.slice(7 * i, 7 * i + 7))),
      });
    }
  }

  /** A point from an observation (used only while no sample has carried body poses). */
  addObservation(tSecs: number, state: WorldState): void {
    if (this.fromSamples) return;
    const byName = new Map(state.objects.map((o) => [o.name, o]));
    this.points.push({
      t: tSecs,
      tool: [...state.ee.pos, state.ee.yawRad],
      poses: this.names.map((n) => {
        const o = byName.get(n);
        return o ? [...o.pos, ...eulerToQuat(o.euler)] : undefined;
      }),
    });
  }

  /** Forget what happened after `tSecs` (the simulator was restored to that time). */
  truncateAfter(tSecs: number): void {
    this.points = this.points.filter((p) => p.t <= tSecs + 1e-9);
  }

  since(mark: number, objects?: readonly string[]): ObjectTrack[] {
    const unknown = objects?.filter((n) => !this.names.includes(n)) ?? [];
    if (unknown.length > 0) throw new Error(`tracks: no object ${unknown.map((n) => `'${n}'`).join(', ')}; objects: ${this.names.join(', ')}`);
    const wanted = objects ?? this.names;
    const pts = this.points.filter((p) => p.t >= mark - 1e-9);
    return wanted.map((name) => {
      const k = this.names.indexOf(name);
      const track: ObjectTrack = { name, tSecs: [], pos: [], quat: [] };
      for (const p of pts) {
        const pose = p.poses[k];
        if (!pose) continue;
        track.tSecs.push(p.t);
        track.pos.push([pose[0]!, pose[1]!, pose[2]!]);
        track.quat.push([pose[3]!, pose[4]!, pose[5]!, pose[6]!]);
      }
      return track;
    });
  }

  /** The tool centre's pose history since a mark (for motions that move no object: a figure drawn with the gripper). */
  toolSince(mark: number): ObjectTrack {
    const track: ObjectTrack = { name: TOOL_TRACK, tSecs: [], pos: [], quat: [] };
    for (const p of this.points) {
      if (p.t < mark - 1e-9 || !p.tool) continue;
      track.tSecs.push(p.t);
      track.pos.push([p.tool[0]!, p.tool[1]!, p.tool[2]!]);
      track.quat.push(eulerToQuat([0, 0, p.tool[3]!]));
    }
    return track;
  }
}

/** XYZ (roll, pitch, yaw) Euler angles to a (w, x, y, z) quaternion. */
function eulerToQuat([r, p, y]: readonly number[]): [number, number, number, number] {
  const [cr, sr] = [Math.cos(r! / 2), Math.sin(r! / 2)];
  const [cp, sp] = [Math.cos(p! / 2), Math.sin(p! / 2)];
  const [cy, sy] = [Math.cos(y! / 2), Math.sin(y! / 2)];
  return [cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy];
}

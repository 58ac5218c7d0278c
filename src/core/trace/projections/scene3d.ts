// 3D replay view model: the scene geometry (recorded once per episode), the body poses of every trajectory
// sample, commanded waypoints and collisions. Incremental and cheap to feed: add() keeps references to the
// events (packed trajectories keep their Float64Array columns), so a run opens no slower when the 3D tab is
// never shown. Sample indices match TrajectorySeriesBuilder's (same events, same order, empty trajectories
// skipped), so time, turn and end-effector columns come from there.
import type { EventOf, TraceEvent } from '../../../protocol/trace.js';
import type { PackedTrajectory, ViewEvent } from '../../../protocol/webview.js';

export type Vec3 = [number, number, number];
export type SceneGeom = EventOf<'scene'>['geoms'][number];

/** A target the agent's code commanded (e.g. execute_trajectory's position), world frame, metres. */
export interface Waypoint3d {
  turn: number;
  fn: string;
  pos: Vec3;
  /** The API call succeeded. */
  ok: boolean;
  /** Index of the call within its code block (of the robot's action within a joint action). */
  call: number;
  /** The robot whose action it is (joint actions of several robots, e.g. RoCo's PATH waypoints). */
  agent?: string;
}

/** A collision: a 'collision' check event, or a sample contact between a robot body and a fixture or robot. */
export interface Collision3d {
  turn: number;
  a: string;
  b: string;
  /** First sample at or after the collision (index into the run's samples). */
  sampleIndex: number;
  source: 'check' | 'contact';
  message?: string;
}

interface Chunk {
  turn: number;
  /** Global index of the first sample. */
  start: number;
  n: number;
  /** Raw sim time of each sample (as recorded, before the series' monotonic shift). */
  tSecs: ArrayLike<number>;
  /** Packed: bodies of all samples, `width` numbers each. */
  packed?: Float64Array;
  width: number;
  /** Unpacked: the samples themselves (bodies read on demand). */
  samples?: EventOf<'trajectory'>['samples'];
  contacts: Map<number, [string, string][]>;
}

const COLLISION_MSG = /^collision:\s*(.+?)\s*<->\s*(.+?)\s+at t=(-?[\d.]+)\s*s/;
/** API functions whose first argument is a target position or a list of them. */
const MOTION_FN = /trajectory|^move|^go_?to|waypoint/i;

export class Scene3dBuilder {
  scene: EventOf<'scene'> | undefined;
  /** Scene events after the first one are ignored (one scene per episode); counted so a view can say so. */
  extraScenes = 0;
  length = 0;
  version = 0;
  private chunks: Chunk[] = [];
  private readonly bodyIndex = new Map<string, number>();
  private readonly waypointList: Waypoint3d[] = [];
  private readonly checks: EventOf<'check'>[] = [];
  private readonly objectNames = new Set<string>();
  private lastSeq = -1;
  private collisionCache: { version: number; list: Collision3d[] } | undefined;
  private robotCache: { version: number; set: Set<string> } | undefined;

  add(e: TraceEvent | ViewEvent): void {
    if (e.seq <= this.lastSeq) return;
    this.lastSeq = e.seq;
    switch (e.type) {
      case 'scene':
        if (this.scene) this.extraScenes++;
        else {
          this.scene = e;
          e.bodies.forEach((b, i) => this.bodyIndex.set(b, i));
        }
        break;
      case 'trajectory':
        if (e.samples.length === 0) return;
        this.push({ turn: e.turn, start: this.length, n: e.samples.length, tSecs: e.samples.map((s) => s.tSecs), width: e.samples[0].bodies?.length ?? 0, samples: e.samples, contacts: unpackedContacts(e.samples) });
        break;
      case 'trajectory_packed':
        if (e.n === 0) return;
        this.push(packedChunk(e, this.length));
        break;
      case 'code_execution':
        e.apiCalls.forEach((c, i) => {
          if (!MOTION_FN.test(c.fn)) return;
          for (const pos of targetPositions(c.args[0])) this.waypointList.push({ turn: e.turn, fn: c.fn, pos, ok: c.ok, call: i });
        });
        break;
      case 'action':
        // Joint actions (RoCo): each robot's MOVE point and PATH waypoints, drawn for every arm.
        e.actions.forEach((a, i) => {
          for (const arg of a.args ?? []) for (const pos of targetPositions(arg)) this.waypointList.push({ turn: e.turn, fn: a.name, pos, ok: true, call: i, agent: a.agent });
        });
        break;
      case 'action_result':
        // A plan the checks rejected moved nothing: its waypoints are drawn as failed.
        if (e.results.every((r) => !r.ok)) for (const w of this.waypointList) if (w.turn === e.turn && w.agent !== undefined) w.ok = false;
        break;
      case 'check':
        if (e.name === 'collision' && !e.ok) this.checks.push(e);
        break;
      case 'observation':
        for (const o of e.state.objects) this.objectNames.add(o.name);
        break;
      default:
        return;
    }
    this.version++;
  }

  append(events: readonly (TraceEvent | ViewEvent)[]): void {
    for (const e of events) this.add(e);
  }

  private push(c: Chunk): void {
    this.chunks.push(c);
    this.length += c.n;
  }

  /** Index of a body in the scene's body list, or -1. */
  body(name: string): number {
    return this.bodyIndex.get(name) ?? -1;
  }

  get bodies(): readonly string[] {
    return this.scene?.bodies ?? [];
  }

  /** Whether samples carry body poses in the scene's layout (7 numbers per scene body). */
  hasPoses(): boolean {
    const w = 7 * this.bodies.length;
    return w > 0 && this.chunks.some((c) => c.width === w);
  }

  private chunkAt(i: number): Chunk | undefined {
    const cs = this.chunks;
    let lo = 0, hi = cs.length - 1;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      if (i < cs[m].start) hi = m - 1;
      else if (i >= cs[m].start + cs[m].n) lo = m + 1;
      else return cs[m];
    }
    return undefined;
  }

  /**
   * Writes body `b`'s pose at sample `i` into `out` as [x, y, z, qw, qx, qy, qz] (world frame, MuJoCo's
   * w-first quaternion). Returns false when that sample has no poses in the scene's layout.
   */
  pose(i: number, b: number, out: Float64Array | number[]): boolean {
    const c = this.chunkAt(i);
    if (!c || b < 0 || c.width !== 7 * this.bodies.length) return false;
    const k = i - c.start;
    const src = c.packed ?? c.samples![k].bodies;
    if (!src || (!c.packed && src.length !== c.width)) return false;
    const off = (c.packed ? k * c.width : 0) + 7 * b;
    for (let j = 0; j < 7; j++) out[j] = src[off + j];
    return true;
  }

  /** Raw (recorded) sim time of sample i. */
  rawTime(i: number): number {
    const c = this.chunkAt(i);
    return c ? c.tSecs[i - c.start] : NaN;
  }

  contactsAt(i: number): readonly [string, string][] {
    const c = this.chunkAt(i);
    return c?.contacts.get(i - c.start) ?? [];
  }

  waypoints(): readonly Waypoint3d[] {
    return this.waypointList;
  }

  /** Names of the objects the observations list (movable things, as opposed to robot links and fixtures). */
  objects(): ReadonlySet<string> {
    return this.objectNames;
  }

  /**
   * Collisions, in sample order: every failed 'collision' check placed at its first sample at or after the
   * reported time in its turn, plus contacts between a moving robot body (a body that is not an observed object
   * and moves during the run) and a fixture or another robot body: once per pair and turn (as the engine
   * reports collisions), at the pair's first contact sample, unless a check already named the pair.
   */
  collisions(): readonly Collision3d[] {
    if (this.collisionCache?.version === this.version) return this.collisionCache.list;
    const list: Collision3d[] = [];
    for (const e of this.checks) {
      const m = COLLISION_MSG.exec(e.message);
      const a = m?.[1] ?? e.message, b = m?.[2] ?? '';
      const index = this.sampleAtTime(e.turn, m ? Number(m[3]) : NaN);
      if (index >= 0) list.push({ turn: e.turn, a, b, sampleIndex: index, source: 'check', message: e.message });
    }
    const robot = this.robotBodies();
    const seen = new Set(list.map((c) => `${pairKey(c.a, c.b)}@${c.turn}`));
    for (const c of this.chunks) {
      for (let k = 0; k < c.n; k++) {
        for (const [a, b] of c.contacts.get(k) ?? []) {
          const ra = robot.has(a), rb = robot.has(b);
          if (!ra && !rb) continue;
          // Robot against an object: grasping and pushing look alike here; only the engine's check tells.
          if (this.objectNames.has(a) || this.objectNames.has(b)) continue;
          const key = pairKey(a, b);
          if (seen.has(`${key}@${c.turn}`)) continue;
          seen.add(`${key}@${c.turn}`);
          list.push({ turn: c.turn, a, b, sampleIndex: c.start + k, source: 'contact' });
        }
      }
    }
    list.sort((x, y) => x.sampleIndex - y.sampleIndex);
    this.collisionCache = { version: this.version, list };
    return list;
  }

  /** First sample of `turn` at or after raw time t (the turn's first sample when t is unknown), else -1. */
  private sampleAtTime(turn: number, t: number): number {
    const mine = this.chunks.filter((c) => c.turn === turn);
    for (const c of mine) for (let k = 0; k < c.n; k++) if (!(c.tSecs[k] < t - 1e-9)) return c.start + k;
    if (mine.length) {
      const last = mine[mine.length - 1];
      return last.start + last.n - 1;
    }
    // No motion in that turn: the last sample before it.
    let best = -1;
    for (const c of this.chunks) if (c.turn < turn) best = c.start + c.n - 1;
    return best;
  }

  /** Scene bodies that are not observed objects and whose pose changes somewhere in the run. */
  robotBodies(): ReadonlySet<string> {
    if (this.robotCache?.version === this.version) return this.robotCache.set;
    const out = new Set<string>();
    this.robotCache = { version: this.version, set: out };
    if (!this.hasPoses() || this.length === 0) return out;
    const a = new Float64Array(7), b = new Float64Array(7);
    // Chunk boundaries are enough to see a link move (every motion starts and ends somewhere else).
    const probes = [...new Set(this.chunks.flatMap((c) => [c.start, c.start + c.n - 1]))];
    this.bodies.forEach((name, i) => {
      if (this.objectNames.has(name) || !this.pose(0, i, a)) return;
      for (const p of probes) {
        if (!this.pose(p, i, b)) continue;
        if (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) > 1e-6) {
          out.add(name);
          return;
        }
      }
    });
    return out;
  }

  /** Centre of a body's geoms in the world at sample i (its origin when it has none), or undefined. */
  bodyCentre(i: number, name: string): Vec3 | undefined {
    const b = this.body(name);
    const p = new Float64Array(7);
    if (b < 0) return undefined;
    if (!this.pose(i, b, p)) p.set([0, 0, 0, 1, 0, 0, 0]);
    const geoms = (this.scene?.geoms ?? []).filter((g) => g.body === name && g.kind !== 'plane');
    if (geoms.length === 0) return [p[0], p[1], p[2]];
    const acc: Vec3 = [0, 0, 0];
    for (const g of geoms) {
      const w = rotate(p, g.pos);
      for (let j = 0; j < 3; j++) acc[j] += p[j] + w[j];
    }
    return [acc[0] / geoms.length, acc[1] / geoms.length, acc[2] / geoms.length];
  }

  /** Where to draw a collision: between the two bodies, or on the robot/object side of a fixture contact. */
  collisionPoint(c: Collision3d): Vec3 | undefined {
    const pa = this.bodyCentre(c.sampleIndex, c.a);
    const pb = this.bodyCentre(c.sampleIndex, c.b);
    const movA = this.objectNames.has(c.a) || this.robotBodies().has(c.a);
    const movB = this.objectNames.has(c.b) || this.robotBodies().has(c.b);
    if (pa && pb && movA === movB) return [(pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2, (pa[2] + pb[2]) / 2];
    return (movB ? pb : pa) ?? pa ?? pb;
  }
}

/** Rotates v by the w-first quaternion stored at p[3..6]. */
function rotate(p: ArrayLike<number>, v: readonly number[]): Vec3 {
  const w = p[3], x = p[4], y = p[5], z = p[6];
  // t = 2 q×v; v' = v + w t + q×t
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

function isVec3(v: unknown): v is number[] {
  return Array.isArray(v) && v.length >= 3 && v.slice(0, 3).every((x) => typeof x === 'number' && Number.isFinite(x));
}

/** A position [x, y, z, ...], a list of them, or a list of {pos|position: [...]}; anything else gives none. */
export function targetPositions(arg: unknown): Vec3[] {
  if (isVec3(arg)) return [[arg[0], arg[1], arg[2]]];
  if (!Array.isArray(arg)) {
    const o = arg as { pos?: unknown; position?: unknown } | null;
    const p = o && typeof o === 'object' ? (o.pos ?? o.position) : undefined;
    return isVec3(p) ? [[p[0], p[1], p[2]]] : [];
  }
  return arg.flatMap((x) => (isVec3(x) || (x && typeof x === 'object' && !Array.isArray(x)) ? targetPositions(x) : []));
}

function unpackedContacts(samples: EventOf<'trajectory'>['samples']): Map<number, [string, string][]> {
  const m = new Map<number, [string, string][]>();
  samples.forEach((s, k) => {
    if (s.contacts?.length) m.set(k, s.contacts);
  });
  return m;
}

function packedChunk(p: PackedTrajectory, start: number): Chunk {
  return {
    turn: p.turn, start, n: p.n, tSecs: p.tSecs, packed: p.bodies, width: p.bodiesWidth ?? 0,
    contacts: new Map((p.contacts ?? []).filter((c) => c.pairs.length).map((c) => [c.index, c.pairs])),
  };
}

export function projectScene3d(events: readonly (TraceEvent | ViewEvent)[]): Scene3dBuilder {
  const b = new Scene3dBuilder();
  b.append(events);
  return b;
}

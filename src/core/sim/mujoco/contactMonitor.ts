// Watches contacts while a robot API call runs. Every physics step it reads the contact sensors (plain numbers);
// only when something touches what it should not does it walk MuJoCo's contact list (slow: each entry is an
// Embind copy) to name the link and measure the depth. Each pair is reported once per call, with the deepest
// penetration seen while it lasted. Three kinds: the arm hits something (`arm`), a held object hits the scene
// (`held`), and two objects meet during the call while one of them moves (`object`: the robot set it going,
// since nothing else acts during a call).
import { forEachContact } from './contacts.js';
import type { SceneModel } from './sceneModel.js';
import type { SimState } from './simState.js';

export interface Collision {
  a: string;
  b: string;
  tSecs: number;
  /** Deepest penetration of the pair during the call, metres (MuJoCo's contact distance, negated). */
  depthM?: number;
  kind?: 'arm' | 'held' | 'object';
}

/** Object-object contacts count only while one of the two moves at least this fast (resting contacts flicker). */
const MOVING_MPS = 0.01;
const TURNING_RADPS = 0.1;
/** An object meeting the table or floor is a collision only when it comes down at least this fast (it fell). */
const FALLING_MPS = 0.1;

export class ContactMonitor {
  private allowed: Set<number>[] = [];
  private reported = new Set<string>();
  private collisions: Collision[] = [];
  /** Link labels found for (arm, other) during this call, reused when recording trajectory contacts. */
  private linkCache = new Map<string, string[]>();
  private armPairCache = new Map<string, [string, string][]>();

  /** MuJoCo's live sensordata view, kept between steps (fetching it is an Embind call); refetched when WASM
   * memory growth detached it (its length drops to 0) or the data object changed. */
  private sensorView: Float64Array | null = null;
  private sensorViewOf: SimState['data'] | null = null;
  /** Object sensors in contact since the call began (resting contacts): not collisions until they separate. */
  private resting = new Set<number>();
  /** Objects the call may move into others: held or being grasped when it began (a released object lands). */
  private exempt = new Set<number>();
  /** Reported pairs still measured: the sensor, the bodies on each side. */
  private tracked = new Map<string, { collision: Collision; adr: number; a: ReadonlySet<number>; b: number }>();

  /** Per arm, the labels of its finger bodies (or its suction cup). */
  private readonly fingerLabel: string[][];

  constructor(private readonly scene: SceneModel) {
    this.fingerLabel = scene.arms.map((arm) => {
      const g = arm.layout.gripper;
      const bodies = g.kind === 'parallel' ? g.bodies : g.kind === 'hand' ? g.sides : [g.body];
      return bodies.map((m) => arm.layout.bodies.find((b) => b.mjcf === m)!.label);
    });
  }

  private sensordata(state: SimState): Float64Array {
    const v = this.sensorView;
    if (v && v.length > 0 && this.sensorViewOf === state.data) return v;
    this.sensorViewOf = state.data;
    return (this.sensorView = state.data.sensordata as Float64Array);
  }

  /**
   * Start a call. `allowed[arm]` lists objects the arm may touch (the held object, the one being grasped). With the
   * state, object contacts present now are remembered as resting (reported only if they part and meet again).
   */
  begin(allowed: Set<number>[], state?: SimState): void {
    this.allowed = allowed;
    this.reported.clear();
    this.collisions = [];
    this.linkCache.clear();
    this.armPairCache.clear();
    this.tracked.clear();
    this.resting.clear();
    this.exempt = new Set(allowed.flatMap((a) => [...a]));
    if (state) {
      const s = this.sensordata(state);
      this.scene.sensors.forEach(({ sensor, adr }, i) => {
        if (sensor.kind === 'object' && s[adr]! > 0) this.resting.add(i);
      });
    }
  }

  /** Whether `arm` may touch object `other` in the current call (held, being grasped, or interactive). */
  isAllowed(arm: number, other: number): boolean {
    return other >= 0 && (this.allowed[arm]?.has(other) === true || this.scene.objects[other]!.interactive);
  }

  afterStep(state: SimState): void {
    const s = this.sensordata(state);
    const sensors = this.scene.sensors;
    for (let i = 0; i < sensors.length; i++) {
      const { sensor, adr } = sensors[i]!;
      if (s[adr]! === 0) {
        this.resting.delete(i);
        continue;
      }
      if (sensor.kind === 'arms') {
        this.armArm(state, sensor.arm, sensor.otherArm);
        continue;
      }
      if (sensor.kind === 'object') {
        this.objectContact(state, i);
        continue;
      }
      if (sensor.kind !== 'arm') continue;
      if (this.isAllowed(sensor.arm, sensor.other)) continue;
      const key = `${sensor.arm}:${sensor.other}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      const links = this.links(state, sensor.arm, sensor.other);
      const b = this.scene.otherLabel(sensor.other);
      for (const a of links) {
        const collision: Collision = { a, b, tSecs: state.timeSecs, kind: 'arm' };
        this.collisions.push(collision);
        this.tracked.set(`${key}:${a}`, { collision, adr, a: new Set(this.scene.arms[sensor.arm]!.bodyIds), b: this.scene.otherBody(sensor.other) });
      }
    }
    if (this.tracked.size > 0) this.measureDepths(state, s);
  }

  /** An object touches another object, the table or the floor. */
  private objectContact(state: SimState, index: number): void {
    const { sensor, adr } = this.scene.sensors[index]!;
    if (sensor.kind !== 'object') return;
    const key = `o:${sensor.object}:${sensor.other}`;
    if (this.reported.has(key) || this.resting.has(index)) return;
    const objects = this.scene.objects;
    const o = sensor.object;
    const other = sensor.other;
    // Tools and buttons are meant to touch things; a drawer rubs its cabinet by design.
    const exemptPart = (i: number) => i >= 0 && (objects[i]!.interactive || objects[i]!.kind === 'slide');
    if (exemptPart(o) || exemptPart(other)) return;
    const held = new Set(state.grasps.flatMap((g) => (g ? [g.object] : [])));
    let collision: Collision;
    if (held.has(o) || (other >= 0 && held.has(other))) {
      const [h, x] = held.has(o) ? [o, other] : [other, o];
      collision = { a: `${objects[h]!.name} (held)`, b: this.scene.otherLabel(x), tSecs: state.timeSecs, kind: 'held' };
    } else {
      // A released object lands, the one being grasped settles: not collisions.
      if (this.exempt.has(o) || (other >= 0 && this.exempt.has(other))) return;
      const moving = (i: number) => {
        if (i < 0) return false;
        const v = state.objectSpeed(i);
        return v.linear > MOVING_MPS || v.angular > TURNING_RADPS;
      };
      if (!moving(o) && !moving(other)) return;
      // A pushed block slides on the table and may hop; only a fall onto the table or floor counts.
      if (other < 0 && !(this.fallSpeed(state, o) > FALLING_MPS)) return;
      collision = { a: objects[o]!.name, b: this.scene.otherLabel(other), tSecs: state.timeSecs, kind: 'object' };
    }
    this.reported.add(key);
    this.collisions.push(collision);
    this.tracked.set(key, { collision, adr, a: new Set([objects[o]!.body]), b: this.scene.otherBody(other) });
  }

  /** Downward speed of a free object (m/s; 0 for fixed and sliding ones). */
  private fallSpeed(state: SimState, object: number): number {
    const o = this.scene.objects[object]!;
    if (o.kind !== 'free') return 0;
    return -(state.data.qvel as Float64Array)[o.dofAdr + 2]!;
  }

  /** Deepest penetration so far of every reported pair still in contact (one walk of the contact list). */
  private measureDepths(state: SimState, s: Float64Array): void {
    const live = [...this.tracked.values()].filter((t) => s[t.adr]! > 0);
    if (live.length === 0) return;
    forEachContact(this.scene.model, state.data, (b1, b2, depth) => {
      if (!(depth > 0)) return;
      for (const t of live) {
        if ((t.a.has(b1) && b2 === t.b) || (t.a.has(b2) && b1 === t.b)) {
          const d = Math.round(depth * 1e5) / 1e5;
          if (d > (t.collision.depthM ?? 0)) t.collision.depthM = d;
        }
      }
    });
  }

  private armArm(state: SimState, a: number, b: number): void {
    const key = `arms:${a}:${b}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    for (const [la, lb] of this.armPairs(state, a, b)) this.collisions.push({ a: la, b: lb, tSecs: state.timeSecs });
  }

  /** Link label pairs where arm a touches arm b now (walks the contact list; cached per call). */
  private armPairs(state: SimState, a: number, b: number): [string, string][] {
    const key = `arms:${a}:${b}`;
    const cached = this.armPairCache.get(key);
    if (cached) return cached;
    const bodiesA = new Set(this.scene.arms[a]!.bodyIds);
    const bodiesB = new Set(this.scene.arms[b]!.bodyIds);
    const found = new Map<string, [string, string]>();
    forEachContact(this.scene.model, state.data, (b1, b2) => {
      if (bodiesB.has(b1) && bodiesA.has(b2)) [b1, b2] = [b2, b1];
      if (bodiesA.has(b1) && bodiesB.has(b2)) {
        const pair: [string, string] = [this.scene.bodyLabel[b1]!, this.scene.bodyLabel[b2]!];
        found.set(pair.join('\u0000'), pair);
      }
    });
    const pairs = [...found.values()].sort((x, y) => (x.join('\u0000') < y.join('\u0000') ? -1 : 1));
    const result: [string, string][] = pairs.length > 0 ? pairs : [[`${this.scene.arms[a]!.layout.spec.label}arm`, `${this.scene.arms[b]!.layout.spec.label}arm`]];
    this.armPairCache.set(key, result);
    return result;
  }

  /** Collisions seen since begin(), in the order they happened. */
  end(): Collision[] {
    return this.collisions;
  }

  /** Collisions seen so far in this call (a controller stops on the first new one). */
  soFar(): readonly Collision[] {
    return this.collisions;
  }

  /**
   * Contact pairs right now, as labels: object-object and object-fixture pairs, finger-object pairs, and other
   * arm links (named through the slow lookup, cached per call). Sorted, so traces do not depend on contact order.
   */
  pairs(state: SimState): [string, string][] {
    const s = state.data.sensordata as Float64Array;
    const out: [string, string][] = [];
    const fingerHits = new Map<string, number>();
    for (const { sensor, adr } of this.scene.sensors) {
      const n = s[adr]!;
      if (n === 0) continue;
      if (sensor.kind === 'object') out.push([this.scene.objects[sensor.object]!.name, this.scene.otherLabel(sensor.other)]);
      else if (sensor.kind === 'finger') {
        out.push([this.fingerLabel[sensor.arm]![sensor.side]!, this.scene.otherLabel(sensor.other)]);
        const key = `${sensor.arm}:${sensor.other}`;
        fingerHits.set(key, (fingerHits.get(key) ?? 0) + n);
      }
    }
    for (const { sensor, adr } of this.scene.sensors) {
      if (sensor.kind === 'arms' && s[adr]! > 0) out.push(...this.armPairs(state, sensor.arm, sensor.otherArm));
      if (sensor.kind !== 'arm') continue;
      const key = `${sensor.arm}:${sensor.other}`;
      if (s[adr]! <= (fingerHits.get(key) ?? 0)) continue;
      const links = this.links(state, sensor.arm, sensor.other).filter((l) => !this.fingerLabel[sensor.arm]!.includes(l));
      for (const l of links) out.push([l, this.scene.otherLabel(sensor.other)]);
    }
    return out.sort((x, y) => (x[0] + '\u0000' + x[1] < y[0] + '\u0000' + y[1] ? -1 : 1));
  }

  /** Labels of the arm's links touching `other` now (walks the contact list; cached for this call). */
  private links(state: SimState, arm: number, other: number): string[] {
    const key = `${arm}:${other}`;
    const cached = this.linkCache.get(key);
    if (cached) return cached;
    const armBodies = new Set(this.scene.arms[arm]!.bodyIds);
    const target = this.scene.otherBody(other);
    const found = new Set<string>();
    forEachContact(this.scene.model, state.data, (b1, b2) => {
      if (armBodies.has(b1) && b2 === target) found.add(this.scene.bodyLabel[b1]!);
      else if (armBodies.has(b2) && b1 === target) found.add(this.scene.bodyLabel[b2]!);
    });
    const labels = [...found].sort();
    const result = labels.length > 0 ? labels : [`${this.scene.arms[arm]!.layout.spec.label}arm`];
    this.linkCache.set(key, result);
    return result;
  }
}

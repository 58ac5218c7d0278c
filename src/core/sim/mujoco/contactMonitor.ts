// Watches contacts while a robot API call runs. Every physics step it reads the contact sensors (plain numbers);
// only when an arm touches something it should not does it walk MuJoCo's contact list (slow: each entry is an
// Embind copy) to name the link. Each (arm, thing) pair is reported once per call.
import type { SceneModel } from './sceneModel.js';
import type { SimState } from './simState.js';

export interface Collision {
  a: string;
  b: string;
  tSecs: number;
}

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

  /** Per arm, the labels of its finger bodies (or its suction cup). */
  private readonly fingerLabel: string[][];

  constructor(private readonly scene: SceneModel) {
    this.fingerLabel = scene.arms.map((arm) => {
      const g = arm.layout.gripper;
      const bodies = g.kind === 'parallel' ? g.bodies : [g.body];
      return bodies.map((m) => arm.layout.bodies.find((b) => b.mjcf === m)!.label);
    });
  }

  private sensordata(state: SimState): Float64Array {
    const v = this.sensorView;
    if (v && v.length > 0 && this.sensorViewOf === state.data) return v;
    this.sensorViewOf = state.data;
    return (this.sensorView = state.data.sensordata as Float64Array);
  }

  /** Start a call. `allowed[arm]` lists objects the arm may touch (the held object, the one being grasped). */
  begin(allowed: Set<number>[]): void {
    this.allowed = allowed;
    this.reported.clear();
    this.collisions = [];
    this.linkCache.clear();
    this.armPairCache.clear();
  }

  /** Whether `arm` may touch object `other` in the current call (held, being grasped, or interactive). */
  isAllowed(arm: number, other: number): boolean {
    return other >= 0 && (this.allowed[arm]?.has(other) === true || this.scene.objects[other]!.interactive);
  }

  afterStep(state: SimState): void {
    const s = this.sensordata(state);
    for (const { sensor, adr } of this.scene.sensors) {
      if (s[adr]! === 0) continue;
      if (sensor.kind === 'arms') {
        this.armArm(state, sensor.arm, sensor.otherArm);
        continue;
      }
      if (sensor.kind !== 'arm') continue;
      if (this.isAllowed(sensor.arm, sensor.other)) continue;
      const key = `${sensor.arm}:${sensor.other}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      const links = this.links(state, sensor.arm, sensor.other);
      const b = this.scene.otherLabel(sensor.other);
      for (const a of links) this.collisions.push({ a, b, tSecs: state.timeSecs });
    }
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
    const bodyOf = this.scene.model.geom_bodyid as Int32Array;
    const bodiesA = new Set(this.scene.arms[a]!.bodyIds);
    const bodiesB = new Set(this.scene.arms[b]!.bodyIds);
    const found = new Map<string, [string, string]>();
    const list = state.data.contact;
    try {
      const n = state.data.ncon;
      for (let i = 0; i < n; i++) {
        const c = list.get(i);
        if (!c) continue;
        let b1 = bodyOf[c.geom1]!;
        let b2 = bodyOf[c.geom2]!;
        c.delete();
        if (bodiesB.has(b1) && bodiesA.has(b2)) [b1, b2] = [b2, b1];
        if (bodiesA.has(b1) && bodiesB.has(b2)) {
          const pair: [string, string] = [this.scene.bodyLabel[b1]!, this.scene.bodyLabel[b2]!];
          found.set(pair.join('\u0000'), pair);
        }
      }
    } finally {
      list.delete();
    }
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
    const m = this.scene.model;
    const bodyOf = m.geom_bodyid as Int32Array;
    const armBodies = new Set(this.scene.arms[arm]!.bodyIds);
    const target = this.scene.otherBody(other);
    const found = new Set<string>();
    const list = state.data.contact;
    try {
      const n = state.data.ncon;
      for (let i = 0; i < n; i++) {
        const c = list.get(i);
        if (!c) continue;
        const b1 = bodyOf[c.geom1]!;
        const b2 = bodyOf[c.geom2]!;
        c.delete();
        if (armBodies.has(b1) && b2 === target) found.add(this.scene.bodyLabel[b1]!);
        else if (armBodies.has(b2) && b1 === target) found.add(this.scene.bodyLabel[b2]!);
      }
    } finally {
      list.delete();
    }
    const labels = [...found].sort();
    const result = labels.length > 0 ? labels : [`${this.scene.arms[arm]!.layout.spec.label}arm`];
    this.linkCache.set(key, result);
    return result;
  }
}

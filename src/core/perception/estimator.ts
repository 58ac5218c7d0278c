// Perception mode (MALMM Sec. III-D reproduced in effect, not in method): instead of the simulator's ground truth
// the agents see a seeded estimate, as a single front camera with a segmenter and 3-D boxes would give it:
// - noise on every object's centre, size and yaw (PERCEPTION_NOISE, Gaussian, seeded): a bias per object that
//   lasts the episode (the same view, the same box fit) plus a smaller jitter drawn anew at every observation;
// - drop-outs: an object hidden behind a nearer one, seen from the front camera, is missed most of the time, a
//   visible one rarely;
// - the paper's jitter filter: an estimate that moved less than 1 cm and turned less than 30 degrees since the
//   previous step keeps the previous estimate (the paper writes "or"; with "or" nearly every step would be kept, so
//   we follow issue 8's "and").
// The end effector and the grasp come from the robot's own sensing and stay exact. Pure: no simulator access.
import { seededRng } from '../host.js';
import { gauss, wrap } from './noise.js';
import type { ObjectState, WorldState } from '../../protocol/trace.js';

export const PERCEPTION_MODES = ['ground-truth', 'estimated'] as const;
export type PerceptionMode = (typeof PERCEPTION_MODES)[number];

/** The noise model's numbers (documented in docs/malmm.md, "Perception mode"). */
export const PERCEPTION_NOISE = {
  /** Standard deviation of each centre coordinate's per-object bias, and of its per-observation jitter, metres. */
  centreSigmaM: 0.006,
  centreJitterM: 0.002,
  /** Standard deviation of each extent's per-object bias, metres (extents never go below 5 mm). */
  sizeSigmaM: 0.004,
  /** Standard deviation of the yaw's per-object bias (about 4.6 degrees) and per-observation jitter, radians. */
  yawSigmaRad: 0.08,
  yawJitterRad: 0.02,
  /** Chance that an object hidden behind a nearer one is missed, and that a visible one is. */
  dropOccluded: 0.7,
  dropVisible: 0.03,
  /** The front camera: in front of the table (far side from the robot base), looking back at the robot. */
  cameraPos: [0, 1.0, 1.3] as [number, number, number],
  /** Jitter filter: keep the previous estimate when it moved less than this and turned less than jitterTurnRad. */
  jitterMoveM: 0.01,
  jitterTurnRad: Math.PI / 6,
};


/** Whether a nearer object covers `o`'s centre as the front camera sees it. */
export function occluded(o: ObjectState, all: readonly ObjectState[], camera = PERCEPTION_NOISE.cameraPos): boolean {
  const to = (p: readonly number[]) => [p[0]! - camera[0], p[1]! - camera[1], p[2]! - camera[2]];
  const a = to(o.pos);
  const da = Math.hypot(a[0]!, a[1]!, a[2]!);
  return all.some((b) => {
    if (b === o || b.size[2] < 0.01) return false; // flat markers hide nothing
    const v = to(b.pos);
    const db = Math.hypot(v[0]!, v[1]!, v[2]!);
    if (db >= da) return false;
    const cos = (a[0]! * v[0]! + a[1]! * v[1]! + a[2]! * v[2]!) / (da * db);
    const radius = Math.max(b.size[0], b.size[1], b.size[2]) / 2;
    return Math.acos(Math.min(1, cos)) < Math.atan2(radius, db);
  });
}

/** What one estimate step decided about an object (for the trace and the viewer's difference table). */
export interface PerceptionNote {
  name: string;
  dropped?: 'occluded' | 'missed';
  /** The jitter filter kept the previous estimate. */
  kept?: boolean;
}

/** A seeded perception model for one episode: call `estimate` on every observation, in order. */
export class PerceptionModel {
  private readonly previous = new Map<string, ObjectState>();
  private readonly biases = new Map<string, { pos: number[]; size: number[]; yaw: number }>();
  private count = 0;
  constructor(private readonly seed: number) {}

  /** The object's lasting error, drawn once per episode from the seed and its name. */
  private bias(name: string): { pos: number[]; size: number[]; yaw: number } {
    let b = this.biases.get(name);
    if (!b) {
      let h = this.seed >>> 0;
      for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
      const r = seededRng(h);
      const n = PERCEPTION_NOISE;
      b = { pos: [0, 1, 2].map(() => n.centreSigmaM * gauss(r)), size: [0, 1, 2].map(() => n.sizeSigmaM * gauss(r)), yaw: n.yawSigmaRad * gauss(r) };
      this.biases.set(name, b);
    }
    return b;
  }

  estimate(truth: WorldState): { state: WorldState; notes: PerceptionNote[] } {
    const n = PERCEPTION_NOISE;
    const rng = seededRng((Math.imul(this.seed + 1, 0x9e3779b1) ^ Math.imul(++this.count, 0x85ebca6b)) >>> 0);
    const notes: PerceptionNote[] = [];
    const objects: ObjectState[] = [];
    for (const o of truth.objects) {
      // Draw every number for every object, so one object's fate never shifts another's noise.
      const noise = { pos: [gauss(rng), gauss(rng), gauss(rng)], yaw: gauss(rng), drop: rng.next() };
      const bias = this.bias(o.name);
      const hidden = o.name !== truth.grasped && occluded(o, truth.objects, n.cameraPos);
      if (noise.drop < (hidden ? n.dropOccluded : n.dropVisible)) {
        notes.push({ name: o.name, dropped: hidden ? 'occluded' : 'missed' });
        continue;
      }
      const est: ObjectState = {
        ...o,
        pos: [0, 1, 2].map((i) => o.pos[i]! + bias.pos[i]! + n.centreJitterM * noise.pos[i]!) as [number, number, number],
        size: [0, 1, 2].map((i) => Math.max(0.005, o.size[i]! + bias.size[i]!)) as [number, number, number],
        euler: [o.euler[0], o.euler[1], wrap(o.euler[2] + bias.yaw + n.yawJitterRad * noise.yaw)],
      };
      const prev = this.previous.get(o.name);
      const moved = prev ? Math.hypot(est.pos[0] - prev.pos[0], est.pos[1] - prev.pos[1], est.pos[2] - prev.pos[2]) : Infinity;
      const turned = prev ? Math.abs(wrap(est.euler[2] - prev.euler[2])) : Infinity;
      if (prev && moved < n.jitterMoveM && turned < n.jitterTurnRad) {
        objects.push(prev);
        notes.push({ name: o.name, kept: true });
        continue;
      }
      this.previous.set(o.name, est);
      objects.push(est);
      notes.push({ name: o.name });
    }
    return { state: { ...truth, objects }, notes };
  }
}

/** Per object: how far the estimate is from the truth (centre error m, yaw error rad), or why it is missing. */
export function perceptionErrors(truth: WorldState, estimate: WorldState): { name: string; centreErrM?: number; yawErrRad?: number; sizeErrM?: number; missing?: boolean }[] {
  return truth.objects.map((t) => {
    const e = estimate.objects.find((o) => o.name === t.name);
    if (!e) return { name: t.name, missing: true };
    return {
      name: t.name,
      centreErrM: Math.hypot(e.pos[0] - t.pos[0], e.pos[1] - t.pos[1], e.pos[2] - t.pos[2]),
      yawErrRad: Math.abs(wrap(e.euler[2] - t.euler[2])),
      sizeErrM: Math.max(...[0, 1, 2].map((i) => Math.abs(e.size[i]! - t.size[i]!))),
    };
  });
}

// The detector model behind LM Trajectory Generators' detect_object in perception mode `estimated` (the paper's
// LangSAM boxes reproduced in effect, not in method). Ground truth goes in, a seeded estimate comes out:
// - camera calibration: one offset of every detected centre per episode (the paper's "camera calibration error":
//   a correct trajectory for a wrong box);
// - noise: a bias per object or part that lasts the episode (the same view, the same box fit) plus a smaller
//   jitter drawn anew at every call, on centres, horizontal sides, height and yaw;
// - part segmentation that fails, more often the thinner the part (the paper: "the rim of a bowl, or the slot of a
//   toaster"): the mask covers the whole object, or the part with a wrong extent, or a neighbouring region. A
//   failure is drawn per call, so a re-plan that detects again may see the part right.
// Pure: no simulator access. The embedded simulator's LMTG API calls it (src/core/sim/mujoco/apis/lmtgApi.ts).
import { seededRng } from '../host.js';
import { gauss, wrap } from './noise.js';
import { PERCEPTION_MODES, type PerceptionMode } from './estimator.js';

/** One `--perception` switch drives both models: the mode names are the observation estimator's (estimator.ts). */
export const DETECTOR_MODES = PERCEPTION_MODES;
export type DetectorMode = PerceptionMode;

type Vec3 = [number, number, number];

/** The model's numbers (documented in docs/perception.md and this folder's README). */
export const DETECTOR_NOISE = {
  /** Camera calibration: standard deviation of the episode's offset of every centre, per axis, metres. */
  calibrationSigmaM: [0.004, 0.004, 0.003] as Vec3,
  /** Per object or part: standard deviation of each centre coordinate's bias, and of its per-call jitter, metres. */
  centreSigmaM: 0.003,
  centreJitterM: 0.0015,
  /** Per object or part: standard deviation of each extent's bias (extents never go below 5 mm), metres. */
  sizeSigmaM: 0.004,
  /** Yaw: bias per object or part and per-call jitter, radians (about 2.9 and 1.1 degrees). */
  yawSigmaRad: 0.05,
  yawJitterRad: 0.02,
  /**
   * Part segmentation failure, per call: partFailBase + partFailThin * clamp((thinRefM - t) / thinRefM, 0, 1),
   * t the part's thinnest extent. A bowl's rim (1 cm) fails 42.5% of the time, a pan's handle (1.6 cm) 35%, a
   * toaster's slot (3.2 cm) 15%, a 4 cm part or wider 5%. Whole objects never fail this way.
   */
  partFailBase: 0.05,
  partFailThin: 0.5,
  thinRefM: 0.04,
  /** Shares of the three failure kinds (whole object, wrong extent, neighbouring region). */
  failureShares: [0.4, 0.3, 0.3] as [number, number, number],
};

export type PartFailure = 'whole_object' | 'wrong_extent' | 'neighbour_region';

/** A box as the detector reports it: centre (world), full extents [along yaw, across, height], yaw. */
export interface DetectedBox {
  pos: Vec3;
  size: Vec3;
  yawRad: number;
}

/** What to detect: the truth, and for a part the box of the object it belongs to. */
export interface DetectionTruth extends DetectedBox {
  label: string;
  /** Set for a part (rim, handle, slot): the whole object's box. */
  object?: DetectedBox & { name: string };
}

/** One detection: what detect_object prints (`estimate`) beside the truth, and the part failure, if any. */
export interface DetectionRecord {
  label: string;
  truth: DetectedBox;
  estimate: DetectedBox;
  failure?: PartFailure;
}


function hash(seed: number, text: string): number {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/** Chance that segmenting this part fails in one call. */
export function partFailureChance(size: readonly number[], n = DETECTOR_NOISE): number {
  const thinnest = Math.min(...size);
  return n.partFailBase + n.partFailThin * Math.min(1, Math.max(0, (n.thinRefM - thinnest) / n.thinRefM));
}

/**
 * A seeded detector for one episode. `detect(truths, call)` is deterministic in (seed, call, labels): a snapshot
 * restored with its call counter answers the same again.
 */
export class DetectorModel {
  readonly calibration: Vec3;
  constructor(
    private readonly seed: number,
    private readonly noise = DETECTOR_NOISE,
  ) {
    const r = seededRng(hash(seed, 'calibration'));
    this.calibration = [0, 1, 2].map((i) => noise.calibrationSigmaM[i]! * gauss(r)) as Vec3;
  }

  /** The lasting error of one object or part, from the seed and its label. */
  private bias(label: string): { pos: Vec3; size: Vec3; yaw: number } {
    const r = seededRng(hash(this.seed, `bias:${label}`));
    const n = this.noise;
    return { pos: [0, 1, 2].map(() => n.centreSigmaM * gauss(r)) as Vec3, size: [0, 1, 2].map(() => n.sizeSigmaM * gauss(r)) as Vec3, yaw: n.yawSigmaRad * gauss(r) };
  }

  /** Estimates for the boxes one detect_object call found; `call` counts the episode's calls from 0. */
  detect(truths: readonly DetectionTruth[], call: number): DetectionRecord[] {
    return truths.map((t) => this.one(t, call));
  }

  private one(t: DetectionTruth, call: number): DetectionRecord {
    const n = this.noise;
    const rng = seededRng(hash(this.seed, `call:${call}:${t.label}`));
    // Draw every number every time, so whether a part fails never shifts another draw.
    const jitter = [gauss(rng), gauss(rng), gauss(rng)];
    const yawJitter = gauss(rng);
    const failDraw = rng.next();
    const kindDraw = rng.next();
    const amount = rng.next();
    const sign = rng.next() < 0.5 ? -1 : 1;
    let box: DetectedBox = { pos: [...t.pos] as Vec3, size: [...t.size] as Vec3, yawRad: t.yawRad };
    let failure: PartFailure | undefined;
    if (t.object && failDraw < partFailureChance(t.size, n)) {
      const [wWhole, wExtent] = n.failureShares;
      const total = n.failureShares.reduce((a, b) => a + b, 0);
      failure = kindDraw * total < wWhole ? 'whole_object' : kindDraw * total < wWhole + wExtent ? 'wrong_extent' : 'neighbour_region';
      box = failed(failure, t, t.object, amount, sign);
    }
    const b = this.bias(t.label);
    const estimate: DetectedBox = {
      pos: [0, 1, 2].map((i) => box.pos[i]! + this.calibration[i]! + b.pos[i]! + n.centreJitterM * jitter[i]!) as Vec3,
      size: [0, 1, 2].map((i) => Math.max(0.005, box.size[i]! + b.size[i]!)) as Vec3,
      yawRad: wrap(box.yawRad + b.yaw + n.yawJitterRad * yawJitter),
    };
    return { label: t.label, truth: { pos: [...t.pos] as Vec3, size: [...t.size] as Vec3, yawRad: t.yawRad }, estimate, ...(failure ? { failure } : {}) };
  }
}

/** The box a failed part segmentation gives. `amount` in [0, 1) and `sign` pick how far and which way. */
function failed(kind: PartFailure, part: DetectedBox, object: DetectedBox, amount: number, sign: number): DetectedBox {
  if (kind === 'whole_object') return { pos: [...object.pos] as Vec3, size: [...object.size] as Vec3, yawRad: object.yawRad };
  const c = Math.cos(part.yawRad);
  const s = Math.sin(part.yawRad);
  if (kind === 'wrong_extent') {
    // The mask spills over or stops short along the part's first side, and its centre moves with the edge it got wrong.
    const scale = sign > 0 ? 1.4 + 0.6 * amount : 0.4 + 0.2 * amount;
    const along = ((scale - 1) * part.size[0]) / 2;
    return { pos: [part.pos[0] + along * c, part.pos[1] + along * s, part.pos[2]], size: [part.size[0] * scale, part.size[1] * (sign > 0 ? 1.3 : 1), part.size[2]], yawRad: part.yawRad };
  }
  // A neighbouring region of the same object: towards the object's centre for a part at its edge (a handle's mask
  // on the pan's body), else beside the part across its narrow side (a slot's on the toaster's top), or, for a part
  // all around the object (a rim), its inside, lower down.
  const dx = object.pos[0] - part.pos[0];
  const dy = object.pos[1] - part.pos[1];
  const away = Math.hypot(dx, dy);
  const shift = (0.6 + 0.4 * amount) * Math.max(part.size[0], part.size[1]);
  if (away > 0.01) {
    const k = Math.min(away, shift) / away;
    return { pos: [part.pos[0] + dx * k, part.pos[1] + dy * k, part.pos[2]], size: [...part.size] as Vec3, yawRad: part.yawRad };
  }
  if (part.size[0] > 0.1 && part.size[1] > 0.1) {
    const down = (0.5 + 0.3 * amount) * object.size[2];
    return { pos: [part.pos[0], part.pos[1], part.pos[2] - down], size: [part.size[0] * 0.7, part.size[1] * 0.7, part.size[2]], yawRad: part.yawRad };
  }
  const across = sign * (0.8 + 0.6 * amount) * Math.max(part.size[1], 0.02);
  return { pos: [part.pos[0] - across * s, part.pos[1] + across * c, part.pos[2]], size: [...part.size] as Vec3, yawRad: part.yawRad };
}

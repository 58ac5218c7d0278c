// What a fast motion does to a held object, for Action Contextualization's skills. The paper's hand holds gently
// and its `speed` parameter warns that fast motions are "jerky and less precise"; our pads and the iiwa's fingers
// (friction grasps) or the weld (`grasp: 'weld'`) hold far more firmly. This monitor puts the paper's limit back:
// while the arm holds an object, the force the grip must supply, m |a - g| (a the object's acceleration, filtered
// over 20 ms), is compared with GRIP_FORCE_N; above it the object slips out: the grasp ends and the fingers spring
// open (the closed pads would otherwise keep squeezing it), so it falls. Light things (paper) never slip; a full
// glass slips when a fast motion starts or stops.
import { detach } from '../../robot/gripper.js';
import type { SimState } from '../../simState.js';

/** Friction force the pads can supply (N): both pads, the gentle grip of a hand closing on a glass. */
export const GRIP_FORCE_N = 3.2;
/**
 * The same for a multi-finger hand (the iiwa's Allegro-class hand): four fingers and the thumb wrap what they hold, so
 * a full glass (0.25 kg) stands about 16 m/s^2, against 12.8 for the pads; a carry at speed 0.4 pulls 13-13.5 on it.
 */
export const HAND_GRIP_FORCE_N = 4;
const GRAVITY = 9.81;
const FILTER_SECS = 0.02;

export interface GripWatch {
  /** Called after every physics step. Returns the slipped object's name once, when it slips. */
  afterStep(): string | null;
  /** Largest |a - g| seen (m/s^2), for reports and tests. */
  readonly peakLoadMps2: number;
}

/** Watches the object `arm` holds now; does nothing when it holds nothing. */
export function watchGrip(state: SimState, arm: number, massOf: (object: number) => number, forceN = GRIP_FORCE_N): GripWatch {
  const held = state.grasps[arm];
  const object = held ? held.object : -1;
  const o = object >= 0 ? state.scene.objects[object]! : null;
  let prev: [number, number, number] | null = null;
  const acc: [number, number, number] = [0, 0, 0];
  let peak = 0;
  let slipped = false;
  const dt = state.scene.timestepSecs;
  const alpha = Math.min(1, dt / FILTER_SECS);
  const limit = object >= 0 ? forceN / Math.max(1e-6, massOf(object)) : Infinity;
  return {
    get peakLoadMps2() {
      return peak;
    },
    afterStep() {
      if (!o || o.kind !== 'free' || slipped || state.grasps[arm]?.object !== object) return null;
      const v = state.data.qvel as Float64Array;
      const cur: [number, number, number] = [v[o.dofAdr]!, v[o.dofAdr + 1]!, v[o.dofAdr + 2]!];
      if (prev) for (let k = 0; k < 3; k++) acc[k] = acc[k]! + alpha * ((cur[k]! - prev[k]!) / dt - acc[k]!);
      prev = cur;
      const load = Math.hypot(acc[0], acc[1], acc[2] + GRAVITY);
      peak = Math.max(peak, load);
      if (load <= limit) return null;
      slipped = true;
      detach(state, arm);
      const a = state.scene.arms[arm]!;
      const ctrl = state.data.ctrl as Float64Array;
      const g = a.gripper;
      if (g.kind === 'parallel') for (const adr of g.ctrlAdr) ctrl[adr] = g.range[1];
      else if (g.kind === 'hand') g.ctrlAdr.forEach((adr, k) => (ctrl[adr] = g.open[k]!));
      else ctrl[g.ctrlAdr] = 0; // suction off
      return o.name;
    },
  };
}

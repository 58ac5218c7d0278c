// Records TrajectorySamples at a fixed rate on the physics clock (every k-th step since reset), so the same
// calls always give the same samples. Values are copied out of MuJoCo's views into plain arrays.
import type { TrajectorySample } from '../../../protocol/trace.js';
import type { ContactMonitor } from './contactMonitor.js';
import type { SimState } from './simState.js';

export const TRAJECTORY_RATE_HZ = 50;

export class TrajectoryRecorder {
  private samples: TrajectorySample[] = [];
  readonly stepsPerSample: number;

  constructor(
    timestepSecs: number,
    private readonly contacts: ContactMonitor,
  ) {
    this.stepsPerSample = Math.max(1, Math.round(1 / (TRAJECTORY_RATE_HZ * timestepSecs)));
  }

  /** Called after every physics step of a motion; samples when the step count hits the rate grid. */
  afterStep(state: SimState, started = state.stepCount - 1): void {
    // mj_step leaves body poses and sensors as they were at the start of the step, so a sample belongs to the
    // step that started on the grid. Step 0 is skipped: reset() already recorded t = 0.
    if (started > 0 && started % this.stepsPerSample === 0) this.sample(state, started * state.scene.timestepSecs);
  }

  /** Records one sample now (also used at reset, so a trajectory starts at the initial pose). */
  sample(state: SimState, tSecs = state.timeSecs): void {
    const scene = state.scene;
    const qpos: number[] = [];
    for (let a = 0; a < scene.arms.length; a++) qpos.push(...state.armQ(a));
    const tcp = state.tcp(0);
    const xpos = state.data.xpos as Float64Array;
    const xquat = state.data.xquat as Float64Array;
    const bodies: number[] = [];
    for (const { id } of scene.replayBodies) {
      bodies.push(xpos[3 * id]!, xpos[3 * id + 1]!, xpos[3 * id + 2]!, xquat[4 * id]!, xquat[4 * id + 1]!, xquat[4 * id + 2]!, xquat[4 * id + 3]!);
    }
    // Several arms: each one's tool point and fingers, so every robot can be plotted, not only the first.
    const arms: number[] = [];
    if (scene.arms.length > 1) {
      for (let a = 0; a < scene.arms.length; a++) {
        const t = state.tcp(a);
        arms.push(t.pos[0], t.pos[1], t.pos[2], t.yawRad, state.fingerWidth(a));
      }
    }
    this.samples.push({
      tSecs: Math.round(tSecs * 1e6) / 1e6,
      qpos,
      ee: [tcp.pos[0], tcp.pos[1], tcp.pos[2], tcp.yawRad],
      gripperWidth: state.fingerWidth(0),
      grasped: state.graspedName(0),
      bodies,
      contacts: this.contacts.pairs(state),
      ...(arms.length ? { arms } : {}),
    });
  }

  drain(): TrajectorySample[] {
    const out = this.samples;
    this.samples = [];
    return out;
  }

  clear(): void {
    this.samples = [];
  }
}

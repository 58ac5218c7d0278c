// The only place that calls mj_step during robot API calls. Every step feeds the contact monitor and the
// trajectory recorder (and the motion-metrics probe), so collisions and samples can never be skipped by a controller.
import type { ContactMonitor } from './contactMonitor.js';
import { watchFrictionGrasps } from './robot/gripper.js';
import type { MotionProbe } from './motionProbe.js';
import type { SimState } from './simState.js';
import type { TrajectoryRecorder } from './trajectoryRecorder.js';

export class PhysicsRunner {
  /** Called on the 50 Hz grid (same steps as the trajectory samples), e.g. task monitors. */
  gridObservers: ((state: SimState) => void)[] = [];

  constructor(
    readonly state: SimState,
    readonly contacts: ContactMonitor,
    readonly recorder: TrajectoryRecorder,
    readonly probe: MotionProbe | null = null,
  ) {}

  get dt(): number {
    return this.state.scene.timestepSecs;
  }

  step(): void {
    const { mj, model } = this.state.scene;
    mj.mj_step(model, this.state.data);
    // The step that just ran started at this count. Read once: each read of MjData's time is an Embind call that
    // costs about as much as a tenth of a small scene's whole step.
    const started = this.state.stepCount - 1;
    if (this.state.graspMode === 'friction') watchFrictionGrasps(this.state);
    this.contacts.afterStep(this.state);
    this.recorder.afterStep(this.state, started);
    this.probe?.afterStep(this.state, started);
    if (this.gridObservers.length > 0 && started > 0 && started % this.recorder.stepsPerSample === 0) for (const f of this.gridObservers) f(this.state);
  }

  /** Steps at least `minSecs`, then until `done()` holds or `maxSecs` passed. Returns true if done() held. */
  stepUntil(done: () => boolean, minSecs: number, maxSecs: number): boolean {
    const minSteps = Math.round(minSecs / this.dt);
    const maxSteps = Math.round(maxSecs / this.dt);
    for (let k = 0; k < maxSteps; k++) {
      this.step();
      if (k + 1 >= minSteps && done()) return true;
    }
    return false;
  }

  /** Recomputes positions, sensors and contacts for the current state without advancing time. */
  forward(): void {
    const { mj, model } = this.state.scene;
    mj.mj_forward(model, this.state.data);
  }
}

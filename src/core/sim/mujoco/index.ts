// Public entry of the embedded MuJoCo tabletop simulator.
import type { Simulator } from '../simulator.js';
import { TabletopSimulator, type TabletopSimulatorOptions } from './tabletopSim.js';
import { loadMujocoModule } from './wasm.js';

export type { TabletopSimulatorOptions } from './tabletopSim.js';
export { SNAPSHOT_KIND, TabletopSimulator } from './tabletopSim.js';
export { TASK_IDS, getTask, taskCatalog, taskInfos } from './tasks/registry.js';
export type { RobotView } from './robotViews.js';
export type { ActionMetrics, EpisodeMetrics } from '../../metrics/motionMetrics.js';
export { ROBOT_APIS, getRobotApi } from './apis/registry.js';
export { loadMujocoModule } from './wasm.js';

/** Loads the shared MuJoCo module (once per process) and returns a new simulator on it. */
export async function createTabletopSimulator(options: TabletopSimulatorOptions = {}): Promise<Simulator> {
  const mj = await loadMujocoModule();
  return new TabletopSimulator(mj, options);
}

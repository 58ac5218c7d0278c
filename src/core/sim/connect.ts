// One way to name a simulator, shared by the CLI, the extension's child processes and sweeps:
//   "embedded" (default)       the simulator built into Waypoint for the architecture (the MuJoCo tabletop, or the
//                              symbolic household for architectures whose manifest says simulator: 'household')
//   "stdio:<command line>"     a protocol server started as a child process (no shell)
//   "ws://host:port"           a protocol server over WebSocket
import type { LogNotification } from '../../protocol/simulator.js';
import type { Simulator } from './simulator.js';

export type SimulatorSpec = string;

/** Why `spec` is not a simulator spec, or undefined when it is one. */
export function simulatorSpecProblem(spec: string): string | undefined {
  if (spec === 'embedded') return undefined;
  if (spec.startsWith('stdio:')) return spec.slice('stdio:'.length).trim() === '' ? "'stdio:' needs a command line, e.g. stdio:python3 my_sim.py" : undefined;
  if (/^wss?:\/\/[^\s/]+/.test(spec)) return undefined;
  return `unknown simulator '${spec}': expected embedded, stdio:<command line> or ws://host:port`;
}

export interface ConnectOptions {
  /** Client name sent in `initialize`. */
  client?: string;
  onLog?: (log: LogNotification) => void;
  /** Working directory of a stdio child. */
  cwd?: string;
  /** Which embedded simulator "embedded" means (the architecture's manifest says). Default: the tabletop. */
  family?: 'tabletop' | 'household';
  /** The embedded tabletop's grasp model: friction (default; objects can slip and drop) or weld. */
  grasp?: 'friction' | 'weld';
  /** How the embedded tabletop's MALMM execute_trajectory moves: planned around obstacles (default) or straight. */
  motion?: 'planned' | 'straight';
  /** What the embedded tabletop's detect_object reports: ground truth (default) or the seeded detector model's estimate. */
  perception?: 'ground-truth' | 'estimated';
  /** The embedded tabletop's robot for single-arm tasks: each task's own arm (default) or the KUKA iiwa where offered. */
  robot?: 'panda' | 'iiwa';
}

export async function connectSimulator(spec: SimulatorSpec = 'embedded', options: ConnectOptions = {}): Promise<Simulator> {
  const problem = simulatorSpecProblem(spec);
  if (problem) throw new Error(problem);
  if (spec === 'embedded') {
    if (options.family === 'household') {
      const { createHouseholdSimulator } = await import('./household/index.js');
      return createHouseholdSimulator();
    }
    const { createTabletopSimulator } = await import('./mujoco/index.js');
    return createTabletopSimulator({ ...(options.grasp ? { grasp: options.grasp } : {}), ...(options.motion ? { motion: options.motion } : {}), ...(options.perception ? { perception: options.perception } : {}), ...(options.robot ? { robot: options.robot } : {}) });
  }
  const { RemoteSimulator } = await import('./remote/index.js');
  return RemoteSimulator.connect(spec, { client: { name: options.client ?? 'waypoint' }, onLog: options.onLog, cwd: options.cwd });
}

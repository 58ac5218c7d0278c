// One way to name a simulator, shared by the CLI, the extension's child processes and sweeps:
//   "embedded" (default)       the simulator built into Waypoint for the architecture (the MuJoCo tabletop, or the
//                              symbolic household for architectures whose manifest says simulator: 'household')
//   "embedded:robot=iiwa,grasp=weld"  the embedded tabletop set up as `waypoint run`'s --robot/--grasp/--motion/
//                              --perception do: one string, so sweeps, compare, the debugger and the extension can say it
//   "stdio:<command line>"     a protocol server started as a child process (no shell)
//   "ws://host:port"           a protocol server over WebSocket
import type { LogNotification } from '../../protocol/simulator.js';
import type { Simulator } from './simulator.js';

export type SimulatorSpec = string;

/** The embedded tabletop's settings a spec may carry, with the values each takes. */
const EMBEDDED_SETTINGS = {
  grasp: ['friction', 'weld'],
  motion: ['planned', 'straight'],
  perception: ['ground-truth', 'estimated'],
  robot: ['panda', 'iiwa'],
} as const;
export type EmbeddedSettings = { -readonly [K in keyof typeof EMBEDDED_SETTINGS]?: (typeof EMBEDDED_SETTINGS)[K][number] };

export function isEmbeddedSpec(spec: string): boolean {
  return spec === 'embedded' || spec.startsWith('embedded:');
}

/** The settings of "embedded:k=v,...", or a sentence saying what is wrong with them. */
export function parseEmbeddedSpec(spec: string): EmbeddedSettings | string {
  const out: Record<string, string> = {};
  const rest = spec === 'embedded' ? '' : spec.slice('embedded:'.length);
  for (const pair of rest.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [k, v, extra] = pair.split('=').map((x) => x.trim());
    const allowed = (EMBEDDED_SETTINGS as Record<string, readonly string[]>)[k ?? ''];
    if (!allowed) return `unknown setting '${k}' in '${spec}': the embedded simulator takes ${Object.keys(EMBEDDED_SETTINGS).join(', ')} (e.g. embedded:robot=iiwa,grasp=weld)`;
    if (v === undefined || extra !== undefined || !allowed.includes(v)) return `'${pair}' in '${spec}': ${k} is one of ${allowed.join(', ')}`;
    if (k! in out) return `'${k}' is given twice in '${spec}'`;
    out[k!] = v;
  }
  if (spec !== 'embedded' && Object.keys(out).length === 0) return `'${spec}' names no setting: write embedded, or embedded:robot=iiwa,grasp=weld`;
  return out as EmbeddedSettings;
}

/** Why `spec` is not a simulator spec, or undefined when it is one. */
export function simulatorSpecProblem(spec: string): string | undefined {
  if (isEmbeddedSpec(spec)) {
    const parsed = parseEmbeddedSpec(spec);
    return typeof parsed === 'string' ? parsed : undefined;
  }
  if (spec.startsWith('stdio:')) return spec.slice('stdio:'.length).trim() === '' ? "'stdio:' needs a command line, e.g. stdio:python3 my_sim.py" : undefined;
  if (/^wss?:\/\/[^\s/]+/.test(spec)) return undefined;
  return `unknown simulator '${spec}': expected embedded (or embedded:robot=iiwa,...), stdio:<command line> or ws://host:port`;
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
  if (isEmbeddedSpec(spec)) {
    // The spec's settings, then the caller's own options (waypoint run's --robot and the like) over them.
    const fromSpec = parseEmbeddedSpec(spec) as EmbeddedSettings;
    const settings = { ...fromSpec };
    for (const k of Object.keys(EMBEDDED_SETTINGS) as (keyof EmbeddedSettings)[]) if (options[k] !== undefined) (settings as Record<string, string>)[k] = options[k]!;
    if (options.family === 'household') {
      // A spec that names tabletop settings is a mistake; the caller's options (a CLI default) are not the user's.
      if (Object.keys(fromSpec).length > 0) throw new Error(`the embedded household has no ${Object.keys(fromSpec).join(', ')} setting: '${spec}' sets up the tabletop`);
      const { createHouseholdSimulator } = await import('./household/index.js');
      return createHouseholdSimulator();
    }
    const { createTabletopSimulator } = await import('./mujoco/index.js');
    return createTabletopSimulator(settings);
  }
  const { RemoteSimulator } = await import('./remote/index.js');
  return RemoteSimulator.connect(spec, { client: { name: options.client ?? 'waypoint' }, onLog: options.onLog, cwd: options.cwd });
}

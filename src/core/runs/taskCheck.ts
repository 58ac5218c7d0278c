// Whether an architecture can run a task on a simulator, decided before anything starts: the task must be one of
// the simulator's, and, where the simulator says which robot APIs a task works with (the embedded tabletop does),
// one of them must be the architecture's (`--arch roco --task stack_blocks`: stack_blocks is a MALMM-API task, and
// RoCo speaks 'roco'). `waypoint run` and `waypoint sweep` ask the same question through `taskProblem`, so both
// refuse the same inputs with the same words, listing only the tasks that architecture can run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { closestName } from '../closest.js';
import { findPackageRoot } from '../node/packageRoot.js';
import type { Simulator, TaskInfo } from '../sim/simulator.js';

export interface TaskCatalog {
  /** The simulator's name, for messages. */
  simulator: string;
  /** Its version as it reports it (the embedded tabletop: the MuJoCo package's). */
  version?: string;
  tasks: readonly TaskInfo[];
  /** The robot APIs a task works with; undefined when the simulator does not say (reset then decides). */
  apisOf(taskId: string): readonly string[] | undefined;
}

/** The catalog of a connected simulator. */
export function catalogOf(sim: Simulator): TaskCatalog {
  return { simulator: sim.name, ...(sim.version !== undefined ? { version: sim.version } : {}), tasks: sim.tasks(), apisOf: (id) => sim.taskApis?.(id) };
}

/**
 * The catalog of the embedded simulator of a family, without starting it (the tabletop's MuJoCo module is not
 * loaded): the same task lists its `tasks()` returns.
 */
export async function embeddedCatalog(family: 'tabletop' | 'household'): Promise<TaskCatalog> {
  if (family === 'household') {
    const { householdTasks, HOUSEHOLD_SIMULATOR_VERSION } = await import('../sim/household/index.js');
    return { simulator: 'waypoint-household', version: HOUSEHOLD_SIMULATOR_VERSION, tasks: householdTasks(), apisOf: () => undefined };
  }
  const { taskCatalog } = await import('../sim/mujoco/index.js');
  const all = taskCatalog();
  const apis = new Map(all.map((t) => [t.id, t.apis]));
  return { simulator: 'waypoint-tabletop', version: mujocoPackageVersion(), tasks: all.map(({ defaultApi: _d, apis: _a, ...info }) => info), apisOf: (id) => apis.get(id) };
}

/** The installed mujoco-js package's version, read without loading its WebAssembly module. */
function mujocoPackageVersion(): string {
  try {
    const pkg = join(findPackageRoot(), 'node_modules', 'mujoco-js', 'package.json');
    return `mujoco-js ${(JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version ?? '?'}`;
  } catch {
    return 'mujoco-js (version unknown)';
  }
}

/** The tasks of the catalog this API can run (all of them where the simulator does not say). */
export function tasksFor(api: string, cat: TaskCatalog): TaskInfo[] {
  return cat.tasks.filter((t) => cat.apisOf(t.id)?.includes(api) ?? true);
}

function listed(tasks: readonly TaskInfo[]): string {
  // The household lists every task once more per floor plan (`task@plan`): name the tasks once, then the form.
  const base = tasks.filter((t) => !t.id.includes('@')).map((t) => t.id);
  const more = base.length < tasks.length ? ' (add @<plan> for another floor plan)' : '';
  return (base.join(', ') || '(none)') + more;
}

/** Why `arch` cannot run `taskId` on this simulator, or undefined when it can. */
export function taskProblem(arch: { id: string; api: string }, taskId: string, cat: TaskCatalog): string | undefined {
  const mine = tasksFor(arch.api, cat);
  const task = cat.tasks.find((t) => t.id === taskId);
  if (!task) {
    const near = closestName(taskId, mine.map((t) => t.id)) ?? closestName(taskId, cat.tasks.map((t) => t.id));
    return `unknown task '${taskId}'${near ? ` (did you mean '${near}'?)` : ''}; ${arch.id}'s tasks on ${cat.simulator}: ${listed(mine)}`;
  }
  const apis = cat.apisOf(taskId);
  if (apis && !apis.includes(arch.api)) {
    return `task '${taskId}' (${task.arms} arm${task.arms === 1 ? '' : 's'}) works with the robot API ${apis.join(', ')}, not ${arch.id}'s '${arch.api}'; ${arch.id}'s tasks on ${cat.simulator}: ${listed(mine)}`;
  }
  return undefined;
}

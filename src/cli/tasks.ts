// `waypoint tasks`: the simulator's tasks under a header row, name first; with --arch, only those whose robot API
// that architecture speaks (the household's tasks for LLaMAR).
import { architectures } from '../architectures/registry.js';
import { taskCatalog } from '../core/sim/mujoco/index.js';
import { EPISODE_OPTIONS } from './commonOptions.js';
import { defineCommand } from './options.js';
import { formatTable } from './table.js';

export async function tasksCommand(a: { arch?: string }, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const arch = a.arch ? architectures.find(a.arch) : undefined;
  if (arch?.simulator === 'household') {
    // The household's tasks (LLaMAR): "<task>" runs on its first floor plan, "<task>@<plan>" on another.
    const { householdTasks } = await import('../core/sim/household/index.js');
    const hh = householdTasks();
    out.write(formatTable(['task', 'suite', 'description'], hh.map((x) => [x.id, x.suite, x.description])) + '\n');
    return 0;
  }
  const tasks = taskCatalog().filter((t) => !arch || t.apis.includes(arch.api));
  const rows = tasks.map((t) => [t.id, t.suite, String(t.arms), t.apis.join(','), t.imitates, t.description]);
  out.write(formatTable(['task', 'suite', 'arms', 'apis', 'imitates', 'description'], rows, { right: [2] }) + '\n');
  return 0;
}

export const tasksCmd = defineCommand({
  name: 'tasks',
  summary: 'list the tasks of the embedded simulator',
  options: {
    arch: { type: 'string', metavar: 'id', choices: EPISODE_OPTIONS.arch.choices, help: 'only the tasks whose robot API this architecture speaks' },
  },
  exitStatus: '0, 2 bad input.',
  run: ({ values }) => tasksCommand(values),
});

// `waypoint tasks`: one task per line, name first, then suite, arms, description and the seed paper it imitates.
// With --arch, only the tasks whose robot API that architecture speaks.
import { ARCHITECTURES } from '../core/agents/registry.js';
import { taskCatalog } from '../core/sim/mujoco/index.js';

export async function tasksCommand(a: { arch?: string }, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const arch = a.arch ? ARCHITECTURES[a.arch] : undefined;
  if (a.arch && !arch) {
    process.stderr.write(`waypoint tasks: unknown architecture '${a.arch}'; known: ${Object.keys(ARCHITECTURES).sort().join(', ')}\n`);
    return 2;
  }
  const tasks = taskCatalog().filter((t) => !arch || t.apis.includes(arch.api));
  const w = Math.max(...tasks.map((t) => t.id.length));
  for (const t of tasks) out.write(`${t.id.padEnd(w)}  ${t.suite}  arms=${t.arms}  ${t.description}  (imitates ${t.imitates}; APIs: ${t.apis.join(', ')})\n`);
  return 0;
}

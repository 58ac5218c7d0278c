// `waypoint tasks`: one task per line, name first, then suite, arms, description and the seed paper it imitates.
import { ARCHITECTURES } from '../core/agents/registry.js';
import { createTabletopSimulator } from '../core/sim/mujoco/index.js';

export async function tasksCommand(a: { arch?: string }, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  if (a.arch && !ARCHITECTURES[a.arch]) {
    process.stderr.write(`waypoint tasks: unknown architecture '${a.arch}'; known: ${Object.keys(ARCHITECTURES).sort().join(', ')}\n`);
    return 2;
  }
  const sim = await createTabletopSimulator();
  try {
    // Today every tabletop task exposes the MALMM API on one arm; multi-arm and other APIs arrive with the simulator issue.
    const tasks = sim.tasks().filter((t) => !a.arch || t.arms === 1);
    const w = Math.max(...tasks.map((t) => t.id.length));
    for (const t of tasks) out.write(`${t.id.padEnd(w)}  ${t.suite}  arms=${t.arms}  ${t.description}  (imitates ${t.imitates})\n`);
  } finally {
    await sim.close();
  }
  return 0;
}

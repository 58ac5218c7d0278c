// `waypoint scene <task> [--seed N] [--mjcf out.xml]`: the task's MuJoCo scene as a standalone MJCF file (the exact
// XML the embedded simulator compiles, keyframe 0 = its state after reset with that seed), for MuJoCo's own
// viewer or the user's code. Without --mjcf the XML goes to stdout.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { TASKS, TASK_IDS } from '../core/sim/mujoco/tasks/registry.js';
import { TabletopSimulator } from '../core/sim/mujoco/tabletopSim.js';
import { loadMujocoModule } from '../core/sim/mujoco/wasm.js';
import { defineCommand } from './options.js';
import { outputPathProblem } from './outputPath.js';

export const SCENE_OPTIONS = { seed: { type: 'string' }, mjcf: { type: 'string' } } as const;

export async function sceneCommand(task: string | undefined, a: { seed?: string; mjcf?: string }, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const fail = (message: string) => {
    process.stderr.write(`waypoint scene: ${message}\n`);
    return 2;
  };
  if (!task) return fail('give a task id, e.g. `waypoint scene stack_blocks --seed 0 --mjcf scene.xml` (list: `waypoint tasks`)');
  if (!TASKS.has(task)) return fail(`unknown task '${task}'; known tasks: ${TASK_IDS.join(', ')}`);
  const seed = a.seed === undefined ? 0 : Number(a.seed);
  if (!Number.isInteger(seed) || seed < 0) return fail(`--seed must be a non-negative integer, got '${a.seed}'`);
  if (a.mjcf !== undefined) {
    const problem = outputPathProblem(a.mjcf);
    if (problem) return fail(problem);
  }
  const sim = new TabletopSimulator(await loadMujocoModule());
  let xml: string;
  try {
    await sim.reset(task, seed);
    xml = sim.sceneMjcf();
  } finally {
    await sim.close();
  }
  if (a.mjcf === undefined) {
    out.write(xml);
    return 0;
  }
  await writeFile(resolve(a.mjcf), xml, 'utf8');
  process.stdout.write(`scene: ${resolve(a.mjcf)} (task ${task}, seed ${seed}; keyframe 0 is the state after reset)\n`);
  return 0;
}

export const sceneCmd = defineCommand({
  name: 'scene',
  summary: "a task's MuJoCo scene as MJCF (keyframe 0 = the state after reset), for MuJoCo's own viewer",
  positionals: [{ name: 'task', help: 'a task id (`waypoint tasks` lists them)' }],
  options: {
    seed: { type: 'int', min: 0, default: 0, help: 'task seed (the object layout)' },
    mjcf: { type: 'string', metavar: 'out.xml', help: 'write the XML to this file', defaultText: 'stdout' },
  },
  exitStatus: '0, 2 bad input.',
  run: ({ values, positionals }) => sceneCommand(positionals[0], { mjcf: values.mjcf, seed: String(values.seed) }),
});

// Physical grasps (the default): the block is held by the pads' friction, so a poor grasp lets it go. The drop
// test of issue 8 runs through the engine (Pyodide, MuJoCo, trace) with a scripted single agent: grasp the red
// block by its top rim (the end effector 1 cm above the block, pads overlapping 4 mm), lift it fast and carry it
// across the table. With friction grasps the block slips out during the lift and ends on the table, and the trace
// shows it (the grasp line in the code output, the trajectory's grasped field, the final state); with
// `grasp: weld` the same code carries it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { architectures } from '../../../../../src/architectures/registry.js';
import { EpisodeController } from '../../../../../src/core/engine/controller.js';
import { DEFAULT_EPISODE_OPTIONS, runEpisode } from '../../../../../src/core/engine/episode.js';
import { ReplayClient } from '../../../../../src/core/llm/replay.js';
import { nodeIO } from '../../../../../src/core/node/nodeHost.js';
import { resolveVariant } from '../../../../../src/core/prompt/variants.js';
import { createPyodideSandbox } from '../../../../../src/core/sandbox/index.js';
import type { CodeSandbox } from '../../../../../src/core/sandbox/sandbox.js';
import { createTabletopSimulator } from '../../../../../src/core/sim/mujoco/index.js';
import { MemoryTraceSink } from '../../../../../src/core/trace/writer.js';
import type { TraceEvent } from '../../../../../src/protocol/trace.js';
import { cubeYaw } from './scriptedStacker.js';

const arch = architectures.get('malmm');
let sandbox: CodeSandbox;
before(async () => {
  sandbox = createPyodideSandbox();
  await sandbox.warmUp();
});
after(async () => {
  await sandbox.close();
});

const TABLE_TOP = 0.752;
const of = <T extends TraceEvent['type']>(events: TraceEvent[], type: T) => events.filter((e): e is Extract<TraceEvent, { type: T }> => e.type === type);

async function poorGraspEpisode(grasp: 'friction' | 'weld') {
  const sim = await createTabletopSimulator({ grasp });
  try {
    await sim.reset('stack_blocks', 0);
    const red = (await sim.observe()).state.objects.find((o) => o.name === 'red block 1')!;
    const yaw = cubeYaw(red.euler[2]).toFixed(4);
    const [x, y] = red.pos.map((v) => v.toFixed(4));
    const rim = (red.pos[2] + red.size[2] / 2 + 0.01).toFixed(4);
    const code = [
      `execute_trajectory([${x}, ${y}, ${rim} + 0.1], ${yaw})`,
      `execute_trajectory([${x}, ${y}, ${rim}], ${yaw})`,
      `close_gripper("red block 1")`,
      `execute_trajectory([${x}, ${y}, 1.0], ${yaw})`,
      `execute_trajectory([0.3, -0.2, 1.0], ${yaw})`,
    ].join('\n');
    const model = new ReplayClient({ 'malmm/agent': ['```python\n' + code + '\n```'] });
    const sink = new MemoryTraceSink();
    const result = await runEpisode(
      {
        runId: `drop-${grasp}`,
        arch,
        task: 'stack_blocks',
        seed: 0,
        variant: resolveVariant('sa_nofeedback', { active: 'default', variants: {} }, arch.builtInVariants),
        promptPaths: Object.fromEntries(arch.roles.map((r) => [r.id, join(process.cwd(), 'src', 'architectures', 'malmm', 'prompts', r.promptFile)])),
        options: { ...DEFAULT_EPISODE_OPTIONS, limits: {} },
        model: { provider: 'replay', model: 'replay', label: 'replay' },
      },
      { io: nodeIO, clock: { nowMs: () => performance.now(), isoNow: () => '2026-11-25T00:00:00.000Z' }, sim, sandbox, model, sink, controller: new EpisodeController() },
    );
    return { result, events: sink.events };
  } finally {
    await sim.close();
  }
}

test('friction grasp: a rim grasp and a fast lift drop the block on the table, and the trace shows the drop', async () => {
  const { events } = await poorGraspEpisode('friction');
  const exec = of(events, 'code_execution')[0]!;
  assert.equal(exec.ok, true);
  assert.match(exec.stdout, /^grasp: red block 1 slipped out of the gripper at t=\d+\.\d\d s$/m);
  // The trajectory held the block at first, then not.
  const held = of(events, 'trajectory').flatMap((t) => t.samples.map((s) => s.grasped));
  const first = held.indexOf('red block 1');
  assert.ok(first >= 0, 'the close registered a grasp');
  assert.ok(held.slice(first).includes(null), 'and the grasp ended without open_gripper');
  const end = of(events, 'observation').at(-1)!.state;
  assert.equal(end.grasped, null);
  const red = end.objects.find((o) => o.name === 'red block 1')!;
  assert.ok(red.pos[2] < TABLE_TOP + 0.03, `the block is back on the table (z ${red.pos[2].toFixed(3)})`);
  assert.ok(end.ee.pos[2] > 0.95, 'while the hand went up');
});

test('weld grasp: the same rim grasp and lift carry the block', async () => {
  const { events } = await poorGraspEpisode('weld');
  const exec = of(events, 'code_execution')[0]!;
  assert.doesNotMatch(exec.stdout, /slipped/);
  const end = of(events, 'observation').at(-1)!.state;
  assert.equal(end.grasped, 'red block 1');
  const red = end.objects.find((o) => o.name === 'red block 1')!;
  assert.ok(red.pos[2] > 0.9, `carried at z ${red.pos[2].toFixed(3)}`);
});

test('an unknown grasp mode is refused, naming the choices', async () => {
  await assert.rejects(() => createTabletopSimulator({ grasp: 'glue' as never }), /unknown grasp mode 'glue'; choices: friction, weld/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRng } from '../../../../../src/core/host.js';
import { EpisodeRuntime } from '../../../../../src/core/sim/mujoco/episodeRuntime.js';
import { TASK_IDS, TASKS, getTask, taskInfos } from '../../../../../src/core/sim/mujoco/tasks/registry.js';
import { ROBOT_APIS } from '../../../../../src/core/sim/mujoco/apis/registry.js';
import { loadMujocoModule } from '../../../../../src/core/sim/mujoco/wasm.js';

test('the task registry lists the canonical ids, each with complete metadata', () => {
  assert.deepEqual([...TASK_IDS], ['stack_blocks', 'stack_blocks_2', 'stack_blocks_4']);
  assert.deepEqual([...TASKS.keys()], [...TASK_IDS]);
  for (const info of taskInfos()) {
    for (const k of ['id', 'description', 'instruction', 'suite', 'imitates'] as const) assert.ok(info[k].length > 0, `${info.id}.${k}`);
    assert.equal(info.arms, 1);
    assert.ok(ROBOT_APIS.has(getTask(info.id).defaultApi));
  }
  assert.equal(getTask('stack_blocks_2').info.instruction, 'Stack the red block on top of the green block.');
  assert.equal(getTask('stack_blocks_4').info.instruction, 'Stack the red block, the blue block and the yellow block on top of the green block.');
  assert.throws(() => getTask('nope'), /unknown task 'nope'; known tasks: stack_blocks, stack_blocks_2, stack_blocks_4/);
});

test('every task scene compiles and its seeded layouts keep blocks apart, inside the workspace', async () => {
  const mj = await loadMujocoModule();
  for (const id of TASK_IDS) {
    const task = getTask(id);
    const runtime = EpisodeRuntime.create(mj, task.scene);
    try {
      assert.equal(runtime.scene.objects.length, task.scene.objects.length);
      const colours = new Set(task.scene.objects.map((o) => o.color));
      assert.equal(colours.size, task.scene.objects.length, 'distinct colours');
      for (let seed = 0; seed < 50; seed++) {
        const layout = task.layout(seededRng(seed));
        assert.deepEqual(task.layout(seededRng(seed)), layout, 'the seed alone decides');
        layout.forEach((p, i) => {
          const { xRange, yRange, tableTopZ } = task.workspace;
          assert.ok(p.pos[0] >= xRange[0] && p.pos[0] <= xRange[1] && p.pos[1] >= yRange[0] && p.pos[1] <= yRange[1], `${id} seed ${seed}`);
          assert.equal(p.pos[2], tableTopZ + task.scene.objects[i]!.size[2] / 2);
          assert.ok(Math.abs(p.yawRad) <= Math.PI / 4);
          for (let j = 0; j < i; j++) assert.ok(Math.hypot(p.pos[0] - layout[j]!.pos[0], p.pos[1] - layout[j]!.pos[1]) >= 0.1);
        });
      }
    } finally {
      runtime.dispose();
    }
  }
});

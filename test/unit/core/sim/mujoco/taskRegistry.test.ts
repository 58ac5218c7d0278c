import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRng } from '../../../../../src/core/host.js';
import { EpisodeRuntime } from '../../../../../src/core/sim/mujoco/episodeRuntime.js';
import { TASK_IDS, TASKS, getTask, taskInfos } from '../../../../../src/core/sim/mujoco/tasks/registry.js';
import { ROBOT_APIS } from '../../../../../src/core/sim/mujoco/apis/registry.js';
import { loadMujocoModule } from '../../../../../src/core/sim/mujoco/wasm.js';

/** The canonical task ids, in listing order (a new task is a definition file, a registry line and an entry here). */
export const CANONICAL_TASK_IDS = [
  'stack_blocks',
  'stack_blocks_2',
  'stack_blocks_4',
  'put_block',
  'empty_container',
  'rubbish_in_bin',
  'open_drawer',
  'push_button',
  'pick_and_lift',
  'sort_by_color',
  'stack_cups',
  'meat_off_grill',
  'close_jar',
  'insert_in_peg',
  'basketball_in_hoop',
  'open_bottle',
  'draw_shape',
  'wipe_plate',
  'shake_bottle',
  'push_can',
  'knock_over_can',
  'pick_chip_bag',
  'apple_in_bowl',
  'open_bottle_cap',
  'move_pan_left',
  'draw_star',
  'knock_over_left_bottle',
  'move_lonely_object',
  'pick_middle_fruit',
  'align_bottle',
  'grasp_bowl_rim',
  'toaster_slot',
  'draw_circle',
  'pick_rightmost_can',
  'drop_ball_into_cup',
  'move_banana_near_pear',
  'clear_table_bin',
  'clear_table_sink',
  'clear_table_shelf',
  'ac_single_whole_apple',
  'ac_single_half_eaten_apple',
  'ac_single_empty_glass',
  'ac_single_full_glass',
  'ac_single_paper_ball_1',
  'ac_single_paper_ball_2',
  'ac_sequential',
  'ac_robust_random',
  'ac_robust_lamp',
  'sort_cubes',
  'pack_grocery',
  'make_sandwich',
  'move_rope',
  'sweep_floor',
  'arrange_cabinet',
  'handover',
];

test('the task registry lists the canonical ids, each with complete metadata', () => {
  assert.deepEqual([...TASK_IDS], CANONICAL_TASK_IDS);
  assert.deepEqual([...TASKS.keys()], [...TASK_IDS]);
  for (const info of taskInfos()) {
    for (const k of ['id', 'description', 'instruction', 'suite', 'imitates'] as const) assert.ok(info[k].length > 0, `${info.id}.${k}`);
    const task = getTask(info.id);
    assert.equal(info.arms, task.scene.arms.length);
    assert.ok(ROBOT_APIS.has(task.defaultApi));
    for (const api of task.apis ?? []) assert.ok(ROBOT_APIS.has(api), `${info.id}: api ${api}`);
  }
  assert.throws(() => getTask('nope'), /unknown task 'nope'; known tasks: stack_blocks, stack_blocks_2, stack_blocks_4, put_block/);
});

test('every task scene compiles, and its layout and goal depend on the seed alone', async () => {
  const mj = await loadMujocoModule();
  for (const id of TASK_IDS) {
    const task = getTask(id);
    const runtime = EpisodeRuntime.create(mj, task.scene);
    try {
      assert.equal(runtime.scene.objects.length, task.scene.objects.length);
      assert.equal(new Set(task.scene.objects.map((o) => o.name)).size, task.scene.objects.length, `${id}: unique names`);
      for (let seed = 0; seed < 10; seed++) {
        const layout = task.layout(seededRng(seed));
        assert.equal(layout.length, task.scene.objects.length);
        assert.deepEqual(task.layout(seededRng(seed)), layout, `${id}: the seed alone decides`);
        if (task.goal) assert.deepEqual(task.goal(seededRng(seed)), task.goal(seededRng(seed)));
      }
      runtime.reset(task.layout(seededRng(0)));
    } finally {
      runtime.dispose();
    }
  }
});

test('stack_blocks layouts keep blocks apart, inside the workspace', async () => {
  const mj = await loadMujocoModule();
  for (const id of ['stack_blocks', 'stack_blocks_2', 'stack_blocks_4']) {
    const task = getTask(id);
    const runtime = EpisodeRuntime.create(mj, task.scene);
    try {
      assert.equal(runtime.scene.objects.length, task.scene.objects.length);
      const n = id === 'stack_blocks' ? 3 : Number(id.slice(-1));
      const colours = task.scene.objects.map((o) => o.color);
      assert.deepEqual([colours.filter((c) => c === 'red').length, colours.filter((c) => c === 'blue').length, colours.filter((c) => c === 'green').length], [n, 2, 1], 'N red blocks, two blue distractors, the green area');
      for (let seed = 0; seed < 50; seed++) {
        const layout = task.layout(seededRng(seed));
        assert.deepEqual(task.layout(seededRng(seed)), layout, 'the seed alone decides');
        layout.forEach((p, i) => {
          const { xRange, yRange, tableTopZ } = task.workspace;
          assert.ok(p.pos[0] >= xRange[0] && p.pos[0] <= xRange[1] && p.pos[1] >= yRange[0] && p.pos[1] <= yRange[1], `${id} seed ${seed}`);
          assert.equal(p.pos[2], tableTopZ + task.scene.objects[i]!.size[2] / 2);
          assert.ok(Math.abs(p.yawRad) <= Math.PI / 4);
          // Blocks 12 cm apart, and none starts on the area (the area is last in scene order).
          for (let j = 0; j < i; j++) assert.ok(Math.hypot(p.pos[0] - layout[j]!.pos[0], p.pos[1] - layout[j]!.pos[1]) >= (i === layout.length - 1 ? 0.17 : 0.12) - 1e-9, `${id} seed ${seed}`);
        });
      }
    } finally {
      runtime.dispose();
    }
  }
});

test("close_jar and insert_in_peg say what MALMM's Table IV says, no hint how (issue 25)", () => {
  const wordings: Record<string, RegExp> = {
    close_jar: /^Close the (red|blue|green|yellow) jar with a lid\.$/,
    insert_in_peg: /^Insert the square ring into the (red|green|blue) peg\.$/,
  };
  for (const [id, wording] of Object.entries(wordings)) {
    const task = getTask(id);
    assert.match(task.info.instruction, wording, id);
    const colours = new Set<string>();
    for (let seed = 0; seed < 12; seed++) {
      const goal = task.goal!(seededRng(seed));
      const m = wording.exec(goal.instruction);
      assert.ok(m, `${id} seed ${seed}: ${goal.instruction}`);
      colours.add(m[1]!);
      assert.equal(Object.values(goal.params)[0], `${m[1]} ${id === 'close_jar' ? 'jar' : 'peg'}`, 'the instruction names the goal the check uses');
    }
    assert.ok(colours.size > 1, `${id}: the seed picks the colour`);
  }
});

/** MALMM's nine RLBench tasks (Table IV) as the simulator poses them. */
const MALMM_PAPER_TASKS = ['basketball_in_hoop', 'close_jar', 'empty_container', 'insert_in_peg', 'meat_off_grill', 'open_bottle', 'put_block', 'rubbish_in_bin', 'stack_blocks', 'stack_blocks_2', 'stack_blocks_4'];
/** Hints Table IV's descriptions do not give: how to do it, what is inside, an elaboration after a colon. */
const HINTS: [RegExp, string][] = [
  [/:/, 'an elaboration after a colon'],
  [/\bput the lid\b|\bput the square ring\b|\bon top of the green block\b/, 'a restatement that says how'],
  [/\bevery cube\b|\bthat is in it\b|\bcubes?\b/, 'what the container holds'],
  [/\b(?:grasp|gripper|lower|lift|twist|rotate|slide|rim|above|first|then|carefully|align)\b/i, 'a motion'],
  [/\b(?:red|blue|yellow|purple) (?:block|cube) and\b/i, 'which blocks, one by one'],
];

test("MALMM's tasks: every rendered instruction is free of hints Table IV does not give (issue 25)", () => {
  for (const id of MALMM_PAPER_TASKS) {
    const task = getTask(id);
    const instructions = new Set([task.info.instruction]);
    for (let seed = 0; seed < 8 && task.goal; seed++) instructions.add(task.goal(seededRng(seed)).instruction);
    for (const text of instructions) for (const [re, what] of HINTS) assert.doesNotMatch(text, re, `${id}: "${text}" has ${what}`);
  }
  assert.equal(getTask('empty_container').info.instruction, 'Empty all items from the large container into the blue container.');
  for (const [id, n] of [['stack_blocks_2', 'two'], ['stack_blocks', 'three'], ['stack_blocks_4', 'four']]) assert.equal(getTask(id!).info.instruction, `Stack ${n} red blocks at the green target area.`);
});

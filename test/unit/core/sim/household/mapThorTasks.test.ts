// MAP-THOR's task list as the paper's Appendix C gives it: 44 tasks in four categories (12 + 9 + 13 + 10) with the
// paper's wording, each posed on five single-room floor plans of the room kind it needs, each building a scene with
// its objects and distractors and a non-empty checker on every plan and seed tried; the ids of the earlier 17-task
// list still name the task each became.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FLOOR_PLANS, PLANS_BY_KIND, planById } from '../../../../../src/core/sim/household/floorPlans.js';
import { HouseholdSimulator, householdTasks, parseTaskId } from '../../../../../src/core/sim/household/householdSim.js';
import { buildScene } from '../../../../../src/core/sim/household/scene.js';
import { TASKS, subtaskText } from '../../../../../src/core/sim/household/tasks.js';

/** Appendix C of the LLaMAR paper, in its order and wording. */
const PAPER: Record<1 | 2 | 3 | 4, string[]> = {
  1: [
    'put bread, lettuce, and a tomato in the fridge',
    'Put the pots and pans on the stove burners',
    'Slice the bread and tomato and crack the egg',
    'Put the butter knife, bowl, and mug in the sink',
    'Turn off the faucet and light if either is on',
    'Put the tissue box, keys, and plate in the box',
    'Put the computer, book, and pen on the couch',
    'Put the bowl and tissue box on the table',
    'Put apple in fridge and switch off the light',
    'Put the watch and Keychain inside the drawer',
    'Wash the bowl, mug, pot, and pan',
    'Put the Box on the sofa and the bowl in the box',
  ],
  2: [
    'Open all the drawers',
    'Open all the cabinets',
    'Turn on all the stove knobs',
    'Put all the vases on the table',
    'Put all the potatoes in the bowl',
    'Put all pencils and pens in the box',
    'Move all lamps next to the door',
    'Turn off all light switches',
    'Turn on all light switches',
  ],
  3: [
    'Put all groceries in the fridge',
    'Put all shakers in the closest drawer',
    'Put all tableware on the countertop',
    'Put all food on the countertop',
    'Put all school supplies on the couch',
    'Put all kitchenware in the cardboard box',
    'Put all silverware in the sink',
    'Move everything on the table to the desk',
    'Slice the lettuce, trash the mug and switch off the light',
    'Put all electronics on the couch',
    'Make a dish by microwaving eggs and tomato',
    'Put all readable objects on the sofa',
    'Wash all fruits',
  ],
  4: [
    'Clear the floor by placing items at their appropriate positions',
    'Clear the table by placing the items in their appropriate positions',
    'Clear the countertop by placing items in their appropriate positions',
    'Clear the desk by placing the items in other appropriate positions',
    'Clear the table by placing the items in other appropriate positions',
    'Clear the couch by placing the items in other appropriate positions',
    'Make the living room dark',
    'Make a mug of coffee and toast the bread',
    'Trash all groceries',
    'Slice all sliceable objects',
  ],
};

test('the 44 tasks of Appendix C, 12 + 9 + 13 + 10, in the paper\'s order and wording, with ids after the released code\'s folders', () => {
  assert.equal(TASKS.length, 44);
  for (const c of [1, 2, 3, 4] as const) {
    const mine = TASKS.filter((t) => t.category === c);
    assert.deepEqual(mine.map((t) => t.instruction), PAPER[c], `category ${c}`);
    assert.deepEqual(mine.map((t) => t.paper), PAPER[c].map((_, i) => `${c}.${i + 1}`));
    for (const t of mine) assert.match(t.id, new RegExp(`^${c}_[a-z_]+$`));
  }
  assert.equal(new Set(TASKS.map((t) => t.id)).size, 44);
});

test('each task is posed on five single-room plans of its room kind; each kind has its five', () => {
  for (const kind of ['kitchen', 'living', 'bedroom'] as const) {
    const plans = PLANS_BY_KIND[kind];
    assert.equal(plans.length, 5);
    for (const id of plans) {
      const p = planById(id);
      assert.equal(p.rooms.length, 1, `${id} is a single room`);
      assert.equal(p.rooms[0]!.kind, kind);
    }
  }
  for (const t of TASKS) assert.deepEqual([...t.plans], [...PLANS_BY_KIND[t.room]], t.id);
  // Tasks cover kitchens, living rooms and bedrooms; the bathroom stays for the extra plans.
  assert.deepEqual([...new Set(TASKS.map((t) => t.room))].sort(), ['bedroom', 'kitchen', 'living']);
  assert.ok(FLOOR_PLANS.some((p) => p.rooms.some((r) => r.kind === 'bathroom')));
});

test('every task builds on each of its plans and seeds with its objects, its distractors and a non-empty checker', () => {
  for (const t of TASKS)
    for (const p of t.plans)
      for (const seed of [0, 1, 2]) {
        const s = buildScene(planById(p), t, seed, 2);
        const where = `${t.id}@${p}#${seed}`;
        assert.ok(s.data.checker.state.length > 0, `${where}: empty checker`);
        const types = new Set(s.data.objects.map((o) => o.type));
        for (const need of t.objects ?? []) if ((need.count?.[0] ?? 1) > 0) assert.ok(types.has(need.type), `${where}: no ${need.type}`);
        for (const d of t.distractors ?? []) assert.ok(types.has(d.type), `${where}: no distractor ${d.type}`);
        // The checker's subtasks are distinct (several instances of a type are numbered).
        const texts = s.data.checker.state.map((x) => x.text);
        assert.equal(new Set(texts).size, texts.length, `${where}: ${texts.join(', ')}`);
      }
});

test('same-type distractors: "a tomato" in the fridge task is any one of the two tomatoes; "all" counts every one', () => {
  const plan = planById('kitchen');
  const one = buildScene(plan, TASKS.find((t) => t.paper === '1.1')!, 0, 2).data;
  assert.ok(one.objects.filter((o) => o.type === 'Tomato').length >= 2);
  assert.deepEqual(one.checker.state.filter((s) => /Tomato/.test(s.text)).map((s) => s.text), ['NavigateTo(Tomato)', 'PickupObject(Tomato)', 'NavigateTo(Fridge, Tomato)', 'PutObject(Fridge, Tomato)']);
  const all = buildScene(plan, TASKS.find((t) => t.paper === '2.5')!, 1, 2).data;
  const potatoes = all.objects.filter((o) => o.type === 'Potato').length;
  assert.ok(potatoes >= 2);
  // Each potato is its own subtask, named by a reference the checker renders with the team's label (`subtaskText`).
  const byType = (s: { text: string }) => subtaskText(s.text, (id) => id.split('|')[0]!);
  assert.equal(all.checker.state.filter((s) => /^PutObject\(Bowl, Potato\)$/.test(byType(s))).length, potatoes);
});

test('the earlier ids name the MAP-THOR task they became, on the plans they ran on', async () => {
  const mapped: Record<string, string> = {
    put_bread_lettuce_tomato_fridge: '1.1',
    slice_bread_tomato_crack_egg: '1.3',
    turn_off_faucet_and_light: '1.5',
    put_laptop_book_pen_sofa: '1.7',
    wash_bowl_mug_pot_pan: '1.11',
    open_all_drawers: '2.1',
    turn_on_all_stove_knobs: '2.3',
    put_all_potatoes_in_bowl: '2.5',
    turn_off_all_light_switches: '2.8',
    put_all_groceries_fridge: '3.1',
    put_all_tableware_countertop: '3.3',
    put_all_school_supplies_sofa: '3.5',
    put_all_silverware_sink: '3.7',
    clear_the_floor: '4.1',
    clear_dining_table: '4.2',
    make_living_room_dark: '4.7',
    make_coffee_and_toast: '4.8',
  };
  for (const [old, paper] of Object.entries(mapped)) assert.equal(parseTaskId(old)?.task.paper, paper, old);
  assert.equal(parseTaskId('open_all_drawers@apartment')?.planId, 'apartment');
  assert.equal(parseTaskId('turn_off_all_light_switches')?.planId, 'kitchen', 'the earlier default plan');
  const listed = new Set(householdTasks().map((t) => t.id));
  assert.ok(listed.has('open_all_drawers@apartment') && listed.has('2_open_all_drawers@kitchen_u'));
  const sim = new HouseholdSimulator();
  const r = await sim.reset('make_coffee_and_toast@kitchen', 0, { agents: 2 });
  assert.equal(r.task.instruction, 'Make a mug of coffee and toast the bread');
  await assert.rejects(sim.reset('open_all_drawers@living_dining', 0), /does not run on floor plan 'living_dining'; its plans: kitchen, bedroom, living_room, apartment/);
});

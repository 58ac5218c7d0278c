// Object states as AI2-THOR has them: slicing an Apple replaces it by AppleSliced pieces (new objects the team
// labels AppleSliced_1, ... when it sees them) and the whole apple is gone; cracking an Egg leaves an EggCracked; a
// receptacle holds a bounded amount (size units: a burner takes one pot); the toaster takes bread slices, not a
// loaf; things can be put down on the floor; dirty things get clean.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runJointStep } from '../../../../../src/core/sim/household/actions.js';
import { planById } from '../../../../../src/core/sim/household/floorPlans.js';
import { buildScene } from '../../../../../src/core/sim/household/scene.js';
import { taskById } from '../../../../../src/core/sim/household/tasks.js';
import { World, type ObjData } from '../../../../../src/core/sim/household/world.js';

function world(planId: string, taskId: string, agents = 1): World {
  const plan = planById(planId);
  return new World(plan, buildScene(plan, taskById(taskId)!, 0, agents).data);
}

/** Walks Alice to the object (NavigateTo must succeed) and returns its label. */
function goTo(w: World, o: ObjData): string {
  const a = w.agent('Alice')!;
  for (let h = 0; h < 4 && !w.labelOf(o.id); h++) {
    a.heading = h;
    w.updateViews();
  }
  for (let i = 0; i < 8 && !w.labelOf(o.id); i++) runJointStep(w, [{ agent: 'Alice', name: 'Explore', args: [] }]);
  const label = w.labelOf(o.id)!;
  assert.ok(label, `${o.type} seen`);
  const [nav] = runJointStep(w, [{ agent: 'Alice', name: 'NavigateTo', args: [label] }]);
  assert.equal(nav!.ok, true, nav!.detail);
  return label;
}

test('slicing an apple creates AppleSliced objects where it lay; the whole apple is gone and cannot be picked up or walked to', () => {
  const w = world('kitchen', '1_put_apple_fridge_switch_off_light');
  const apple = w.data.objects.find((o) => o.type === 'Apple')!;
  const label = goTo(w, apple);
  assert.equal(label, 'Apple_1');
  const before = w.data.objects.length;
  const [r] = runJointStep(w, [{ agent: 'Alice', name: 'Slice', args: [label] }]);
  assert.equal(r!.ok, true, r!.detail);
  assert.equal(r!.text, 'I sliced Apple_1 in the previous step and was successful.');
  const pieces = w.data.objects.filter((o) => o.slicedFrom === apple.id);
  assert.deepEqual(pieces.map((o) => o.type), ['AppleSliced', 'AppleSliced', 'AppleSliced']);
  assert.deepEqual(pieces.map((o) => o.id), [0, 1, 2].map((k) => `${apple.id}|AppleSliced_${k}`));
  assert.equal(w.data.objects.length, before + 3);
  for (const p of pieces) assert.deepEqual([p.parent, p.cells], [apple.parent, apple.cells]);
  // The team sees the pieces and labels them per type, in discovery order.
  assert.deepEqual(pieces.map((p) => w.labelOf(p.id)), ['AppleSliced_1', 'AppleSliced_2', 'AppleSliced_3']);
  assert.equal(apple.gone, true);
  const alice = w.agent('Alice')!;
  assert.ok(!w.visibleTo(alice).includes(apple), 'the whole apple is no longer in view');
  assert.ok(w.visibleTo(alice).includes(pieces[0]!));
  const [pick] = runJointStep(w, [{ agent: 'Alice', name: 'Pickup', args: ['Apple_1'] }]);
  assert.equal(pick!.ok, false);
  assert.match(pick!.detail, /Apple_1 no longer exists: it was sliced into AppleSliced_1, AppleSliced_2, AppleSliced_3/);
  const [nav] = runJointStep(w, [{ agent: 'Alice', name: 'NavigateTo', args: ['Apple_1'] }]);
  assert.equal(nav!.text, "I tried to navigate to Apple_1 in the previous step but Apple_1 doesn't exist, unsuccessful.");
  const [piece] = runJointStep(w, [{ agent: 'Alice', name: 'Pickup', args: ['AppleSliced_1'] }]);
  assert.equal(piece!.ok, true, piece!.detail);
  // The checker credits SliceObject on the apple itself.
  const whole = w.present().map((o) => o.id);
  assert.ok(!whole.includes(apple.id) && whole.includes(pieces[1]!.id));
});

test('cracking an egg leaves one EggCracked', () => {
  const w = world('kitchen', '1_slice_bread_tomato_crack_egg');
  const egg = w.data.objects.find((o) => o.type === 'Egg' && o.parent !== '' && w.obj(o.parent)?.type !== 'Fridge')!;
  const label = goTo(w, egg);
  const [r] = runJointStep(w, [{ agent: 'Alice', name: 'Slice', args: [label] }]);
  assert.equal(r!.ok, true, r!.detail);
  assert.match(r!.detail, /is now cracked: 1 piece of EggCracked/);
  const pieces = w.data.objects.filter((o) => o.slicedFrom === egg.id);
  assert.deepEqual(pieces.map((p) => [p.type, w.labelOf(p.id)]), [['EggCracked', 'EggCracked_1']]);
  assert.equal(egg.gone, true);
});

test('receptacle capacity: a burner with a kettle on it takes no pot; another burner does', () => {
  const w = world('kitchen', '1_put_pots_pans_stove_burners');
  const kettle = w.data.objects.find((o) => o.type === 'Kettle')!;
  const taken = w.obj(kettle.parent)!;
  assert.equal(taken.type, 'StoveBurner');
  const pot = w.data.objects.find((o) => o.type === 'Pot')!;
  const potLabel = goTo(w, pot);
  assert.equal(runJointStep(w, [{ agent: 'Alice', name: 'Pickup', args: [potLabel] }])[0]!.ok, true);
  const burner = goTo(w, taken);
  const [full] = runJointStep(w, [{ agent: 'Alice', name: 'Put', args: [burner] }]);
  assert.equal(full!.ok, false);
  assert.equal(full!.text, `I tried to put the ${potLabel} in my hand on ${burner} in the previous step but was unsuccessful.`);
  assert.match(full!.detail, new RegExp(`${burner} is full: it holds ${w.labelOf(kettle.id)} \\(3 of 3 size units; ${potLabel} needs 3\\)`));
  assert.equal(w.agent('Alice')!.holding, pot.id);
  const free = w.data.objects.find((o) => o.type === 'StoveBurner' && !w.data.objects.some((x) => x.parent === o.id))!;
  const other = goTo(w, free);
  const [ok] = runJointStep(w, [{ agent: 'Alice', name: 'Put', args: [other] }]);
  assert.equal(ok!.ok, true, ok!.detail);
  assert.equal(pot.parent, free.id);
});

test('the toaster takes a bread slice, not the loaf; turning it on toasts the slice', () => {
  const w = world('kitchen', '4_make_coffee_toast_bread');
  const bread = w.data.objects.find((o) => o.type === 'Bread')!;
  const toaster = w.data.objects.find((o) => o.type === 'Toaster')!;
  const b = goTo(w, bread);
  runJointStep(w, [{ agent: 'Alice', name: 'Pickup', args: [b] }]);
  const t = goTo(w, toaster);
  const [loaf] = runJointStep(w, [{ agent: 'Alice', name: 'Put', args: [t] }]);
  assert.equal(loaf!.ok, false);
  assert.match(loaf!.detail, /a Bread does not go in or on a Toaster/);
  // Put the loaf down on the counter, slice it, take a slice to the toaster.
  const counter = w.data.objects.find((o) => o.type === 'CounterTop' && w.interactable(w.agent('Alice')!, o))!;
  assert.equal(runJointStep(w, [{ agent: 'Alice', name: 'Put', args: [w.labelOf(counter.id)!] }])[0]!.ok, true);
  assert.equal(runJointStep(w, [{ agent: 'Alice', name: 'Slice', args: [b] }])[0]!.ok, true);
  const slice = w.data.objects.find((o) => o.type === 'BreadSliced')!;
  assert.equal(runJointStep(w, [{ agent: 'Alice', name: 'Pickup', args: [w.labelOf(slice.id)!] }])[0]!.ok, true);
  assert.equal(runJointStep(w, [{ agent: 'Alice', name: 'Put', args: [t] }])[0]!.ok, true);
  const [on] = runJointStep(w, [{ agent: 'Alice', name: 'ToggleOn', args: [t] }]);
  assert.equal(on!.ok, true, on!.detail);
  assert.equal(slice.isCooked, true);
  assert.match(on!.detail, /BreadSliced_1 cooked/);
});

test('dirty fruit gets clean; cleaning it again fails (it is clean)', () => {
  const w = world('kitchen', '3_wash_all_fruits');
  const apple = w.data.objects.find((o) => o.type === 'Apple')!;
  assert.equal(apple.isDirty, true);
  const label = goTo(w, apple);
  assert.equal(runJointStep(w, [{ agent: 'Alice', name: 'Clean', args: [label] }])[0]!.ok, true);
  assert.equal(apple.isDirty, false);
  const [again] = runJointStep(w, [{ agent: 'Alice', name: 'Clean', args: [label] }]);
  assert.equal(again!.ok, false);
  assert.match(again!.detail, /already clean/);
});

test('putting down on the floor next to the door: the lamp lands in front of the robot, and the checker credits it', () => {
  const w = world('living_room', '2_move_all_lamps_door');
  const lamp = w.data.objects.find((o) => o.type === 'DeskLamp')!;
  assert.equal(w.obj(lamp.parent)!.type, 'Desk', 'the plan\'s desk lamp stands on the desk');
  const l = goTo(w, lamp);
  assert.equal(runJointStep(w, [{ agent: 'Alice', name: 'Pickup', args: [l] }])[0]!.ok, true);
  const door = w.data.objects.find((o) => o.type === 'Doorway')!;
  const d = goTo(w, door);
  const floor = w.labelOf(w.data.objects.find((o) => o.type === 'Floor')!.id)!;
  assert.ok(floor, 'the floor under the robot is always in view');
  const [put] = runJointStep(w, [{ agent: 'Alice', name: 'Put', args: [floor] }]);
  assert.equal(put!.ok, true, put!.detail);
  assert.equal(lamp.parent, 'Floor');
  assert.ok(Math.min(...door.cells.map((c) => w.grid.distM(c, lamp.cells[0]!))) <= 1, 'next to the door');
  assert.ok(w.data.checker.state.every((s) => s.done), JSON.stringify(w.data.checker.state.filter((s) => !s.done)));
  void d;
});

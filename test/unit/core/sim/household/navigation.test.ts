// Navigation that can fail as in AI2-THOR, and sight that furniture and robots block: a NavigateTo is walked a cell
// per tick while the other robots act in the same ticks, so it stops short when another robot steps into its way
// or a door swings open across it (and the agents read the released code's text); a door cannot swing open
// through a robot and, once open, takes the cells in front of it; what is behind a kitchen island or another robot
// is not seen (nor picked up) until the robot moves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runJointStep } from '../../../../../src/core/sim/household/actions.js';
import { planById } from '../../../../../src/core/sim/household/floorPlans.js';
import { buildScene } from '../../../../../src/core/sim/household/scene.js';
import { taskById } from '../../../../../src/core/sim/household/tasks.js';
import { World, type AgentData, type ObjData } from '../../../../../src/core/sim/household/world.js';

function world(planId: string, taskId: string, agents = 2): World {
  const plan = planById(planId);
  return new World(plan, buildScene(plan, taskById(taskId)!, 0, agents).data);
}

function place(w: World, name: string, cell: [number, number], heading: number, pitch = 0): AgentData {
  const a = w.agent(name)!;
  a.cell = cell;
  a.heading = heading;
  a.horizonDeg = pitch;
  w.updateViews();
  return a;
}

const first = (w: World, type: string) => w.data.objects.find((o) => o.type === type)!;
const fixtureAt = (w: World, type: string, cell: [number, number]) => w.data.objects.find((o) => o.type === type && o.cells.some((c) => c[0] === cell[0] && c[1] === cell[1]))!;

/** Moves a small object onto the floor at `cell` (a test layout). */
function onFloor(w: World, o: ObjData, cell: [number, number]): void {
  o.parent = 'Floor';
  o.cells = [cell];
}

test('blocked mid-path: another robot steps into the way in the same joint step, and the walk stops short with the released code\'s text', () => {
  const w = world('kitchen', '1_put_bread_lettuce_tomato_fridge');
  // Alice walks north up column 3 to the fridge; Bob stands two columns east, clear of her path when she plans it.
  place(w, 'Alice', [12, 3], 0);
  place(w, 'Bob', [8, 5], 3);
  const fridge = w.labelOf(first(w, 'Fridge').id)!;
  assert.ok(fridge, 'Alice sees the fridge');
  // Alone, the same walk arrives (a copy of the world).
  const alone = new World(w.plan, structuredClone(w.data));
  const [solo] = runJointStep(alone, [{ agent: 'Alice', name: 'NavigateTo', args: [fridge] }]);
  assert.equal(solo!.ok, true, solo!.detail);
  // Together: Bob steps west while Alice walks; his body now covers her column two cells ahead.
  const [nav, move] = runJointStep(w, [
    { agent: 'Alice', name: 'NavigateTo', args: [fridge] },
    { agent: 'Bob', name: 'Move', args: ['Ahead'] },
  ]);
  assert.equal(move!.ok, true, move!.detail);
  assert.deepEqual(w.agent('Bob')!.cell, [8, 4]);
  assert.equal(nav!.ok, false);
  assert.match(nav!.detail, /^stopped after 2 of \d+ moves: the next cell north is blocked by Bob, who stands right next to it/);
  assert.equal(nav!.text, `I tried to navigate to ${fridge} in the previous step but due to blockage ${fridge} won't be interactable, unsuccessful.`);
  assert.deepEqual(w.agent('Alice')!.cell, [10, 3], 'she stopped where the way was blocked');
  assert.deepEqual(w.data.paths.Alice, [[12, 3], [11, 3], [10, 3]]);
  // The next step, with Bob where he is, A* plans around him and she arrives.
  const [again] = runJointStep(w, [{ agent: 'Alice', name: 'NavigateTo', args: [fridge] }]);
  assert.equal(again!.ok, true, again!.detail);
});

test('blocked mid-path by a door: a drawer opened in the same step takes the cell in front of it, and the walk stops there', () => {
  const w = world('kitchen', '2_open_all_drawers');
  const drawer = fixtureAt(w, 'Drawer', [2, 7]);
  place(w, 'Bob', [5, 7], 0);
  const d = w.labelOf(drawer.id)!;
  assert.ok(d && w.interactable(w.agent('Bob')!, drawer), 'Bob can open the drawer from where he stands');
  place(w, 'Alice', [3, 10], 3);
  const fridge = w.labelOf(first(w, 'Fridge').id)!;
  assert.ok(fridge, 'Alice sees the fridge down the counter');
  const [nav, open] = runJointStep(w, [
    { agent: 'Alice', name: 'NavigateTo', args: [fridge] },
    { agent: 'Bob', name: 'Open', args: [d] },
  ]);
  assert.equal(open!.ok, true, open!.detail);
  assert.equal(nav!.ok, false);
  assert.match(nav!.detail, new RegExp(`stopped after \\d+ of \\d+ moves: the next cell west is blocked by the open door of ${d}`));
  assert.deepEqual(w.agent('Alice')!.cell, [3, 8]);
  // The released code's text: the plain "unsuccessful" when the object is within reach all the same, else "blockage".
  const reachable = w.interactable(w.agent('Alice')!, first(w, 'Fridge'));
  assert.equal(nav!.text, reachable ? `I tried to navigate to ${fridge} in the previous step but was unsuccessful.` : `I tried to navigate to ${fridge} in the previous step but due to blockage ${fridge} won't be interactable, unsuccessful.`);
  // An open door keeps its cells: a Move into them fails, and a new NavigateTo plans around it.
  const [m] = runJointStep(w, [{ agent: 'Alice', name: 'Move', args: ['Ahead'] }]);
  assert.equal(m!.ok, false);
  assert.match(m!.detail, new RegExp(`blocked by the open door of ${d}`));
  const [around] = runJointStep(w, [{ agent: 'Alice', name: 'NavigateTo', args: [fridge] }]);
  assert.equal(around!.ok, true, around!.detail);
  assert.ok(!w.data.paths.Alice!.some((c) => c[0] === 3 && c[1] === 7), 'the path avoids the open drawer');
});

test('a door cannot swing open through a robot standing in front of it; once the robot steps back it opens', () => {
  const w = world('kitchen', '1_put_bread_lettuce_tomato_fridge');
  const fridge = first(w, 'Fridge');
  place(w, 'Alice', [4, 2], 0);
  place(w, 'Bob', [3, 3], 0); // in the row the fridge door sweeps
  const f = w.labelOf(fridge.id)!;
  const [r] = runJointStep(w, [{ agent: 'Alice', name: 'Open', args: [f] }]);
  assert.equal(r!.ok, false);
  assert.equal(r!.text, `I tried to open ${f} in the previous step but was unsuccessful.`);
  assert.equal(r!.detail, `the door of ${f} cannot swing open: Bob stands in its way`);
  assert.equal(fridge.isOpen, false);
  place(w, 'Bob', [6, 6], 0);
  const [ok] = runJointStep(w, [{ agent: 'Alice', name: 'Open', args: [f] }]);
  assert.equal(ok!.ok, true, ok!.detail);
});

test('occlusion: an object behind the kitchen island is not seen (nor picked up) until the robot walks around it', () => {
  const w = world('kitchen_island', '1_put_bread_lettuce_tomato_fridge');
  place(w, 'Bob', [11, 19], 2);
  const apple = first(w, 'Tomato');
  onFloor(w, apple, [7, 9]);
  // North of the island, looking south over it (camera tilted down so the floor 1 m away is in the frame).
  const a = place(w, 'Alice', [3, 9], 2, 30);
  assert.equal(w.sight(a, apple).visible, false, 'the island hides it');
  // The same place with the island gone would see it: it is the furniture, not range or pitch.
  const islandless = new World(w.plan, structuredClone(w.data));
  const island = islandless.data.objects.find((o) => o.type === 'CounterTop' && o.cells.some((c) => c[0] === 5 && c[1] === 9))!;
  islandless.data.objects = islandless.data.objects.filter((o) => o !== island);
  islandless.reindex();
  assert.equal(islandless.sight(islandless.agent('Alice')!, islandless.obj(apple.id)!).visible, true);
  // South of the island, close by and looking down: seen, labelled, and within reach.
  place(w, 'Alice', [9, 9], 0, 30);
  assert.equal(w.sight(w.agent('Alice')!, apple).visible, true);
  const label = w.labelOf(apple.id)!;
  assert.ok(label);
  const [pick] = runJointStep(w, [{ agent: 'Alice', name: 'Pickup', args: [label] }]);
  assert.equal(pick!.ok, true, pick!.detail);
});

test('occlusion by robots: another robot standing in between hides the object, and the Pickup fails for it', () => {
  const w = world('kitchen_island', '1_put_bread_lettuce_tomato_fridge');
  const tomato = first(w, 'Tomato');
  onFloor(w, tomato, [8, 15]);
  place(w, 'Bob', [11, 2], 0);
  const a = place(w, 'Alice', [4, 15], 2, 30);
  const label = w.labelOf(tomato.id)!;
  assert.ok(label, 'in view with nobody in between');
  assert.ok(w.sight(a, tomato).visible, 'seen, 1 m away');
  // Bob steps in between.
  place(w, 'Bob', [6, 15], 0);
  assert.equal(w.sight(a, tomato).visible, false);
  assert.ok(!w.visibleTo(a).includes(tomato), 'the view lists only what the camera shows');
  place(w, 'Alice', [5, 15], 2, 30);
  const [r] = runJointStep(w, [{ agent: 'Alice', name: 'Pickup', args: [label] }]);
  assert.equal(r!.ok, false);
  assert.match(r!.detail, new RegExp(`${label} is not in Alice's view`));
  // NavigateTo finds a cell from which it is in view (around Bob) and the pickup works.
  const [nav] = runJointStep(w, [{ agent: 'Alice', name: 'NavigateTo', args: [label] }]);
  assert.equal(nav!.ok, true, nav!.detail);
  const [pick] = runJointStep(w, [{ agent: 'Alice', name: 'Pickup', args: [label] }]);
  assert.equal(pick!.ok, true, pick!.detail);
});

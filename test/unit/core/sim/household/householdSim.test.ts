// The household simulator alone: partial observability, the interaction range, conflicts of two agents in one
// step, robots' bodies, determinism for a seed, snapshots and the checker. Navigation that stops short, doors and
// occlusion: navigation.test.ts; slicing and capacity: objectStates.test.ts; the task list: mapThorTasks.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HouseholdExtra } from '../../../../../src/protocol/household.js';
import { WorldState } from '../../../../../src/protocol/trace.js';
import { runJointStep } from '../../../../../src/core/sim/household/actions.js';
import { checkerState } from '../../../../../src/core/sim/household/checker.js';
import { planById } from '../../../../../src/core/sim/household/floorPlans.js';
import { buildScene } from '../../../../../src/core/sim/household/scene.js';
import { taskById } from '../../../../../src/core/sim/household/tasks.js';
import { World, type AgentData, type ObjData } from '../../../../../src/core/sim/household/world.js';
import { HouseholdSimulator } from '../../../../../src/core/sim/household/index.js';

function kitchenWorld(seed = 0, agents = 2): World {
  const plan = planById('kitchen');
  return new World(plan, buildScene(plan, taskById('1_put_bread_lettuce_tomato_fridge')!, seed, agents).data);
}

/** Puts an agent on a cell facing a heading, and refreshes what everyone sees. */
function place(w: World, name: string, cell: [number, number], heading: number): AgentData {
  const a = w.agent(name)!;
  a.cell = cell;
  a.heading = heading;
  a.horizonDeg = 0;
  w.updateViews();
  return a;
}

const idOf = (w: World, type: string) => w.data.objects.find((o) => o.type === type)!.id;

/** Puts `name` on a free cell `minM`..`maxM` from `o`, facing it with the object in view; returns the cell. */
function standWhereSeen(w: World, name: string, o: ObjData, minM: number, maxM: number): [number, number] {
  const a = w.agent(name)!;
  for (let r = 0; r < w.grid.rows; r++)
    for (let c = 0; c < w.grid.cols; c++) {
      const d = Math.min(...w.cellsOf(o).map((t) => w.grid.distM([r, c], t)));
      if (!w.grid.walkable(r, c) || d < minM || d > maxM || w.stepBlocked([r, c], name)) continue;
      for (let h = 0; h < 4; h++) {
        place(w, name, [r, c], h);
        if (w.sight(a, o).visible) return [r, c];
      }
    }
  throw new Error(`no cell ${minM}-${maxM} m from ${o.id} sees it`);
}

test('an object nobody has seen cannot be navigated to; once seen it can', () => {
  const w = kitchenWorld();
  // Both agents along the south wall facing it: they see almost nothing.
  place(w, 'Alice', [13, 1], 2);
  place(w, 'Bob', [13, 12], 2);
  const fridge = idOf(w, 'Fridge');
  // Labels are given in discovery order; the fridge is north-west, behind them.
  assert.equal(w.labelOf(fridge) === undefined || w.data.known.length > 0, true);
  const unseenLabel = 'Fridge_9';
  const [r] = runJointStep(w, [{ agent: 'Alice', name: 'NavigateTo', args: [unseenLabel] }]);
  assert.equal(r!.ok, false);
  assert.equal(r!.text, "I tried to navigate to Fridge_9 in the previous step but Fridge_9 doesn't exist, unsuccessful.");
  assert.match(r!.detail, /no object 'Fridge_9' has been seen by the team/);
  // Turn north: the fridge comes into view, gets a label, and NavigateTo reaches it.
  place(w, 'Alice', [13, 1], 0);
  const label = w.labelOf(fridge);
  assert.ok(label?.startsWith('Fridge_'), `fridge discovered as ${label}`);
  const [ok] = runJointStep(w, [{ agent: 'Alice', name: 'NavigateTo', args: [label] }]);
  assert.equal(ok!.ok, true, ok!.detail);
  assert.equal(ok!.text, `I navigated to ${label} in the previous step and was successful.`);
  assert.ok(w.interactable(w.agent('Alice')!, w.obj(fridge)!));
  assert.ok(w.data.paths.Alice!.length > 5, 'the A* path is recorded cell by cell');
});

test('objects are seen only inside the 90° view cone, within range, not through walls and not inside a closed fridge', () => {
  const w = kitchenWorld();
  const a = place(w, 'Alice', [7, 3], 1); // facing east, the dining table ahead
  const table = w.obj(idOf(w, 'DiningTable'))!;
  assert.equal(w.sight(a, table).visible, true);
  a.heading = 3; // west: the table is behind
  assert.equal(w.sight(a, table).visible, false);
  // Something in the closed fridge is invisible until it is opened.
  const fridge = w.obj(idOf(w, 'Fridge'))!;
  const inFridge = w.data.objects.find((o) => o.parent === fridge.id);
  if (inFridge) {
    const b = place(w, 'Bob', [3, 2], 0);
    assert.equal(w.sight(b, inFridge).visible, false);
    fridge.isOpen = true;
    assert.equal(w.sight(b, inFridge).visible, true);
  }
  // The apartment's walls: from the hallway nothing in the kitchen is seen.
  const plan = planById('apartment');
  const apt = new World(plan, buildScene(plan, taskById('1_put_bread_lettuce_tomato_fridge')!, 0, 1).data);
  const al = apt.agent('Alice')!;
  al.cell = [12, 14];
  al.heading = 0; // north, toward the kitchen wall
  assert.equal(apt.visibleTo(al).filter((o) => o.room === 'kitchen' && o.kind === 'small').length, 0);
});

test('Pickup works only within 1.5 m and in view; the failure says why in the trace and the authors\' text to the agents', () => {
  const w = kitchenWorld();
  const bread = w.obj(idOf(w, 'Bread'))!;
  place(w, 'Bob', [13, 18], 2);
  // Stand 1.5-3 m from the bread where it is in view.
  const far = standWhereSeen(w, 'Alice', bread, 1.6, 3);
  const label = w.labelOf(bread.id)!;
  assert.ok(label, 'the bread is in view');
  assert.ok(w.grid.distM(far, bread.cells[0]!) > 1.5);
  const [r] = runJointStep(w, [{ agent: 'Alice', name: 'Pickup', args: [label] }]);
  assert.equal(r!.ok, false);
  assert.equal(r!.text, `I tried to pick up ${label} in the previous step but was unsuccessful.`);
  assert.match(r!.detail, new RegExp(`${label} is \\d\\.\\d\\d m away; the interaction range is 1.5 m`));
  const [nav] = runJointStep(w, [{ agent: 'Alice', name: 'NavigateTo', args: [label] }]);
  assert.equal(nav!.ok, true, nav!.detail);
  const [pick] = runJointStep(w, [{ agent: 'Alice', name: 'Pickup', args: [label] }]);
  assert.equal(pick!.ok, true, pick!.detail);
  assert.equal(w.agent('Alice')!.holding, bread.id);
  assert.equal(bread.parent, 'Alice');
  // One object at a time.
  const tomato = w.labelOf(idOf(w, 'Tomato'));
  if (tomato) {
    const [two] = runJointStep(w, [{ agent: 'Alice', name: 'Pickup', args: [tomato] }]);
    assert.equal(two!.ok, false);
  }
});

test('two agents opening the same fridge in one step: the first opens it, the second fails naming the first', () => {
  const w = kitchenWorld();
  const fridge = idOf(w, 'Fridge');
  // Both within reach, neither where the fridge door swings (the row in front of it), 0.5 m apart.
  place(w, 'Alice', [4, 1], 0);
  place(w, 'Bob', [4, 3], 0);
  const label = w.labelOf(fridge)!;
  assert.ok(w.interactable(w.agent('Alice')!, w.obj(fridge)!) && w.interactable(w.agent('Bob')!, w.obj(fridge)!));
  // Bob's action is listed first; the team order (Alice, then Bob) decides.
  const [bob, alice] = runJointStep(w, [
    { agent: 'Bob', name: 'Open', args: [label] },
    { agent: 'Alice', name: 'Open', args: [label] },
  ]);
  assert.equal(alice!.ok, true);
  assert.equal(bob!.ok, false);
  assert.equal(bob!.text, `I tried to open ${label} in the previous step but was unsuccessful.`);
  assert.equal(bob!.detail, `Alice acted on ${label} earlier in this same step`);
  assert.equal(w.obj(fridge)!.isOpen, true);
});

test('robots are bigger than a cell: a Move next to another robot fails, and NavigateTo goes as close as it can when every near cell is taken', () => {
  const w = kitchenWorld();
  place(w, 'Alice', [5, 4], 1);
  place(w, 'Bob', [5, 6], 3);
  const [m] = runJointStep(w, [{ agent: 'Alice', name: 'Move', args: ['Ahead'] }]);
  assert.equal(m!.ok, false);
  assert.equal(m!.text, 'I tried to move ahead in the previous step but was unsuccessful.');
  assert.match(m!.detail, /blocked by Bob, who stands right next to it/);
  assert.deepEqual(w.agent('Alice')!.cell, [5, 4]);
  // The galley kitchen's aisle is 4 cells wide: two robots across it cut the third off from the fridge at the far end.
  const plan = planById('galley_kitchen');
  const g = new World(plan, buildScene(plan, taskById('2_turn_on_all_stove_knobs')!, 0, 3).data);
  place(g, 'Bob', [8, 3], 2);
  place(g, 'Charlie', [8, 6], 2);
  place(g, 'Alice', [14, 5], 0);
  const fridge = g.labelOf(idOf(g, 'Fridge'));
  assert.ok(fridge, 'Alice sees the fridge up the aisle');
  const [nav] = runJointStep(g, [{ agent: 'Alice', name: 'NavigateTo', args: [fridge] }]);
  assert.equal(nav!.ok, false);
  assert.equal(nav!.text, `I tried to navigate to ${fridge} in the previous step but due to blockage ${fridge} won't be interactable, unsuccessful.`);
  assert.match(nav!.detail, /taken by Bob, Charlie, open doors, or cut off/);
  assert.equal(g.agent('Alice')!.cell[0], 10, 'Alice stops short of the two robots\' bodies');
  // With the aisle open again, the same NavigateTo succeeds.
  place(g, 'Charlie', [12, 1], 0);
  place(g, 'Bob', [14, 8], 0);
  const [again] = runJointStep(g, [{ agent: 'Alice', name: 'NavigateTo', args: [fridge] }]);
  assert.equal(again!.ok, true, again!.detail);
});

test('same seed, same scene and same results; another seed moves things', async () => {
  const a = new HouseholdSimulator();
  const b = new HouseholdSimulator();
  const ra = await a.reset('3_put_all_groceries_fridge@studio', 5, { agents: 3 });
  const rb = await b.reset('3_put_all_groceries_fridge@studio', 5, { agents: 3 });
  assert.deepEqual(ra.observation.state, rb.observation.state);
  const acts = [
    { agent: 'Alice', name: 'Explore', args: [] },
    { agent: 'Bob', name: 'Rotate', args: ['Left'] },
    { agent: 'Charlie', name: 'Move', args: ['Ahead'] },
  ];
  assert.deepEqual(await a.act(acts), await b.act(acts));
  assert.deepEqual(await a.observe(), await b.observe());
  const other = await new HouseholdSimulator().reset('3_put_all_groceries_fridge@studio', 6, { agents: 3 });
  assert.notDeepEqual(other.observation.state.objects.map((o) => o.name), ra.observation.state.objects.map((o) => o.name));
});

test('snapshot and restore return to the saved state exactly', async () => {
  const sim = new HouseholdSimulator();
  await sim.reset('2_open_all_drawers@bedroom', 1, {});
  const before = await sim.observe();
  const snap = await sim.snapshot();
  await sim.act([
    { agent: 'Alice', name: 'Explore', args: [] },
    { agent: 'Bob', name: 'Explore', args: [] },
  ]);
  assert.notDeepEqual(await sim.observe(), before);
  await sim.restore(snap);
  assert.deepEqual(await sim.observe(), before);
});

test('observations: schema-valid state, per-agent views list only what that agent sees, in the authors\' text format', async () => {
  const sim = new HouseholdSimulator();
  const r = await sim.reset('4_make_coffee_toast_bread@kitchen', 0, { agents: 2 });
  assert.deepEqual(r.agents, ['Alice', 'Bob']);
  assert.ok(WorldState.safeParse(r.observation.state).success);
  const whole = HouseholdExtra.parse(r.observation.state.extra!.household);
  assert.ok(whole.plan && whole.checker && whole.seenBy);
  const alice = await sim.observe('Alice');
  const view = HouseholdExtra.parse(alice.state.extra!.household);
  assert.equal(view.agent, 'Alice');
  assert.equal(view.plan, undefined, 'no ground truth in an agent view');
  assert.equal(view.checker, undefined);
  assert.deepEqual(alice.state.objects.map((o) => (o.props as { label: string }).label), view.agents.Alice!.visible);
  assert.match(alice.text, /^Alice's observation: \[('[A-Za-z]+_\d+'(, )?)*\]\nAlice's state: I am at co-ordinates: \(\d+(\.\d+)?, \d+(\.\d+)?\) facing (north|east|south|west) and I am holding nothing$/);
  await assert.rejects(sim.observe('Zed'), /no agent 'Zed'; agents: Alice, Bob/);
  await assert.rejects(sim.reset('4_make_coffee_toast_bread@bedroom', 0), /does not run on floor plan 'bedroom'/);
  await assert.rejects(sim.reset('4_make_coffee_toast_bread', 0, { agents: 6 }), /agents must be an integer from 1 to 5/);
});

test('the checker credits subtasks to the acting agent, also the NavigateTo before an interaction, and reports success', () => {
  const w = kitchenWorld(0, 1);
  const fridge = idOf(w, 'Fridge');
  place(w, 'Alice', [4, 2], 0);
  const f = w.labelOf(fridge)!;
  runJointStep(w, [{ agent: 'Alice', name: 'Open', args: [f] }]);
  const st = w.data.checker.state;
  const open = st.find((s) => s.text === 'OpenObject(Fridge)')!;
  assert.deepEqual([open.done, open.by, open.step], [true, 'Alice', 1]);
  // Transport one of each item: NavigateTo, Pickup, NavigateTo(fridge), Put.
  for (const type of ['Bread', 'Lettuce', 'Tomato']) {
    const id = idOf(w, type);
    if (!w.labelOf(id)) {
      // Walk around until someone sees it.
      for (let i = 0; i < 6 && !w.labelOf(id); i++) runJointStep(w, [{ agent: 'Alice', name: 'Explore', args: [] }]);
    }
    const l = w.labelOf(id)!;
    for (const [name, arg] of [['NavigateTo', l], ['Pickup', l], ['NavigateTo', f], ['Put', f]] as const) {
      const [r] = runJointStep(w, [{ agent: 'Alice', name, args: [arg] }]);
      assert.equal(r!.ok, true, `${name}(${arg}): ${r!.detail}`);
    }
  }
  runJointStep(w, [{ agent: 'Alice', name: 'Close', args: [f] }]);
  assert.ok(w.data.checker.state.every((s) => s.done && s.by === 'Alice'), JSON.stringify(w.data.checker.state.filter((s) => !s.done)));
});

test("the checker names objects as the agents do: a drawer they call Drawer_1 is Drawer_1, an unseen one its object id", () => {
  const plan = planById('kitchen');
  const w = new World(plan, buildScene(plan, taskById('open_all_drawers')!, 0, 2).data);
  const drawers = w.data.objects.filter((o) => o.type === 'Drawer').map((o) => o.id);
  assert.ok(drawers.length >= 2, 'several drawers: a numbering of its own would be ambiguous');
  const texts = () => checkerState(w).subtasks.map((s) => s.text);
  assert.ok(texts().every((t) => !/#\d/.test(t)), texts().join(', '));
  // Whatever the team has not seen is named by its object id; what it has seen, by the label it uses.
  for (const id of drawers) {
    const label = w.labelOf(id);
    assert.ok(texts().includes(`OpenObject(${label ?? id})`), `${label ?? id} in ${texts().join(', ')}`);
  }
  // Explore until the team has labelled drawers (in its discovery order, which need not be the scene's).
  for (let i = 0; i < 12 && drawers.some((id) => !w.labelOf(id)); i++) runJointStep(w, [{ agent: 'Alice', name: 'Explore', args: [] }, { agent: 'Bob', name: 'Explore', args: [] }]);
  const seen = drawers.filter((id) => w.labelOf(id));
  assert.ok(seen.length > 0, 'exploring finds drawers');
  for (const id of seen) {
    const label = w.labelOf(id)!;
    assert.ok(texts().includes(`OpenObject(${label})`) && texts().includes(`NavigateTo(${label})`), `${label}: ${texts().join(', ')}`);
  }
  // Opening the drawer the agents call by a label completes the subtask that names that label.
  const d = seen[0]!;
  const label = w.labelOf(d)!;
  const nav = runJointStep(w, [{ agent: 'Alice', name: 'NavigateTo', args: [label] }])[0]!;
  const open = runJointStep(w, [{ agent: 'Alice', name: 'Open', args: [label] }])[0]!;
  assert.ok(nav.ok && open.ok, `${nav.detail} / ${open.detail}`);
  const done = checkerState(w).subtasks.filter((s) => s.done).map((s) => s.text);
  assert.ok(done.includes(`OpenObject(${label})`), `done: ${done.join(', ')}`);
});

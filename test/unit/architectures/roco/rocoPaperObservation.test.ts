// Issue 24, RoCo App. 10.2-10.4: what each robot's observation holds in the default (paper) variant. Make Sandwich:
// the food by side and stack and the robot's own gripper, no positions; Sweep Floor: the cubes' states and the
// robot's gripper position only; Sort Cubes: the robot's own gripper only. Rendered by render.ts from a structured
// multi-arm state, as the loop renders it; the `waypoint` switches bring the positions and the others' grippers back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderScene, renderSwitches } from '../../../../src/architectures/roco/render.js';
import { ROCO_MANIFEST } from '../../../../src/architectures/roco/manifest.js';
import type { Observation } from '../../../../src/core/sim/simulator.js';

const POS = /\(-?\d+\.\d+, -?\d+\.\d+, -?\d+\.\d+\)/;
const obj = (name: string, pos: [number, number, number]) => ({ name, pos, size: [0.06, 0.06, 0.035] as [number, number, number], quat: [1, 0, 0, 0] });

function view(coordinates: boolean | 'grippers', grippers: 'all' | 'own', relations: string[], objects: ReturnType<typeof obj>[], robots: { name: string; holding: string | null; note?: string }[]): Observation {
  return {
    text: 'simulator text',
    state: {
      objects,
      robots: robots.map((r, i) => ({ name: r.name, pos: [i * 0.3, 0, 1.1], holding: r.holding })),
      extra: { multiArm: { observation: 'shared', robots: robots.map((r) => ({ name: r.name, holding: r.holding, ...(r.note ? { note: r.note } : {}) })), relations, facts: [], actions: [], rules: [], strategy: [], coordinates, grippers } },
    },
  } as unknown as Observation;
}

const on = (ids: string[]) => renderSwitches(Object.fromEntries(ids.map((id) => [id, true])));
const waypoint = ROCO_MANIFEST.builtInVariants!['waypoint']!.on as string[];

test('make_sandwich default: food by side and stack, own gripper state, no coordinates (App. 10.3)', () => {
  const o = view(false, 'all', ['bacon is on the left side', 'bread_slice1 is on cutting_board'], [obj('bacon', [-0.3, 0.1, 0.77]), obj('bread_slice1', [0, 0.25, 0.78]), obj('cutting_board', [0, 0.25, 0.76])], [{ name: 'Dave', holding: null }]);
  const paper = renderScene(o, 'Dave', renderSwitches({}));
  assert.doesNotMatch(paper, POS);
  assert.match(paper, /bacon is on the left side/);
  assert.match(paper, /Your gripper is holding nothing/);
  assert.match(renderScene(o, 'Dave', on(waypoint)), POS, 'observation.coordinates brings positions back');
});

test("sweep_floor default: cube states and the robot's gripper position, no object positions (App. 10.2)", () => {
  const o = view('grippers', 'all', ['red_cube is on the table', 'dustpan is held by Alice'], [obj('red_cube', [0.1, 0.1, 0.77]), obj('dustpan', [-0.1, 0.05, 0.93]), obj('trash_bin', [-0.16, -0.4, 0.81])], [{ name: 'Alice', holding: 'dustpan', note: 'in front of red_cube' }]);
  const paper = renderScene(o, 'Alice', renderSwitches({}));
  const scene = paper.slice(0, paper.indexOf('[Robots]'));
  assert.doesNotMatch(scene, POS, 'no object or place positions');
  assert.doesNotMatch(scene, /size/);
  assert.match(paper, /Your gripper is at \(0\.00, 0\.00, 1\.10\), holding dustpan, in front of red_cube/);
  assert.match(renderScene(o, 'Alice', on(waypoint)).slice(0, 200), /red_cube is on the table, at \(/);
});

test("sort_cubes default: each robot is told its own gripper, not the others' (App. 10.4)", () => {
  const o = view(false, 'own', ['blue_square is on panel5'], [obj('blue_square', [0.17, 0.15, 0.77])], [{ name: 'Alice', holding: null }, { name: 'Bob', holding: 'pink_polygon' }, { name: 'Chad', holding: null }]);
  const paper = renderScene(o, 'Alice', renderSwitches({}));
  assert.match(paper, /Your gripper is holding nothing/);
  assert.deepEqual(['Bob', 'Chad'].filter((r) => paper.includes(`${r}'s gripper`)), []);
  const w = renderScene(o, 'Alice', on(waypoint));
  assert.match(w, /Bob's gripper is at .*holding pink_polygon/, 'observation.others_grippers (waypoint) lists them');
  // The Central Plan (no agent: the whole scene) sees every gripper.
  assert.match(renderScene(o, undefined, renderSwitches({})), /Bob's gripper is holding pink_polygon/);
});

test('the tasks declare what the paper observes: make_sandwich no positions, sweep_floor grippers only, sort_cubes own gripper', async () => {
  const { makeSandwichTask } = await import('../../../../src/core/sim/mujoco/tasks/multiArm/makeSandwich.js');
  const { sweepFloorTask } = await import('../../../../src/core/sim/mujoco/tasks/multiArm/sweepFloor.js');
  const { sortCubesTask } = await import('../../../../src/core/sim/mujoco/tasks/multiArm/sortCubes.js');
  assert.equal(makeSandwichTask().multiArm!.coordinates, false);
  assert.equal(sweepFloorTask().multiArm!.coordinates, 'grippers');
  assert.equal(sortCubesTask().multiArm!.grippers, 'own');
});

test("make_sandwich: RoCo's code's recipes, five items each (ham six), bread_slice1 at the bottom and bread_slice2 on top", async () => {
  const { RECIPES } = await import('../../../../src/core/sim/mujoco/tasks/multiArm/makeSandwich.js');
  assert.deepEqual(Object.keys(RECIPES).sort(), ['bacon', 'beef_patty', 'ham', 'vegetarian']);
  for (const [name, r] of Object.entries(RECIPES)) {
    assert.equal(r.length, name === 'ham' ? 6 : 5, name);
    assert.equal(r[0], 'bread_slice1');
    assert.equal(r.at(-1), 'bread_slice2');
  }
});

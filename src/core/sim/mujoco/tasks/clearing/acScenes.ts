// The scenes of Action Contextualization's experiments (Sec. IV of the paper) on the tabletop: the messy dining
// table with a whole apple, a half-eaten apple, a glass with yellowish liquid, an empty glass and two crumpled
// paper balls, with a trash can, a sink and a storage shelf to put things away in (the labels are the paper's).
// The trash can, sink and shelf stand on the table's edges (the Panda cannot reach the floor beside the table).
//   Single-object clearing (IV-B), one task per object: "Put away the 'X' efficiently and quickly."
//     The contexts of IV-C are built into the layout: the full glass is heavy and slips out of a grip that a fast
//     motion pulls on (a speed question), the empty glass does not; paper ball 1 lies in the open near the robot,
//     paper ball 2 behind it, wedged between the whole apple and the half-eaten apple 1 cm from the open fingers
//     (a clearance question: at seed 0 a top pick with 0.005, 0.01 or 0.02 m gets in, the modulation steering the
//     fingers between the apples; 0.03 or 0.04 m holds them 4-6 cm above it and 0.05 m never settles, so holding()
//     fails; a side grasp fails at each of these clearances: the hand meets paper ball 1 or the table, or the
//     approach times out).
//   Sequential clearing (IV-D): the half-eaten apple and the full glass, which stands right beside the apple: a
//     hand reaching for the apple meets the glass (Fig. 7's repeated failures), so the glass must go first.
//   Robustness (IV-F): the same two objects with (b) the trash can, sink and shelf shuffled among their spots and
//     the table items scattered, (c) an overhead lamp hanging over the half-eaten apple (a top grasp meets it, so it
//     is taken from the side) and the full glass in front of the apple, as in the authors' scene file
//     (llm_object_bodies.xml: the full glass 25 cm nearer the arm's base than the half-eaten apple, 7 cm off the line
//     between them): the side approach passes where the glass stands, so it goes first.
// Layouts are seeded: every seed moves the cluster and turns the objects a little, keeping these relations.
import { container, crumpledPaper, glass, overheadLamp, shelf, sink, sphere } from '../sceneObjects.js';
import { mjcfSafe, type ObjectSpec } from '../../scene/sceneSpec.js';
import type { LayoutBuilder } from '../layout.js';
import { AC_LABELS } from './acLabels.js';
import { clearingTask } from './clearTable.js';
import { iiwaDiningLayout, iiwaDiningObjects, iiwaScatteredLayout } from './iiwaDining.js';
import type { LocationSpec, TaskDefinition } from '../taskDefinition.js';

const L = AC_LABELS;
export { AC_LABELS };

function named(o: ObjectSpec, name: string): ObjectSpec {
  return { ...o, name, mjcfName: mjcfSafe(name) };
}

/** The dining table's objects in scene order (the lamp only in the lamp scene). */
function diningObjects(withLamp: boolean): ObjectSpec[] {
  const objects = [
    container(L.bin, 'red', [0.2, 0.2, 0.16], { fixed: true, wallM: 0.01 }),
    { ...sink(L.sink, 'white') },
    shelf(L.shelf, 'brown'),
    sphere(L.apple, 'red', 0.036, 0.15),
    sphere(L.eaten, 'yellow', 0.034, 0.11),
    named(glass('glass', 'cyan', 0.034, 0.12, true, 0.008), L.full),
    named(glass('glass', 'cyan', 0.034, 0.12, false, 0.008), L.empty),
    crumpledPaper(L.paper1),
    crumpledPaper(L.paper2),
  ];
  if (withLamp) objects.push(overheadLamp(L.lamp, 'black', 0.22, [0, 0.07]));
  return objects;
}

const LOCATIONS: LocationSpec[] = [
  { name: L.bin, kind: 'container', wallM: 0.01 },
  { name: L.sink, kind: 'container', wallM: 0.015 },
  { name: L.shelf, kind: 'surface' },
];

/** Where each object belongs: food waste and paper in the trash, glasses in the sink (an empty one may go in the trash, as in Fig. 6a), the whole apple on the shelf. */
/**
 * Where a target may end up. The paper's instructions ("Put away the 'half-eaten apple' efficiently and quickly",
 * "Put away the 'half-eaten apple' and the 'glass with yellowish liquid'") name no destination, and its own final plan
 * (App. E) puts the glass into the trash can: so any of the scene's places counts, and success is decidable from
 * what the agents are told. The full glass must still stay upright and unspilt (its IV-C failure).
 */
const PUT_AWAY_PLACES: readonly string[] = [L.bin, L.sink, L.shelf];

type Xy = [number, number];
const BASE: Xy = [0, -0.35];
const SLOTS: Record<'left' | 'right' | 'back', { xy: Xy; yaw: number }> = {
  left: { xy: [-0.41, 0.13], yaw: Math.PI / 2 },
  right: { xy: [0.4, 0.12], yaw: 0 },
  back: { xy: [0.02, 0.4], yaw: 0 },
};

function byName(objects: ObjectSpec[], name: string): ObjectSpec {
  return objects.find((o) => o.name === name)!;
}

/** Unit vector from the robot's base to p, and its left-hand perpendicular. */
function frameAt(p: Xy): { dir: Xy; perp: Xy } {
  const dx = p[0] - BASE[0];
  const dy = p[1] - BASE[1];
  const n = Math.hypot(dx, dy);
  return { dir: [dx / n, dy / n], perp: [-dy / n, dx / n] };
}

const add = (p: Xy, v: Xy, k: number): Xy => [p[0] + v[0] * k, p[1] + v[1] * k];

/** The locations at their usual spots (left sink, right trash can, shelf at the back), or shuffled. */
function placeLocations(l: LayoutBuilder, objects: ObjectSpec[], shuffle: boolean): void {
  const order = shuffle ? l.shuffle([L.sink, L.bin, L.shelf]) : [L.sink, L.bin, L.shelf];
  (['left', 'right', 'back'] as const).forEach((slot, i) => {
    const o = byName(objects, order[i]!);
    const s = SLOTS[slot];
    // A long sink lies along the table's depth on the sides, across it at the back.
    const yaw = o.name === L.sink ? (slot === 'back' ? 0 : Math.PI / 2) : s.yaw;
    l.at(o, [s.xy[0] + l.uniform(-0.01, 0.01), s.xy[1] + l.uniform(-0.01, 0.01)], yaw);
  });
}

/**
 * The dining layout: paper ball 2 wedged between the whole apple and the half-eaten apple (low things: the hand
 * passes over them, the open fingers 1 cm from them), paper ball 1 in front of it (nearer the robot), the glasses in
 * the open at the front corners. `fullGlass: 'beside'` stands the full glass right beside the half-eaten apple
 * instead, on the side away from ball 2 (sequential clearing). The lamp scene (`lamp`) keeps the side approach to the
 * half-eaten apple free of things that stay on the table: a side grasp comes in along the line from the base, turns
 * 16 cm out on that line and sweeps about 10 cm to either side of it (apis/actctx/skills.ts), so paper ball 1 lies
 * in front of the whole apple, not under that corridor (the hand passed 2 mm over it there); the full glass stands
 * in it, 20 cm in front of the apple as in the authors' scene (`fullGlass: 'front'`): taken first, it clears the way.
 */
function diningLayout(l: LayoutBuilder, objects: ObjectSpec[], o: { fullGlass?: 'corner' | 'beside' | 'front'; lamp?: boolean } = {}): void {
  placeLocations(l, objects, false);
  const ball2: Xy = [-0.05 + l.uniform(-0.01, 0.01), 0.2 + l.uniform(-0.01, 0.01)];
  const { dir, perp } = frameAt(ball2);
  const yaw = Math.atan2(dir[1], dir[0]);
  l.at(byName(objects, L.paper2), ball2, yaw);
  // Open pads reach 0.052 m to each side of the grasp centre; the neighbours' near faces sit 1 cm beyond that.
  const whole = add(ball2, perp, 0.062 + 0.036);
  l.at(byName(objects, L.apple), whole);
  const eaten = add(ball2, perp, -(0.062 + 0.034));
  l.at(byName(objects, L.eaten), eaten);
  const ball1 = o.lamp ? add(whole, frameAt(whole).dir, -0.12) : add(ball2, dir, -0.12);
  l.at(byName(objects, L.paper1), ball1, yaw + l.uniform(-0.5, 0.5));
  l.at(byName(objects, L.empty), [-0.17 + l.uniform(-0.01, 0.01), 0.03 + l.uniform(-0.01, 0.01)]);
  const f = frameAt(eaten);
  if (o.fullGlass === 'beside') {
    // Beside the apple, across the line from the base: 11 cm centre to centre, inside the sweep of a hand
    // closing on the apple from above or from the side.
    l.at(byName(objects, L.full), add(eaten, f.perp, -0.11));
  } else if (o.fullGlass === 'front') {
    // Between the robot and the apple, 1 cm off the line from the base.
    l.at(byName(objects, L.full), add(add(eaten, f.dir, -0.2), f.perp, -0.01));
  } else {
    l.at(byName(objects, L.full), [0.17 + l.uniform(-0.01, 0.01), 0.02 + l.uniform(-0.01, 0.01)]);
  }
  if (o.lamp) {
    // The shade hangs over the half-eaten apple, its pole behind it (away from the robot).
    l.at(byName(objects, L.lamp), eaten, 0, { z: 0.75 + 0.115 });
  }
}

/** Random placement of the table items (IV-F b): scattered in the middle of the table, clear of each other. */
function scatteredLayout(l: LayoutBuilder, objects: ObjectSpec[]): void {
  placeLocations(l, objects, true);
  const region = { x: [-0.2, 0.2] as [number, number], y: [-0.15, 0.16] as [number, number] };
  for (const name of [L.full, L.eaten, L.empty, L.apple, L.paper1, L.paper2]) l.scatter(byName(objects, name), region, { gapM: 0.03, yawRange: [-Math.PI, Math.PI] });
}

const INSTRUCTION_ONE = (label: string) => `Put away the '${label}' efficiently and quickly.`;
const INSTRUCTION_TWO = `Put away the '${L.eaten}' and the '${L.full}'.`;

/** The iiwa's table for a task (iiwaDining.ts): the authors' layout, scattered for IV-F (b), with the lamp for IV-F (c). */
type IiwaLayout = 'dining' | 'scattered' | 'lamp';

function acTask(id: string, description: string, instruction: string, goals: string[], imitates: string, layout: (l: LayoutBuilder, objects: ObjectSpec[]) => void, iiwa: IiwaLayout = 'dining'): TaskDefinition {
  const lamp = iiwa === 'lamp';
  const objects = diningObjects(lamp);
  const iiwaObjects = iiwaDiningObjects(lamp);
  return clearingTask({
    id,
    key: lamp ? 'ac-dining-lamp' : 'ac-dining',
    description,
    instruction,
    objects,
    locations: LOCATIONS,
    goals: Object.fromEntries(goals.map((g) => [g, PUT_AWAY_PLACES])),
    upright: [L.full],
    fullGlass: L.full,
    imitates,
    layout: (l) => layout(l, objects),
    iiwa: { objects: iiwaObjects, layout: (l) => (iiwa === 'scattered' ? iiwaScatteredLayout(l, iiwaObjects) : iiwaDiningLayout(l, iiwaObjects, { lamp })) },
  });
}

const SINGLE: [string, string, string][] = [
  ['ac_single_whole_apple', L.apple, 'the whole apple onto the storage shelf'],
  ['ac_single_half_eaten_apple', L.eaten, 'the half-eaten apple into the trash can; it sits beside paper ball 2'],
  ['ac_single_empty_glass', L.empty, 'the empty glass into the sink or the trash can (IV-C case a)'],
  ['ac_single_full_glass', L.full, 'the glass with yellowish liquid into the sink, upright and unspilt; it slips out of a fast motion (IV-C case b)'],
  ['ac_single_paper_ball_1', L.paper1, 'paper ball 1, in the open near the robot, into the trash can (IV-C case c)'],
  ['ac_single_paper_ball_2', L.paper2, 'paper ball 2, behind ball 1 and wedged between the whole apple and the half-eaten apple, into the trash can: needs a small obstacle_clearance: from the top 0.02 m or less gets in, from 0.03 m the fingers stop above it (IV-C case d)'],
];

export function acTasks(): TaskDefinition[] {
  return [
    ...SINGLE.map(([id, label, what]) => acTask(id, `Single-object clearing: ${what}.`, INSTRUCTION_ONE(label), [label], 'Action Contextualization IV-B/C: single-object clearing', (l, objects) => diningLayout(l, objects))),
    acTask(
      'ac_sequential',
      'Sequential clearing: the half-eaten apple and the full glass, which stands right beside the apple, so a hand reaching for the apple meets the glass; the glass has to go first (Fig. 7).',
      INSTRUCTION_TWO,
      [L.eaten, L.full],
      'Action Contextualization IV-D: sequential clearing',
      (l, objects) => diningLayout(l, objects, { fullGlass: 'beside' }),
    ),
    acTask(
      'ac_robust_random',
      'Robustness, randomised: the trash can, sink and shelf shuffled among their spots and the table items scattered; put away the half-eaten apple and the full glass.',
      INSTRUCTION_TWO,
      [L.eaten, L.full],
      'Action Contextualization IV-F (b): randomised layout',
      scatteredLayout,
      'scattered',
    ),
    acTask(
      'ac_robust_lamp',
      'Robustness, overhead lamp: a lamp hangs over the half-eaten apple, so a top grasp meets it and the apple is taken from the side; the full glass stands in front of the apple, where the side approach passes, so it goes first; put away the half-eaten apple and the full glass.',
      INSTRUCTION_TWO,
      [L.eaten, L.full],
      'Action Contextualization IV-F (c): overhead lamp',
      (l, objects) => diningLayout(l, objects, { fullGlass: 'front', lamp: true }),
      'lamp',
    ),
  ];
}

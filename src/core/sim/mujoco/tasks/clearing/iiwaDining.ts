// The dining table of Action Contextualization's experiments as the authors built it for their iiwa (their
// llm_object_bodies.xml and static_env.xml, in epfl-lasa/Action_contextualisation), for the iiwa variant of the
// acScenes.ts tasks: the objects at the authors' sizes (the bounding boxes of their meshes: champagne glasses 9 cm
// across and 24 cm tall, apples 10 cm, paper balls 10 x 10 x 9 cm) and places, mapped into this table's frame (the
// authors' x forward becomes +y, their y to the left becomes -x, their base at the iiwa's base (0, -0.6)):
//   full glass (0.56, 0) -> (0, -0.04)      empty glass (0.71, -0.42) -> (0.42, 0.11)
//   whole apple (0.5, -0.45) -> (0.45, -0.1) half-eaten apple (0.8, -0.1) -> (0.1, 0.2)
//   paper ball 1 (0.5, 0.45) -> (-0.45, -0.1) paper ball 2 (0.7, 0.5) -> (-0.5, 0.1)
// so paper ball 2 lies behind ball 1 as the robot reaches for it (Fig. 6d: "the direct trajectory to the target
// object is blocked by the closer paper ball") and the full glass stands between the robot and the half-eaten apple
// (Appendix E: placing the apple in the trash can collides with the glass). The trash can, the shelf and the sink
// stand beside the robot as theirs do (trash can on its left, shelf on its right, sink behind on the right), on
// stands at the table's height. Each seed moves every object by up to 1.5 cm and turns it.
//   Sequential clearing (IV-D) and the lamp scene (IV-F c) use the same table (the lamp hangs over the half-eaten
// apple, as in the authors' IV-F); the randomised scene (IV-F b) shuffles the three places and scatters the table
// items in the band the arm reaches (0.6-0.84 m from its base).
import { container, crumpledPaper, glass, overheadLamp, shelf, sink, sphere } from '../sceneObjects.js';
import { mjcfSafe, type ObjectSpec, type PartSpec } from '../../scene/sceneSpec.js';
import type { LayoutBuilder } from '../layout.js';
import { IIWA_ARM, TABLE_TOP_Z } from '../tabletopCommon.js';
import { AC_LABELS as L } from './acLabels.js';

type Xy = [number, number];
const BASE: Xy = [IIWA_ARM.basePos[0], IIWA_ARM.basePos[1]];

function named(o: ObjectSpec, name: string): ObjectSpec {
  return { ...o, name, mjcfName: mjcfSafe(name) };
}

/** A location standing beside the table: a plain post under it down to the floor (seen, never touched). */
function onStand(o: ObjectSpec): ObjectSpec {
  const post: PartSpec = { shape: 'box', size: [0.03, 0.03, TABLE_TOP_Z / 2], pos: [0, 0, -o.size[2] / 2 - TABLE_TOP_Z / 2], rgba: [0.35, 0.35, 0.37, 1], visual: true };
  const parts: PartSpec[] = o.parts ?? [{ shape: 'box', size: o.size.map((v) => v / 2) }];
  return { ...o, parts: [...parts, post] };
}

/** The iiwa's dining objects in scene order (the same labels and order as acScenes.ts), the lamp only in the lamp scene. */
export function iiwaDiningObjects(withLamp: boolean): ObjectSpec[] {
  const objects = [
    onStand(container(L.bin, 'red', [0.2, 0.2, 0.16], { fixed: true, wallM: 0.01 })),
    onStand(sink(L.sink, 'white')),
    onStand(shelf(L.shelf, 'brown')),
    sphere(L.apple, 'red', 0.05, 0.2),
    sphere(L.eaten, 'yellow', 0.048, 0.15),
    named(glass('glass', 'cyan', 0.045, 0.24, true, 0.008), L.full),
    named(glass('glass', 'cyan', 0.045, 0.24, false, 0.008), L.empty),
    // 10 x 10 x 9 cm (the authors' paper_ball.obj).
    crumpledPaper(L.paper1, [2.1, 2.1, 2.3]),
    crumpledPaper(L.paper2, [2.1, 2.1, 2.3]),
  ];
  if (withLamp) objects.push(overheadLamp(L.lamp, 'black', 0.3, [0, 0.09]));
  return objects;
}

/** The authors' places of the table items, in this frame. */
const ITEMS: Record<string, Xy> = {
  [L.full]: [0, -0.04],
  [L.empty]: [0.42, 0.11],
  [L.apple]: [0.45, -0.1],
  [L.eaten]: [0.1, 0.2],
  [L.paper1]: [-0.45, -0.1],
  [L.paper2]: [-0.5, 0.1],
};

/** Beside the robot: the trash can on its left, the shelf on its right, the sink behind it on the right. */
const SLOTS: { xy: Xy; yaw: number }[] = [
  { xy: [-0.62, -0.55], yaw: 0 },
  { xy: [0.62, -0.55], yaw: 0 },
  { xy: [0.5, -1.0], yaw: 0 },
];

function byName(objects: ObjectSpec[], name: string): ObjectSpec {
  return objects.find((o) => o.name === name)!;
}

function placeLocations(l: LayoutBuilder, objects: ObjectSpec[], shuffle: boolean): void {
  const order = shuffle ? l.shuffle([L.bin, L.shelf, L.sink]) : [L.bin, L.shelf, L.sink];
  order.forEach((name, i) => l.at(byName(objects, name), [SLOTS[i]!.xy[0] + l.uniform(-0.01, 0.01), SLOTS[i]!.xy[1] + l.uniform(-0.01, 0.01)], SLOTS[i]!.yaw));
}

/** The authors' table, each item moved by up to 1.5 cm and turned; with `lamp` the lamp hangs over the half-eaten apple. */
export function iiwaDiningLayout(l: LayoutBuilder, objects: ObjectSpec[], o: { lamp?: boolean } = {}): void {
  placeLocations(l, objects, false);
  for (const [name, xy] of Object.entries(ITEMS)) l.at(byName(objects, name), [xy[0] + l.uniform(-0.015, 0.015), xy[1] + l.uniform(-0.015, 0.015)], l.uniform(-Math.PI, Math.PI));
  if (o.lamp) {
    const eaten = l.placements(objects.filter((x) => x.name === L.eaten))[0]!.pos;
    // The shade over the apple, its pole behind it (away from the robot).
    l.at(byName(objects, L.lamp), [eaten[0], eaten[1]], 0, { z: TABLE_TOP_Z + 0.155 });
  }
}

/** Randomised (IV-F b): places shuffled, the table items scattered where the arm reaches them from the side and the top. */
export function iiwaScatteredLayout(l: LayoutBuilder, objects: ObjectSpec[]): void {
  placeLocations(l, objects, true);
  const band = (x: number, y: number) => {
    const d = Math.hypot(x - BASE[0], y - BASE[1]);
    return d > 0.6 && d < 0.84;
  };
  for (const name of [L.full, L.eaten, L.empty, L.apple, L.paper1, L.paper2]) l.scatter(byName(objects, name), { x: [-0.55, 0.5], y: [-0.2, 0.24] }, { gapM: 0.06, yawRange: [-Math.PI, Math.PI], accept: band });
}

// move_rope (RoCoBench Move Rope): Alice (UR5E + Robotiq gripper) and Bob (Franka Panda) face each other; a rope
// (MuJoCo's composite cable: 16 capsules with damped ball joints) lies on the near side of a low wall. They must
// lift it together by its ends, over the wall, and lay it into the groove behind it. Every move carries a PATH
// of four waypoints (RoCo's code forces paths for this task); the robots see the rope's ends, the wall's top
// corners and the groove's ends (shared observation). Success: every segment of the rope inside the groove's
// slot, released, at rest.
import { mjcfSafe, type ObjectSpec } from '../../scene/sceneSpec.js';
import { rgbaOf } from '../sceneObjects.js';
import { find, held, onArea, verdict, type ViewObject } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { TABLE_TOP_Z } from '../tabletopCommon.js';
import { armsFacing, FACING_WORKSPACE, multiArmScene, PANDA, UR5E_ROBOTIQ } from './multiArmCommon.js';

const ROPE_LENGTH_M = 0.5;
const SEGMENTS = 16;
const ROPE_RADIUS_M = 0.012;
const WALL = { lengthM: 0.62, thicknessM: 0.03, heightM: 0.07 };
/** The groove: two rails with a slot between them. */
const GROOVE = { lengthM: 0.56, slotM: 0.07, railM: 0.02, heightM: 0.025 };
const GROOVE_Y = 0.24;
const WALL_Y = 0.05;

/** A point inside the groove's slot: between the rails, along its length, below the rails' tops. */
function inSlot(p: readonly number[], groove: ViewObject): boolean {
  return Math.abs(p[1]! - groove.pos[1]) <= GROOVE.slotM / 2 + 0.006 && Math.abs(p[0]! - groove.pos[0]) <= GROOVE.lengthM / 2 + 0.01 && p[2]! < TABLE_TOP_Z + GROOVE.heightM;
}

export function moveRopeTask(): TaskDefinition {
  const seg = ROPE_LENGTH_M / SEGMENTS;
  const prefix = 'rope_';
  const ropeColor = rgbaOf('orange');
  // Each end is one segment; its frame is reported at the segment's centre, its size that of the segment.
  const front: ObjectSpec = {
    name: 'rope_front_end',
    mjcfName: `${prefix}B_first`,
    shape: 'compound',
    size: [seg, 2 * ROPE_RADIUS_M, 2 * ROPE_RADIUS_M],
    color: 'orange',
    rgba: ropeColor,
    massKg: 0.16,
    parts: [{ shape: 'capsule', size: [ROPE_RADIUS_M, seg / 2] }],
    mount: { kind: 'cable', prefix, segments: SEGMENTS, lengthM: ROPE_LENGTH_M, radiusM: ROPE_RADIUS_M, dampingNms: 0.02, stiffnessNmpr: 0.002 },
    // A rope is soft: an arm brushing it is not a collision.
    interactive: true,
  };
  const back: ObjectSpec = { ...front, name: 'rope_back_end', mjcfName: `${prefix}B_last`, mount: { kind: 'cableEnd', cable: 'rope_front_end' } };
  const wall: ObjectSpec = {
    name: 'obstacle_wall',
    mjcfName: mjcfSafe('obstacle_wall'),
    shape: 'box',
    size: [WALL.lengthM, WALL.thicknessM, WALL.heightM],
    color: 'grey',
    rgba: rgbaOf('grey'),
    massKg: 1,
    mount: { kind: 'fixed' },
  };
  const railY = GROOVE.slotM / 2 + GROOVE.railM / 2;
  const groove: ObjectSpec = {
    name: 'groove',
    mjcfName: mjcfSafe('groove'),
    shape: 'compound',
    size: [GROOVE.lengthM, GROOVE.slotM + 2 * GROOVE.railM, GROOVE.heightM],
    color: 'brown',
    rgba: rgbaOf('brown'),
    massKg: 1,
    parts: [
      { shape: 'box', size: [GROOVE.lengthM / 2, GROOVE.railM / 2, GROOVE.heightM / 2], pos: [0, railY, 0] },
      { shape: 'box', size: [GROOVE.lengthM / 2, GROOVE.railM / 2, GROOVE.heightM / 2], pos: [0, -railY, 0] },
      { shape: 'box', size: [GROOVE.lengthM / 2, GROOVE.slotM / 2, 0.0005], pos: [0, 0, -GROOVE.heightM / 2 + 0.0005], rgba: [0.3, 0.22, 0.15, 1], visual: true },
    ],
    mount: { kind: 'fixed' },
  };
  const end = (name: string): ObjectSpec => ({
    name,
    mjcfName: mjcfSafe(name),
    shape: 'box',
    size: [0.03, GROOVE.slotM, 0.002],
    color: 'yellow',
    rgba: [...rgbaOf('yellow').slice(0, 3), 0.6] as [number, number, number, number],
    massKg: 0,
    parts: [{ shape: 'box', size: [0.015, GROOVE.slotM / 2, 0.001], visual: true }],
    mount: { kind: 'fixed' },
  });
  const left = end('groove_left_end');
  const right = end('groove_right_end');
  const objects = [front, back, wall, groove, left, right];
  const inset = 0.04;
  return {
    info: {
      id: 'move_rope',
      description: 'Two arms facing each other (UR5E + Robotiq gripper, Franka Panda) lift a rope (a MuJoCo composite cable) by its ends over a wall and lay it into a groove, with coordinated four-point paths.',
      instruction: 'Move the rope over the obstacle_wall and put it into the groove: rope_front_end onto groove_left_end and rope_back_end onto groove_right_end.',
      suite: 'multi-arm',
      arms: 2,
      imitates: 'RoCo / RoCoBench Move Rope',
    },
    workspace: FACING_WORKSPACE,
    defaultApi: 'roco',
    apis: ['roco'],
    multiArm: {
      robots: [
        { name: 'Alice', reachX: [-0.6, 0.6], reachText: 'either end of the rope and the whole groove', standsText: 'on the left side of the table' },
        { name: 'Bob', reachX: [-0.6, 0.6], reachText: 'either end of the rope and the whole groove', standsText: 'on the right side of the table' },
      ],
      observation: 'shared',
      path: 'required',
      pathPoints: 4,
      pathStdMaxM: 0.3, // RoCo's task_rope.py waypoint_std_threshold
      rules: ['Every PICK and PLACE needs a PATH of exactly four (x, y, z) waypoints from your gripper to above the target; the last one is the target.'],
      strategy: [
        'Each robot PICKs one end of the rope; then both PLACE their ends on the groove ends in the same round, carrying the rope over the wall together.',
        'Keep the rope high enough to clear the wall, and keep the two ends about a rope length apart (0.5 m) so it is not stretched.',
      ],
      facts(view) {
        const w = find(view, 'obstacle_wall');
        const g = find(view, 'groove');
        const l = find(view, 'groove_left_end');
        const r = find(view, 'groove_right_end');
        const top = w.pos[2] + w.size[2] / 2;
        const f3 = (p: number[]) => `(${p.map((v) => v.toFixed(2)).join(', ')})`;
        return [
          `obstacle_wall's top corners are at ${f3([w.pos[0] - w.size[0] / 2, w.pos[1], top])} and ${f3([w.pos[0] + w.size[0] / 2, w.pos[1], top])}`,
          `the groove's slot runs from groove_left_end ${f3(l.pos)} to groove_right_end ${f3(r.pos)}, ${GROOVE.slotM.toFixed(3)} m wide, ${(g.size[2]).toFixed(3)} m deep`,
        ];
      },
      // The slot's floor is the table, so the generic relation calls an end lying in the groove "on the table".
      relation(view, name) {
        if (name !== 'rope_front_end' && name !== 'rope_back_end') return undefined;
        const o = find(view, name);
        if (!inSlot(o.pos, find(view, 'groove'))) return undefined;
        const end = ['groove_left_end', 'groove_right_end'].find((e) => onArea(o, find(view, e)));
        return end ? `${name} is on ${end}` : `${name} is in the groove`;
      },
    },
    locations: [
      { name: 'groove_left_end', kind: 'surface', single: true, dropM: 0.02 },
      { name: 'groove_right_end', kind: 'surface', single: true, dropM: 0.02 },
    ],
    scene: multiArmScene('move-rope', armsFacing(['Alice', 'Bob'], [UR5E_ROBOTIQ, PANDA]), objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const gx = l.uniform(-0.03, 0.03);
      l.at(wall, [l.uniform(-0.02, 0.02), WALL_Y]);
      l.at(groove, [gx, GROOVE_Y], 0, { z: TABLE_TOP_Z + GROOVE.heightM / 2 });
      l.at(left, [gx - GROOVE.lengthM / 2 + inset, GROOVE_Y], 0, { z: TABLE_TOP_Z + 0.001 });
      l.at(right, [gx + GROOVE.lengthM / 2 - inset, GROOVE_Y], 0, { z: TABLE_TOP_Z + 0.001 });
      // The rope lies straight along x on the near side: its first segment starts at the placement.
      const x0 = -ROPE_LENGTH_M / 2 + l.uniform(-0.03, 0.03);
      const y0 = l.uniform(-0.2, -0.12);
      l.at(front, [x0, y0], l.uniform(-0.06, 0.06), { z: TABLE_TOP_Z + ROPE_RADIUS_M + 0.001 });
      l.attached(back);
      return l.placements(objects);
    },
    check(view) {
      const g = find(view, 'groove');
      const links = find(view, 'rope_front_end').links ?? [];
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      const inside = links.filter((p) => inSlot(p, g));
      if (inside.length < links.length) problems.push(`${inside.length} of ${links.length} rope segments in the groove's slot`);
      const moving = ['rope_front_end', 'rope_back_end'].filter((n) => find(view, n).linearSpeed > 0.02);
      if (moving.length > 0) problems.push(`still moving: ${moving.join(', ')}`);
      return verdict('move_rope', problems, `all ${links.length} rope segments lie in the groove`);
    },
  };
}

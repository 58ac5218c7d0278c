// move_lonely_object (LM Trajectory Generators: "move the lonely object to the others"): three blocks stand close
// together and a fourth stands alone, which one by the seed. Success: the block that started farthest from the
// rest ends within 10 cm of another block and within 12 cm of their centroid, on the table, released; the others
// moved < 2 cm.
import { block } from '../tabletopCommon.js';
import { find, held, onTable, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { movedFromStart, startPoses, startPosesMonitor } from './startPoses.js';

export function moveLonelyObjectTask(): TaskDefinition {
  const blocks = ['red', 'green', 'blue', 'yellow'].map((c) => block(c, 0.045));
  return {
    info: {
      id: 'move_lonely_object',
      description: 'Three blocks stand together and one stands apart; move the lone one next to the others.',
      instruction: 'move the lonely object to the others',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: move the lonely object to the others',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg'],
    scene: singleArmScene('move-lonely-object', blocks),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const order = l.shuffle(blocks);
      const side = l.pick([-1, 1]);
      const c: [number, number] = [side * l.uniform(0.1, 0.15), l.uniform(0.12, 0.2)];
      const a0 = l.uniform(0, 2 * Math.PI);
      for (let k = 0; k < 3; k++) l.at(order[k]!, [c[0] + 0.045 * Math.cos(a0 + (2 * Math.PI * k) / 3), c[1] + 0.045 * Math.sin(a0 + (2 * Math.PI * k) / 3)], l.uniform(-0.5, 0.5));
      l.at(order[3]!, [-side * l.uniform(0.12, 0.2), l.uniform(0.0, 0.3)], l.uniform(-0.5, 0.5));
      return l.placements(blocks);
    },
    monitor: () => startPosesMonitor(),
    check(view) {
      const start = startPoses(view);
      if (!start) return verdict('move_lonely_object', ['nothing moved: the lonely block is still apart'], '');
      const spread = (name: string) => blocks.filter((b) => b.name !== name).reduce((s, b) => s + Math.hypot(start[b.name]!.pos[0] - start[name]!.pos[0], start[b.name]!.pos[1] - start[name]!.pos[1]), 0);
      const lonely = blocks.reduce((a, b) => (spread(a.name) >= spread(b.name) ? a : b)).name;
      const others = blocks.filter((b) => b.name !== lonely).map((b) => find(view, b.name));
      const o = find(view, lonely);
      const cx = others.reduce((s, b) => s + b.pos[0], 0) / others.length;
      const cy = others.reduce((s, b) => s + b.pos[1], 0) / others.length;
      const toCentroid = Math.hypot(o.pos[0] - cx, o.pos[1] - cy);
      const nearest = Math.min(...others.map((b) => Math.hypot(o.pos[0] - b.pos[0], o.pos[1] - b.pos[1])));
      const problems: string[] = [];
      if (held(view).includes(lonely)) problems.push(`the ${lonely} is still held`);
      if (toCentroid > 0.12 || nearest > 0.1) problems.push(`the ${lonely} is ${toCentroid.toFixed(3)} m from the others' centre and ${nearest.toFixed(3)} m from the nearest (limits 0.12, 0.1)`);
      if (!onTable(o, view)) problems.push(`the ${lonely} is not standing on the table`);
      for (const b of others) if (movedFromStart(view, b.name) > 0.02) problems.push(`the ${b.name} was moved`);
      return verdict('move_lonely_object', problems, `the ${lonely} stands ${nearest.toFixed(3)} m from the nearest of the others`);
    },
  };
}

// make_sandwich (RoCoBench Make Sandwich): Dave reaches the left side, Chad the right; the cutting board in
// the middle is reachable by both. The seed picks a recipe; the ingredients must be stacked on the board in
// its order, bottom first, one PUT per round (plan rules). Each robot sees only its side and the board.
import { cube, targetArea } from '../sceneObjects.js';
import { atRest, find, held, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import type { TaskDefinition, TaskView } from '../taskDefinition.js';
import { armsInRow, HUMANOID_SUCTION, MULTI_ARM_WORKSPACE, multiArmScene, UR5E_SUCTION } from './multiArmCommon.js';

const H = 0.035;
export const RECIPES: Record<string, string[]> = {
  vegetarian: ['bread_slice1', 'lettuce', 'tomato', 'bread_slice2'],
  ham: ['bread_slice1', 'ham', 'cheese', 'bread_slice2'],
  cheese: ['bread_slice2', 'cheese', 'tomato', 'bread_slice1'],
};
const LEFT = ['bread_slice1', 'lettuce', 'ham'];
const RIGHT = ['bread_slice2', 'cheese', 'tomato'];
const COLORS: Record<string, string> = { bread_slice1: 'brown', bread_slice2: 'brown', lettuce: 'green', ham: 'pink', cheese: 'yellow', tomato: 'red' };

function recipeOf(view: TaskView): string[] {
  return RECIPES[String(view.goal?.params['recipe'] ?? 'vegetarian')]!;
}

/** How many recipe items already stand on the board in order (from the bottom). */
export function stackedSoFar(view: TaskView, recipe: string[]): number {
  const board = find(view, 'cutting_board');
  let n = 0;
  for (const name of recipe) {
    const o = find(view, name);
    const z = board.pos[2] + board.size[2] / 2 + (n + 0.5) * H;
    if (Math.hypot(o.pos[0] - board.pos[0], o.pos[1] - board.pos[1]) > 0.03 || Math.abs(o.pos[2] - z) > 0.012) break;
    n++;
  }
  return n;
}

export function makeSandwichTask(): TaskDefinition {
  const board = { ...targetArea('cutting_board', 'brown', 0.14), parts: [{ shape: 'box' as const, size: [0.07, 0.07, 0.005] }], size: [0.14, 0.14, 0.01] as [number, number, number] };
  const food = [...LEFT, ...RIGHT].map((n) => ({ ...cube(n, COLORS[n]!, 0.06), size: [0.06, 0.06, H] as [number, number, number], massKg: 0.05 }));
  const objects = [board, ...food];
  return {
    info: {
      id: 'make_sandwich',
      description: 'Two robots with suction grippers (left: Dave, a humanoid; right: Chad, a UR5E) stack four ingredients on a shared cutting board in the recipe\'s order, one PUT per round.',
      instruction: 'Make a sandwich on the cutting_board: stack bread_slice1, lettuce, tomato, bread_slice2 from the bottom up.',
      suite: 'multi-arm',
      arms: 2,
      imitates: 'RoCo / RoCoBench Make Sandwich',
    },
    workspace: MULTI_ARM_WORKSPACE,
    defaultApi: 'roco',
    apis: ['roco'],
    multiArm: {
      robots: [
        { name: 'Dave', reachX: [-0.6, 0.1] },
        { name: 'Chad', reachX: [-0.1, 0.6] },
      ],
      observation: 'partial',
      rules: ['PICK only the next item of the recipe, and only with an empty gripper.', 'Only one robot can PUT each round.', 'PUT each item on the one below it (the first on cutting_board).'],
    },
    locations: [{ name: 'cutting_board', kind: 'surface', single: true }],
    scene: multiArmScene('make-sandwich', armsInRow(['Dave', 'Chad'], 0.6, [HUMANOID_SUCTION, UR5E_SUCTION]), objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      l.at(board, [0, l.uniform(0.22, 0.28)], 0, { z: 0.75 + 0.005 });
      for (const f of food) l.scatter(f, { x: LEFT.includes(f.name) ? [-0.45, -0.18] : [0.18, 0.45], y: [-0.02, 0.25] }, { gapM: 0.05, yawRange: [-0.3, 0.3] });
      return l.placements(objects);
    },
    goal(rng) {
      const names = Object.keys(RECIPES);
      const recipe = names[Math.floor(rng.next() * names.length)]!;
      return { instruction: `Make a sandwich on the cutting_board: stack ${RECIPES[recipe]!.join(', ')} from the bottom up.`, params: { recipe } };
    },
    planRules(plan, view) {
      const puts = plan.filter((a) => a.verb === 'PLACE');
      if (puts.length > 1) return 'only one robot can PUT each round';
      const recipe = recipeOf(view);
      const n = stackedSoFar(view, recipe);
      for (const p of puts) {
        if (p.object !== recipe[n]) return `the next item on the sandwich is ${recipe[n] ?? 'nothing (it is done)'}, not ${p.object}`;
        const below = n === 0 ? 'cutting_board' : recipe[n - 1]!;
        if (p.target !== below) return `${p.object} goes on ${below}, not on ${p.target}`;
      }
      return null;
    },
    check(view) {
      const recipe = recipeOf(view);
      const n = stackedSoFar(view, recipe);
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      if (n < recipe.length) problems.push(`${n} of ${recipe.length} layers in order (next: ${recipe[n]})`);
      const board = find(view, 'cutting_board');
      const extra = food.filter((f) => !recipe.includes(f.name) && Math.hypot(find(view, f.name).pos[0] - board.pos[0], find(view, f.name).pos[1] - board.pos[1]) < 0.07);
      if (extra.length > 0) problems.push(`not in the recipe but on the board: ${extra.map((f) => f.name).join(', ')}`);
      const moving = recipe.filter((r) => !atRest(find(view, r)));
      if (moving.length > 0) problems.push(`still moving: ${moving.join(', ')}`);
      return verdict('make_sandwich', problems, `the sandwich is stacked in order: ${recipe.join(', ')}`);
    },
  };
}

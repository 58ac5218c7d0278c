// make_sandwich (RoCoBench Make Sandwich): Dave reaches the left side, Chad the right; the cutting board in
// the middle is reachable by both. Eight food items, four on each side as RoCo's code lays them out; the seed
// picks one of the code's recipes (bacon, vegetarian, beef_patty, ham) and shuffles its middle items, as the code
// does; the items must be stacked on the board in that order, bottom first, one PUT per round (plan rules). Each
// robot sees only its side and the board, without coordinates (App. 10.3).
import { cube, targetArea } from '../sceneObjects.js';
import { atRest, find, held, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import type { TaskDefinition, TaskView } from '../taskDefinition.js';
import { armsInRow, HUMANOID_SUCTION, MULTI_ARM_WORKSPACE, multiArmScene, UR5E_SUCTION } from './multiArmCommon.js';

const H = 0.035;
/** RoCo's code's SANDWICH_RECIPES (task_sandwich.py): five items each, the ham sandwich six. */
export const RECIPES: Record<string, string[]> = {
  bacon: ['bread_slice1', 'bacon', 'cheese', 'tomato', 'bread_slice2'],
  vegetarian: ['bread_slice1', 'cheese', 'tomato', 'cucumber', 'bread_slice2'],
  beef_patty: ['bread_slice1', 'beef_patty', 'cheese', 'tomato', 'bread_slice2'],
  ham: ['bread_slice1', 'ham', 'cheese', 'tomato', 'cucumber', 'bread_slice2'],
};
// The code's food list split in half: the first four on the left (Dave's) side, the rest on the right.
const LEFT = ['bread_slice1', 'bread_slice2', 'bacon', 'cheese'];
const RIGHT = ['tomato', 'cucumber', 'ham', 'beef_patty'];
const COLORS: Record<string, string> = { bread_slice1: 'brown', bread_slice2: 'brown', bacon: 'red', cheese: 'yellow', tomato: 'red', cucumber: 'green', ham: 'pink', beef_patty: 'brown' };

function recipeOf(view: TaskView): string[] {
  const order = view.goal?.params['order'];
  return Array.isArray(order) ? (order as string[]) : RECIPES[String(view.goal?.params['recipe'] ?? 'vegetarian')]!;
}

/** The task sentence as RoCo's code gives it (describe_task_context). */
const instructionOf = (recipe: string, order: string[]) =>
  `Make a ${recipe}_sandwich. Food items must be stacked following this order: ${order.join(', ')}, where bread_slice1 must be PUT on cutting_board.`;

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
      description: 'Two robots with suction grippers (left: Dave, a humanoid; right: Chad, a UR5E) stack a recipe\'s five or six items (of eight on the table) on a shared cutting board in its order, one PUT per round.',
      instruction: instructionOf('vegetarian', RECIPES['vegetarian']!),
      suite: 'multi-arm',
      arms: 2,
      imitates: 'RoCo / RoCoBench Make Sandwich',
    },
    workspace: MULTI_ARM_WORKSPACE,
    defaultApi: 'roco',
    apis: ['roco'],
    multiArm: {
      robots: [
        { name: 'Dave', reachX: [-0.6, 0.1], reachText: 'food on the left side of the table and the cutting_board', standsText: 'on the left side of the table' },
        { name: 'Chad', reachX: [-0.1, 0.6], reachText: 'food on the right side of the table and the cutting_board', standsText: 'on the right side of the table' },
      ],
      observation: 'partial',
      // App. 10.3: the robot's own gripper state and the food on its side and on the board, no positions.
      coordinates: false,
      relation(view, name) {
        if (!COLORS[name]) return undefined;
        const o = find(view, name);
        const b = find(view, 'cutting_board');
        const onBoard = Math.abs(o.pos[0] - b.pos[0]) < b.size[0] / 2 + 0.02 && Math.abs(o.pos[1] - b.pos[1]) < b.size[1] / 2 + 0.02;
        // On the table: by side, as RoCo's code says it ("bacon: on left side").
        return !onBoard && Math.abs(o.pos[2] - H / 2 - view.tableTopZ) < 0.012 ? `${name} is on the ${o.pos[0] < 0 ? 'left' : 'right'} side` : undefined;
      },
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
      // The code shuffles the items between the two bread slices.
      const middle = RECIPES[recipe]!.slice(1, -1);
      for (let i = middle.length - 1; i > 0; i--) {
        const j = Math.floor(rng.next() * (i + 1));
        [middle[i], middle[j]] = [middle[j]!, middle[i]!];
      }
      const order = ['bread_slice1', ...middle, 'bread_slice2'];
      return { instruction: instructionOf(recipe, order), params: { recipe, order } };
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

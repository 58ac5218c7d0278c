// Scripted (non-LLM) RoCo rounds for the multi-arm tasks: each round writes one EXECUTE block (an action per
// robot) from the observation, the way the dialog agents would agree on one, and sends it to execute_plan.
import assert from 'node:assert/strict';
import type { Simulator } from '../../../../../../src/core/sim/simulator.js';
import type { ObjectState, WorldState } from '../../../../../../src/protocol/trace.js';

export async function round(sim: Simulator, lines: string[]): Promise<string> {
  const r = await sim.call('execute_plan', [`EXECUTE\n${lines.join('\n')}`]);
  assert.equal(r.ok, true);
  const out = r.ok ? (r.output ?? '') : '';
  assert.equal((r as { value?: unknown }).value, true, out);
  return out;
}

const find = (s: WorldState, name: string): ObjectState => s.objects.find((o) => o.name === name)!;

/** Robots with nothing to do step back over their base, out of the shared panels' way. */
const HOME: Record<string, [number, number, number]> = { Alice: [-0.45, 0.0, 1.0], Bob: [0, 0.0, 1.0], Chad: [0.45, 0.0, 1.0] };
const idle = (robot: string) => `NAME ${robot} ACTION MOVE (${HOME[robot]!.join(', ')})`;

/**
 * sort_cubes: a shortest sequence of single moves (a robot carries one cube between two panels it reaches, onto
 * a free panel) found by breadth-first search over where the cubes are; each move is a PICK round and a PLACE
 * round while the other robots step back over their bases.
 */
export async function sortCubes(sim: Simulator): Promise<void> {
  const cubes = ['blue_square', 'pink_polygon', 'yellow_trapezoid'];
  const goal = [2, 4, 6];
  const zones: Record<string, number[]> = { Alice: [1, 2, 3], Bob: [3, 4, 5], Chad: [5, 6, 7] };
  const robots = Object.keys(zones);
  const panelOf = (x: number) => Math.round((x + 0.51) / 0.17) + 1;
  const s = (await sim.observe()).state;
  const start = cubes.map((c) => panelOf(find(s, c).pos[0]));
  type Move = { robot: string; cube: number; to: number };
  const key = (p: number[]) => p.join(',');
  const prev = new Map<string, { from: string; move: Move } | null>([[key(start), null]]);
  const queue = [start];
  while (queue.length > 0) {
    const p = queue.shift()!;
    if (key(p) === key(goal)) break;
    for (const robot of robots)
      for (let c = 0; c < cubes.length; c++)
        for (const to of zones[robot]!) {
          if (!zones[robot]!.includes(p[c]!) || p.includes(to)) continue;
          const q = p.map((v, i) => (i === c ? to : v));
          if (!prev.has(key(q))) {
            prev.set(key(q), { from: key(p), move: { robot, cube: c, to } });
            queue.push(q);
          }
        }
  }
  assert.ok(prev.has(key(goal)), 'sort_cubes: no sequence of moves sorts the cubes');
  const moves: Move[] = [];
  for (let k = key(goal); prev.get(k); k = prev.get(k)!.from) moves.unshift(prev.get(k)!.move);
  for (const m of moves) {
    const others = robots.filter((r) => r !== m.robot).map(idle);
    await round(sim, [`NAME ${m.robot} ACTION PICK ${cubes[m.cube]}`, ...others]);
    await round(sim, [`NAME ${m.robot} ACTION PLACE ${cubes[m.cube]} panel${m.to}`, ...others]);
  }
  await round(sim, robots.map(idle));
}

const homeOf = (robot: string, homes: Record<string, [number, number, number]>) => `NAME ${robot} ACTION MOVE (${homes[robot]!.join(', ')})`;
const f2 = (v: number) => v.toFixed(3);
/** Four evenly spaced waypoints from `from` to `to` (the last is `to`), as RoCo's PATH. */
export function pathTo(from: readonly number[], to: readonly number[]): string {
  const pts = [1, 2, 3, 4].map((k) => `(${[0, 1, 2].map((i) => f2(from[i]! + (k / 4) * (to[i]! - from[i]!))).join(', ')})`);
  return `PATH [${pts.join(', ')}]`;
}
const gripperOf = (s: WorldState, robot: string) => s.robots!.find((r) => r.name === robot)!.pos;

/**
 * pack_grocery: the robot on an item's half packs it (PICK, then PLACE on its own spot of the bin), each move with
 * a four-point PATH from its gripper to 12 cm above the target; the other robot waits.
 */
export async function packGrocery(sim: Simulator): Promise<void> {
  const first = (await sim.observe()).state;
  const bin = find(first, 'bin');
  const spots: [number, number][] = [[-0.075, -0.045], [0.075, -0.045], [-0.075, 0.045], [0.075, 0.045]];
  const names = ['apple', 'banana', 'milk', 'soda_can'];
  const homes: Record<string, [number, number, number]> = { Alice: [-0.3, -0.1, 1.05], Bob: [0.3, -0.1, 1.05] };
  // The robot not packing steps back to its side (with a PATH: every move needs one here), or waits there.
  const idle = (s: WorldState, robot: string) => {
    const g = gripperOf(s, robot);
    const h = homes[robot]!;
    return Math.hypot(g[0] - h[0], g[1] - h[1], g[2] - h[2]) < 0.05 ? `NAME ${robot} ACTION WAIT` : `NAME ${robot} ACTION MOVE (${h.join(', ')}) ${pathTo(g, h)}`;
  };
  for (const [k, name] of names.entries()) {
    let s = (await sim.observe()).state;
    const o = find(s, name);
    const robot = o.pos[0] < 0 ? 'Alice' : 'Bob';
    const other = robot === 'Alice' ? 'Bob' : 'Alice';
    const top = o.pos[2] + o.size[2] / 2;
    await round(sim, [`NAME ${robot} ACTION PICK ${name} ${pathTo(gripperOf(s, robot), [o.pos[0], o.pos[1], top + 0.12])}`, idle(s, other)]);
    s = (await sim.observe()).state;
    const spot = spots[k]!;
    await round(sim, [`NAME ${robot} ACTION PLACE ${name} bin ${pathTo(gripperOf(s, robot), [bin.pos[0] + spot[0], bin.pos[1] + spot[1], bin.pos[2] + 0.25])}`, idle(s, other)]);
  }
}

/** make_sandwich: the recipe in the instruction, each layer by the robot on whose side the item lies. */
export async function makeSandwich(sim: Simulator, instruction: string): Promise<void> {
  const recipe = /stacked following this order: (.+?), where/.exec(instruction)![1]!.split(', ');
  const homes: Record<string, [number, number, number]> = { Dave: [-0.3, 0.0, 1.0], Chad: [0.3, 0.0, 1.0] };
  let below = 'cutting_board';
  for (const item of recipe) {
    const s = (await sim.observe()).state;
    const robot = find(s, item).pos[0] < 0 ? 'Dave' : 'Chad';
    const other = robot === 'Dave' ? 'Chad' : 'Dave';
    await round(sim, [`NAME ${robot} ACTION PICK ${item}`, homeOf(other, homes)]);
    await round(sim, [`NAME ${robot} ACTION PUT ${item} ${below}`, homeOf(other, homes)]);
    await round(sim, [homeOf('Dave', homes), homeOf('Chad', homes)]);
    below = item;
  }
}

/** handover: Alice picks the wrench by its near end and holds it out; Bob takes the free end and puts it away. */
export async function handover(sim: Simulator): Promise<void> {
  const homes: Record<string, [number, number, number]> = { Alice: [-0.4, 0.0, 1.0], Bob: [0.4, 0.0, 1.0] };
  await round(sim, ['NAME Alice ACTION PICK wrench', 'NAME Bob ACTION WAIT']);
  await round(sim, ['NAME Alice ACTION MOVE (-0.12, 0.15, 0.95)', 'NAME Bob ACTION WAIT']);
  const out = await round(sim, ['NAME Alice ACTION WAIT', 'NAME Bob ACTION PICK wrench']);
  assert.match(out, /Alice handed wrench over to Bob/);
  await round(sim, [homeOf('Alice', homes), 'NAME Bob ACTION PLACE wrench toolbox']);
  await round(sim, [homeOf('Alice', homes), homeOf('Bob', homes)]);
}

/**
 * sweep_floor: for each cube both robots MOVE to it (dustpan before it, broom behind it), Bob SWEEPs it in while
 * Alice WAITs; then Bob steps aside and Alice DUMPs the dustpan into the trash bin.
 */
export async function sweepFloor(sim: Simulator): Promise<void> {
  for (const c of ['red_cube', 'green_cube', 'blue_cube']) {
    await round(sim, [`NAME Alice ACTION MOVE ${c}`, `NAME Bob ACTION MOVE ${c}`]);
    await round(sim, ['NAME Alice ACTION WAIT', `NAME Bob ACTION SWEEP ${c}`]);
  }
  await round(sim, ['NAME Alice ACTION WAIT', 'NAME Bob ACTION MOVE (0.25, 0.05, 1.05)']);
  await round(sim, ['NAME Alice ACTION DUMP', 'NAME Bob ACTION WAIT']);
}

/**
 * move_rope: the robot on each end's side PICKs it (both in one round), then both PLACE their ends on the groove's
 * ends in the same round, each with a four-point PATH to 20 cm above its groove end: over the wall together.
 */
export async function moveRope(sim: Simulator): Promise<void> {
  let s = (await sim.observe()).state;
  const front = find(s, 'rope_front_end');
  const back = find(s, 'rope_back_end');
  const [rf, rb] = front.pos[0] < back.pos[0] ? ['Alice', 'Bob'] : ['Bob', 'Alice'];
  const above = (o: ObjectState, dz: number) => [o.pos[0], o.pos[1], o.pos[2] + dz];
  await round(sim, [`NAME ${rf} ACTION PICK rope_front_end ${pathTo(gripperOf(s, rf), above(front, 0.12))}`, `NAME ${rb} ACTION PICK rope_back_end ${pathTo(gripperOf(s, rb), above(back, 0.12))}`]);
  s = (await sim.observe()).state;
  await round(sim, [
    `NAME ${rf} ACTION PLACE rope_front_end groove_left_end ${pathTo(gripperOf(s, rf), above(find(s, 'groove_left_end'), 0.2))}`,
    `NAME ${rb} ACTION PLACE rope_back_end groove_right_end ${pathTo(gripperOf(s, rb), above(find(s, 'groove_right_end'), 0.2))}`,
  ]);
}

/**
 * arrange_cabinet: Alice and Bob OPEN their doors in one round and hold them (WAIT) while Chad takes each cup out
 * (PICK) and puts it on its coaster (PLACE).
 */
export async function arrangeCabinet(sim: Simulator, instruction: string): Promise<void> {
  const goals = [...instruction.matchAll(/(\w+) (?:goes )?on (\w+_coaster)/g)].map((m) => [m[1]!, m[2]!] as const);
  await round(sim, ['NAME Alice ACTION OPEN left_door_handle', 'NAME Bob ACTION OPEN right_door_handle', 'NAME Chad ACTION WAIT']);
  for (const [cup, coaster] of goals) {
    await round(sim, ['NAME Alice ACTION WAIT', 'NAME Bob ACTION WAIT', `NAME Chad ACTION PICK ${cup}`]);
    await round(sim, ['NAME Alice ACTION WAIT', 'NAME Bob ACTION WAIT', `NAME Chad ACTION PLACE ${cup} ${coaster}`]);
  }
}

export const ROCO_SOLUTIONS: Record<string, (sim: Simulator, instruction: string) => Promise<void>> = {
  sort_cubes: sortCubes,
  pack_grocery: packGrocery,
  make_sandwich: makeSandwich,
  sweep_floor: sweepFloor,
  move_rope: moveRope,
  arrange_cabinet: arrangeCabinet,
  handover,
};

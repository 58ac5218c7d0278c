// The reference model's Sort Cubes policy (scripted, not an LLM) on an abstract panel world: from every arrangement
// of the three cubes on the seven panels, each robot decides from its own view (its prompt names it first), the
// proposals are applied, and the cubes reach their goals with the moves left going down every round. Seed 2 of the
// task used to oscillate (Bob: yellow_trapezoid panel4 -> 5 -> 4 for ten rounds) and seed 8 had Bob and Chad claim
// the same cube.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Situation, Thing } from '../../../../../src/architectures/roco/reference/prompt.js';
import { taskPolicyFor } from '../../../../../src/architectures/roco/reference/tasks.js';

const TASK = 'Sort the cubes into their target panels. 7 panels on the table, ordered left to right: panel1, ..., panel7, a straight assembly line. The task is NOT done until all three cubes are sorted.';
const CUBES = ['blue_square', 'pink_polygon', 'yellow_trapezoid'];
const GOALS = [2, 4, 6];
const REACH: Record<string, number[]> = { Alice: [1, 2, 3], Bob: [3, 4, 5], Chad: [5, 6, 7] };
const ROBOTS = ['Alice', 'Bob', 'Chad'];
const panelX = (k: number) => -0.51 + (k - 1) * 0.17;

/** What `robot` knows once everyone has spoken: itself first, then the others (as the dialog prompt names them); every robot's goal and reach. */
function situation(robot: string, at: number[]): Situation {
  const robots = [robot, ...ROBOTS.filter((r) => r !== robot)];
  const things = new Map<string, Thing>();
  for (let k = 1; k <= 7; k++) things.set(`panel${k}`, { name: `panel${k}`, pos: [panelX(k), 0.15, 0.75], size: [0.12, 0.12, 0] });
  CUBES.forEach((c, i) => things.set(c, { name: c, pos: [panelX(at[i]!), 0.15, 0.77], relation: `is on panel${at[i]}` }));
  return {
    agent: robot, robots, task: TASK, things, facts: [],
    grippers: new Map(robots.map((r) => [r, { pos: [0, 0, 1.1], holding: null }])),
    reach: new Map(robots.map((r) => [r, REACH[r]!.map((k) => `panel${k}`).join(', ')])),
    goals: new Map(robots.map((r) => [r, `place ${CUBES[ROBOTS.indexOf(r)]} on panel${GOALS[ROBOTS.indexOf(r)]}`])), stands: new Map(), positions: true, historyMentions: new Set(),
    base: new Map(), embodiment: new Map(), verbs: ['PICK', 'PLACE', 'MOVE', 'WAIT'], combinedPick: true,
    pathRequired: false, pathPoints: 4, feedback: [], history: [], previousChat: [], chat: [], lastCall: false, central: false,
  };
}

/** Fewest single moves from `at` to the goals (breadth-first over arrangements). */
function distance(at: number[]): number {
  const key = (p: number[]) => p.join(',');
  const seen = new Map([[key(at), 0]]);
  const queue = [at];
  while (queue.length > 0) {
    const p = queue.shift()!;
    if (key(p) === key(GOALS)) return seen.get(key(p))!;
    for (const zone of Object.values(REACH))
      for (let c = 0; c < 3; c++)
        for (const to of zone) {
          if (!zone.includes(p[c]!) || p.includes(to)) continue;
          const q = p.map((v, i) => (i === c ? to : v));
          if (!seen.has(key(q))) (seen.set(key(q), seen.get(key(p))! + 1), queue.push(q));
        }
  }
  return Infinity;
}

test('Sort Cubes: from every arrangement the robots agree on moves that leave fewer to go each round, and finish', () => {
  const policy = taskPolicyFor(TASK)!;
  let arrangements = 0;
  for (let a = 1; a <= 7; a++)
    for (let b = 1; b <= 7; b++)
      for (let c = 1; c <= 7; c++) {
        if (a === b || b === c || a === c) continue;
        arrangements++;
        let at = [a, b, c];
        let left = distance(at);
        for (let round = 1; left > 0; round++) {
          const where = `from ${[a, b, c]} at round ${round} (${at})`;
          const next = [...at];
          const taken = new Set<string>();
          for (const r of ROBOTS) {
            const d = policy.decide(situation(r, at), r);
            const m = /^PICK (\w+) PLACE panel(\d)$/.exec(d.action);
            if (!m) continue;
            const i = CUBES.indexOf(m[1]!);
            const to = Number(m[2]);
            // One robot per cube and per panel in a round (the policy keeps joint motions apart), within reach, onto a free panel.
            for (const k of [m[1]!, `panel${at[i]}`, `panel${to}`]) assert.ok(!taken.has(k), `${where}: ${k} claimed twice`);
            for (const k of [m[1]!, `panel${at[i]}`, `panel${to}`]) taken.add(k);
            assert.ok(REACH[r]!.includes(at[i]!) && REACH[r]!.includes(to) && !at.includes(to), `${where}: ${r} cannot ${d.action}`);
            next[i] = to;
          }
          const now = distance(next);
          assert.ok(now < left, `${where}: the moves left went from ${left} to ${now} (${next})`);
          at = next;
          left = now;
        }
      }
  assert.equal(arrangements, 210);
});

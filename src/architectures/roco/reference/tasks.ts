// What each robot should do this round, task by task, decided from the prompt's situation only (positions,
// relations, reach, the task sentence, the feedback). `decide(s, robot)` works for the robot speaking (its own view)
// and, in the central planner, for every robot from the whole scene. Scripted, not an LLM.
import { dist, knownPos, pathTo, pathText, type Situation, type Thing, type V3 } from './prompt.js';

export interface Decision {
  /** `ACTION ...` part of the robot's plan line (without NAME). */
  action: string;
  /** One sentence of reasoning for the dialog. */
  why: string;
}

export interface TaskPolicy {
  id: string;
  matches(task: string): boolean;
  decide(s: Situation, robot: string): Decision;
  /**
   * The decision needs every robot's reach and goal (Sort Cubes plans who passes which cube): in the dialog a robot
   * proposes only once it has heard them all.
   */
  needsTeam?: boolean;
}

/** Every robot's reach (and goal, where robots have their own) is known to this agent. */
export function knowsTeam(s: Situation): boolean {
  const goals = s.goals.size > 0;
  return s.robots.every((r) => s.reach.has(r) && (!goals || s.goals.has(r)));
}

/**
 * Which side of the table the robot works from (-1 left, 1 right): its base when told, else where it stands
 * ("on the left side of the table"), else the middle of its reach interval, else its gripper.
 */
function sideOf(s: Situation, robot: string): number {
  const b = s.base.get(robot);
  if (b) return Math.sign(b[0]) || 1;
  const words = s.stands.get(robot) ?? '';
  if (/\bleft\b/.test(words)) return -1;
  if (/\bright\b/.test(words)) return 1;
  const zone = /x from (-?[\d.]+) to (-?[\d.]+)/.exec(s.reach.get(robot) ?? '');
  if (zone) return Math.sign(Number(zone[1]) + Number(zone[2])) || 1;
  return Math.sign(gripperOf(s, robot)[0]) || 1;
}

const wait = (why: string): Decision => ({ action: 'WAIT', why });
const round3 = (p: V3): V3 => p.map((v) => Math.round(v * 1000) / 1000) as V3;

/** The robot's gripper position (or a point above its base when the view does not show it). */
function gripperOf(s: Situation, robot: string): V3 {
  const g = s.grippers.get(robot)?.pos;
  if (g) return g;
  const b = s.base.get(robot);
  return b ? [b[0], b[1] + 0.35, 1.1] : [0, 0, 1.1];
}

function holding(s: Situation, robot: string): string | null {
  const g = s.grippers.get(robot);
  if (g) return g.holding;
  for (const t of s.things.values()) if (t.relation === `is held by ${robot}`) return t.name;
  return null;
}

/** A MOVE / PICK / PLACE with a PATH from the robot's gripper to `to` when the task wants paths (or always if `force`). */
function withPath(s: Situation, robot: string, action: string, to: V3): string {
  return s.pathRequired ? `${action} ${pathText(pathTo(gripperOf(s, robot), to, s.pathPoints))}` : action;
}

/** Step back to a resting point (with a PATH where the task needs one), or WAIT when already there. */
function rest(s: Situation, robot: string, point: V3, why: string): Decision {
  // Without positions in the scene (Sort Cubes as the paper tells it): back over the place the robot stands in
  // front of, where the task offers MOVE <object>; else stay.
  if (!knownPos(gripperOf(s, robot)) || !knownPos(point)) {
    const home = /^in front of (\w+)$/.exec(s.stands.get(robot) ?? '')?.[1];
    return home && s.verbs.includes('MOVE') ? { action: `MOVE ${home}`, why: `${why} I move back over ${home}, out of the others' way.` } : wait(why);
  }
  if (dist(gripperOf(s, robot), point) < 0.06) return wait(why);
  return { action: withPath(s, robot, `MOVE (${round3(point).join(', ')})`, point), why: `${why} I step back out of the way.` };
}

const top = (t: Thing) => t.pos[2] + (t.size ? t.size[2] / 2 : 0.025);

/** What the latest feedback says this robot collided with: other robots and objects. */
function collidedWith(s: Situation, robot: string): { robots: Set<string>; objects: Set<string> } {
  const robots = new Set<string>();
  const objects = new Set<string>();
  const f = s.feedback[s.feedback.length - 1] ?? '';
  const pairs = /collided object pairs: (.+)$/m.exec(f)?.[1] ?? '';
  for (const p of pairs.split(', ')) {
    const [a, b] = p.split('-');
    if (!a || !b) continue;
    const ra = a.split(' ')[0]!;
    const rb = b.split(' ')[0]!;
    for (const [me, other, whole] of [
      [ra, rb, b],
      [rb, ra, a],
    ] as const) {
      if (me !== robot) continue;
      if (s.robots.includes(other)) robots.add(other);
      else objects.add(whole.trim());
    }
  }
  return { robots, objects };
}

/** Goals of this robot that the round's feedback says have no IK solution ("IK failed: on Bob's goal (x, y, z)"). */
function unreachableGoals(s: Situation, robot: string): [number, number][] {
  const out: [number, number][] = [];
  for (const f of s.feedback) {
    for (const m of f.matchAll(new RegExp(`${robot}'s goal \\((-?[\\d.]+), (-?[\\d.]+), -?[\\d.]+\\)`, 'g'))) out.push([Number(m[1]), Number(m[2])]);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Sort Cubes: seven panels in a line, three robots each reaching three panels; cubes are passed along.

const panelNo = (name: string | undefined) => (name && /^panel(\d+)$/.test(name) ? Number(name.slice(5)) : NaN);

function sortSetup(s: Situation) {
  // Goals from the task sentence where it lists them, else each robot's own (its prompt, or what it said).
  const goals = new Map<string, number>();
  for (const text of [s.task, ...s.goals.values()]) for (const m of text.matchAll(/(\w+) (?:goes )?on panel(\d+)/g)) goals.set(m[1]!, Number(m[2]));
  const panels = [...s.things.values()].filter((t) => /^panel\d+$/.test(t.name)).sort((a, b) => panelNo(a.name) - panelNo(b.name));
  // Robots in name order: the search meets equally short sequences in this order, so every agent must list them
  // alike (each prompt names its own robot first; with that order Bob and Chad picked different sequences and
  // both claimed blue_square at seed 8).
  const reach = new Map<string, number[]>();
  for (const r of [...s.robots].sort()) reach.set(r, [...(s.reach.get(r) ?? '').matchAll(/panel(\d+)/g)].map((m) => Number(m[1])));
  const panelAt = (x: number) => panels.reduce((best, p) => (Math.abs(p.pos[0] - x) < Math.abs(best.pos[0] - x) ? p : best), panels[0]!);
  const cubes = [...goals.keys()];
  const where = new Map<string, number>();
  const heldBy = new Map<string, string>();
  for (const c of cubes) {
    const t = s.things.get(c);
    if (!t) continue;
    const holder = /is held by (\w+)/.exec(t.relation ?? '')?.[1];
    if (holder) heldBy.set(c, holder);
    const on = /is on (panel\d+)/.exec(t.relation ?? '')?.[1];
    where.set(c, on ? panelNo(on) : panels.length > 0 && knownPos(t.pos) ? panelNo(panelAt(t.pos[0]).name) : NaN);
  }
  return { goals, reach, cubes, where, heldBy };
}

interface Move {
  robot: string;
  cube: string;
  from: number;
  to: number;
}

/** Shortest sequence of single moves (a robot carries one cube between panels it reaches, onto a free one). */
function sortMoves(cubes: string[], start: Map<string, number>, goals: Map<string, number>, reach: Map<string, number[]>): Move[] {
  const key = (p: number[]) => p.join(',');
  const s0 = cubes.map((c) => start.get(c) ?? 0);
  const goal = cubes.map((c) => goals.get(c)!);
  const prev = new Map<string, { from: string; move: Move } | null>([[key(s0), null]]);
  const queue = [s0];
  while (queue.length > 0) {
    const p = queue.shift()!;
    if (key(p) === key(goal)) break;
    for (const [robot, zone] of reach)
      for (let c = 0; c < cubes.length; c++)
        for (const to of zone) {
          if (!zone.includes(p[c]!) || p.includes(to)) continue;
          const q = p.map((v, i) => (i === c ? to : v));
          if (!prev.has(key(q))) {
            prev.set(key(q), { from: key(p), move: { robot, cube: cubes[c]!, from: p[c]!, to } });
            queue.push(q);
          }
        }
  }
  if (!prev.has(key(goal))) return [];
  const moves: Move[] = [];
  for (let k = key(goal); prev.get(k); k = prev.get(k)!.from) moves.unshift(prev.get(k)!.move);
  return moves;
}

const sortCubes: TaskPolicy = {
  id: 'sort_cubes',
  needsTeam: true,
  matches: (t) => /sort the cubes/i.test(t),
  decide(s, robot) {
    const { goals, reach, cubes, where, heldBy } = sortSetup(s);
    const zone = reach.get(robot) ?? [];
    const restPoint = (): V3 => {
      const xs = zone.map((k) => s.things.get(`panel${k}`)?.pos[0] ?? 0);
      return [xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length), 0.0, 1.05];
    };
    const moves = sortMoves(cubes, where, goals, reach);
    // Every robot assigns the round the same way from the shared scene: holders place first, then the moves of the
    // sequence that can start now (below).
    const claims = new Map<string, { move: Move; kind: 'PICK' | 'PLACE' }>();
    const claimedPanels = new Set<number>();
    const occupied = new Set([...where.entries()].filter(([c]) => !heldBy.has(c)).map(([, p]) => p));
    const parallel = !s.feedback.some((f) => /Collision detected/.test(f));
    for (const [cube, holder] of heldBy) {
      const mine = reach.get(holder) ?? [];
      const free = mine.filter((p) => !occupied.has(p) && !claimedPanels.has(p));
      // The free panel within reach that leaves the fewest moves to go.
      let best: number | undefined;
      let bestLen = Infinity;
      for (const p of free) {
        const w = new Map(where);
        w.set(cube, p);
        const len = p === goals.get(cube) && [...w].every(([c, q]) => q === goals.get(c)) ? 0 : sortMoves(cubes, w, goals, reach).length;
        if (len < bestLen) {
          bestLen = len;
          best = p;
        }
      }
      if (best !== undefined) {
        claims.set(holder, { move: { robot: holder, cube, from: where.get(cube)!, to: best }, kind: 'PLACE' });
        claimedPanels.add(best);
      }
    }
    // The sequence in its order: a move starts this round only when no earlier move of the sequence touches its cube
    // or either of its panels. Such a move commutes with the earlier ones, so the rest of the sequence still works
    // after it and the sequence only gets shorter: no undoing. (Letting each robot take any move of its own let Bob
    // take a later move that undid an earlier one: yellow_trapezoid panel4 -> 5 -> 4 for ten rounds at seed 2.)
    // After a collision, one move per round: the sequence's first.
    const touched = new Set<string>();
    for (const mv of moves) {
      const independent = !touched.has(mv.cube) && !touched.has(`panel${mv.from}`) && !touched.has(`panel${mv.to}`);
      for (const k of [mv.cube, `panel${mv.from}`, `panel${mv.to}`]) touched.add(k);
      if (!parallel && (heldBy.size > 0 || claims.size > 0)) break;
      if (!independent || claims.has(mv.robot) || holding(s, mv.robot) || heldBy.has(mv.cube)) continue;
      if (where.get(mv.cube) !== mv.from || occupied.has(mv.to) || claimedPanels.has(mv.to) || claimedPanels.has(mv.from)) continue;
      claims.set(mv.robot, { move: mv, kind: 'PICK' });
      claimedPanels.add(mv.to);
      claimedPanels.add(mv.from);
    }
    const mine = claims.get(robot);
    if (!mine) {
      if (cubes.every((c) => where.get(c) === goals.get(c) && !heldBy.has(c))) return rest(s, robot, restPoint(), 'Every cube is on its panel; the task is done.');
      return rest(s, robot, restPoint(), 'No cube I can move helps this round.');
    }
    const { move, kind } = mine;
    if (kind === 'PLACE') return { action: `PLACE ${move.cube} panel${move.to}`, why: `I hold ${move.cube}; panel${move.to} is free and brings it closer to panel${goals.get(move.cube)}.` };
    const combined = s.combinedPick;
    const why = `${move.cube} is on panel${move.from}, which I reach; I carry it to panel${move.to}${move.to === goals.get(move.cube) ? ', its goal' : ` on its way to panel${goals.get(move.cube)}`}.`;
    return { action: combined ? `PICK ${move.cube} PLACE panel${move.to}` : `PICK ${move.cube}`, why };
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Pack Grocery: two robots facing each other pack the items on their half into the bin, with four-point paths.

const packGrocery: TaskPolicy = {
  id: 'pack_grocery',
  matches: (t) => /^pack the/i.test(t),
  decide(s, robot) {
    const bin = s.things.get('bin');
    const side = sideOf(s, robot);
    const restPoint: V3 = [side * 0.3, -0.1, 1.05];
    if (!bin) return wait('I cannot see the bin.');
    const held = holding(s, robot);
    const mineInBin = [...s.things.values()].filter((t) => t.relation === 'is in bin' && Math.sign(t.pos[0] - bin.pos[0]) === side).length;
    const others = s.robots.filter((r) => r !== robot);
    // After a collision between the two, the robot named later lets the other go first.
    const yielding = [...collidedWith(s, robot).robots].some((o) => o < robot);
    if (held) {
      // A free corner of the bin, on my half first; not one the last plan bumped into something at.
      // The spot of a 3 x 2 grid over the bin farthest from what is in it (and from anything the last plan hit),
      // my half breaking ties.
      const inBin = [...s.things.values()].filter((t) => t.relation === 'is in bin' || collidedWith(s, robot).objects.has(t.name));
      const hx = bin.size ? bin.size[0] / 2 - 0.07 : 0.1;
      const hy = bin.size ? bin.size[1] / 2 - 0.07 : 0.06;
      // Spots whose goal the checks found unreachable this round are left out (the others are tried instead).
      const unreachable = unreachableGoals(s, robot);
      const all: [number, number][] = [-1, 0, 1].flatMap((i) => [-1, 1].map((j) => [i * hx, j * hy] as [number, number]));
      const reachable = all.filter(([dx, dy]) => !unreachable.some(([x, y]) => Math.hypot(x - bin.pos[0] - dx, y - bin.pos[1] - dy) < 0.03));
      const spots = reachable.length > 0 ? reachable : all;
      const clearance = ([dx, dy]: [number, number]) => Math.min(1, ...inBin.map((t) => Math.hypot(t.pos[0] - bin.pos[0] - dx, t.pos[1] - bin.pos[1] - dy))) + (Math.sign(dx) === side ? 0.01 : 0);
      const pick = spots.reduce((best, sp) => (clearance(sp) > clearance(best) + 1e-9 ? sp : best), spots[mineInBin % spots.length]!);
      const spot: V3 = round3([bin.pos[0] + pick[0], bin.pos[1] + pick[1], bin.pos[2] + 0.25]);
      if (yielding) return rest(s, robot, gripperOf(s, robot), `I hold ${held} and let the others move first.`);
      return { action: withPath(s, robot, `PLACE ${held} bin`, spot), why: `I hold ${held}; I put it in my half of the bin.` };
    }
    const items = [...s.things.values()].filter((t) => !t.size && t.relation !== 'is in bin' && !/is held by/.test(t.relation ?? '') && t.name !== 'bin');
    const mine = items.filter((t) => Math.sign(t.pos[0]) === side).sort((a, b) => dist(a.pos, gripperOf(s, robot)) - dist(b.pos, gripperOf(s, robot)));
    if (mine.length === 0 || yielding) return rest(s, robot, restPoint, mine.length === 0 ? 'Nothing is left on my side.' : 'I let the other robot go first.');
    const t = mine[0]!;
    return { action: withPath(s, robot, `PICK ${t.name}`, round3([t.pos[0], t.pos[1], top(t) + 0.12])), why: `${t.name} is on my side of the table, so I pick it.` };
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Make Sandwich: the recipe's items stacked in order on the cutting board; each robot sees only its side.

function recipeOf(task: string): string[] {
  return (/stacked following this order: (.+?), where/.exec(task)?.[1] ?? /stack (.+?) from the bottom up/.exec(task)?.[1] ?? '').split(/,\s*/).filter(Boolean);
}

/** 'left' / 'right': the side of the table a robot stands on, as its prompt says it ("on the left side of the table"). */
const standSide = (s: Situation, robot: string) => /\b(left|right) side\b/.exec(s.stands.get(robot) ?? '')?.[1];

function stacked(s: Situation, recipe: string[]): number {
  let below = 'cutting_board';
  let n = 0;
  for (const item of recipe) {
    if (s.things.get(item)?.relation !== `is on ${below}`) break;
    below = item;
    n++;
  }
  return n;
}

const makeSandwich: TaskPolicy = {
  id: 'make_sandwich',
  matches: (t) => /make a (\w+_)?sandwich/i.test(t),
  decide(s, robot) {
    const recipe = recipeOf(s.task);
    const n = stacked(s, recipe);
    const next = recipe[n];
    if (!next) return wait('The sandwich is complete.');
    const held = holding(s, robot);
    const below = n === 0 ? 'cutting_board' : recipe[n - 1]!;
    const b = s.base.get(robot);
    // Back over my own side (the robots stand 0.6 m apart, the board between them).
    const restPoint: V3 = b ? [b[0], b[1] + 0.3, 1.05] : [sideOf(s, robot) * 0.3, -0.05, 1.05];
    if (held === next) return { action: `PUT ${next} ${below}`, why: `I hold ${next}, the next layer; it goes on ${below}.` };
    if (held) return wait(`I hold ${held}, which is not the next layer (${next}); I keep it for later.`);
    const t = s.things.get(next);
    // The item is this robot's if it lies on this robot's side ("tomato is on the right side"; a robot sees only its
    // own side, the Central Plan both). Told with positions, the side of the board its x is on.
    const side = /is on the (left|right) side/.exec(t?.relation ?? '')?.[1];
    const mine = t && (side ? side === (standSide(s, robot) ?? side) : /is on the table/.test(t.relation ?? '') && (!s.central || !knownPos(t.pos) || Math.sign(t.pos[0]) === sideOf(s, robot)));
    if (mine) return { action: `PICK ${next}`, why: `The next layer is ${next} and it is on my side, so I pick it.` };
    // The layer after it, if it lies on my side, I pick now, while the other robot brings the next one (the plan
    // checks, like RoCo's, only refuse picking what is already stacked).
    const after = recipe[n + 1];
    const afterSide = /is on the (left|right) side/.exec(s.things.get(after ?? '')?.relation ?? '')?.[1];
    if (after && afterSide && afterSide === standSide(s, robot)) return { action: `PICK ${after}`, why: `The next layer is ${next}, from the other side; the one after, ${after}, is on my side, so I pick it now.` };
    const why = `The next layer is ${next}; it is not on my side, so the other robot must bring it.`;
    if (!knownPos(gripperOf(s, robot))) {
      // Told no positions (App. 10.3): after my PUT my gripper is over the board, so I move back over an item on my
      // side, out of the other robot's way; otherwise I stay.
      const mySide = standSide(s, robot);
      const spot = [...s.things.values()].find((x) => mySide && x.relation === `is on the ${mySide} side`);
      const justPut = new RegExp(`NAME ${robot} ACTION (PUT|PLACE)`).test(s.history.at(-1) ?? '') || s.feedback.some((f) => new RegExp(`Collision detected.*\\b${robot}\\b`).test(f));
      return justPut && spot && s.verbs.includes('MOVE') ? { action: `MOVE ${spot.name}`, why: `${why} I move back over ${spot.name}, on my side, out of the way.` } : wait(why);
    }
    return rest(s, robot, restPoint, why);
  },
};


// ---------------------------------------------------------------------------------------------------------------
// Sweep Floor: Alice holds a dustpan, Bob a broom. One cube at a time (in the task's order): both MOVE to it, then
// Bob SWEEPs it in while Alice WAITs; when no cube is left on the table, Bob steps aside and Alice DUMPs.

/** The cubes named in the task sentence, in its order. */
const cubesOf = (task: string) => [...task.matchAll(/\b(\w+_cube)\b/g)].map((m) => m[1]!).filter((c, i, a) => a.indexOf(c) === i);

/** Where Bob steps aside to before the dump: over his own side, clear of the dustpan's way to the bin. */
const BROOM_ASIDE: V3 = [0.25, 0.05, 1.05];

const sweepFloor: TaskPolicy = {
  id: 'sweep_floor',
  matches: (t) => /^sweep up the/i.test(t),
  decide(s, robot) {
    const cubes = cubesOf(s.task);
    const pan = s.things.get('dustpan');
    const broom = s.things.get('broom');
    const panHolder = /is held by (\w+)/.exec(pan?.relation ?? '')?.[1];
    const broomHolder = /is held by (\w+)/.exec(broom?.relation ?? '')?.[1];
    if (!pan || !broom) return wait('I cannot see both tools.');
    const onTable = cubes.filter((c) => /is on the table|is at \(/.test(s.things.get(c)?.relation ?? ''));
    const inPan = cubes.filter((c) => s.things.get(c)?.relation === 'is inside dustpan');
    const next = onTable[0] ? s.things.get(onTable[0])! : null;
    if (next) {
      // Each robot is told which cube its own tool is in front of (App. 10.2 gives no tool positions): at the cube,
      // the broom sweeps and the dustpan holds still; if the other tool was not there, the plan check says so.
      const mineThere = s.grippers.get(robot)?.note === `in front of ${next.name}`;
      const toldToMove = s.feedback.some((f) => /must MOVE to it before Bob SWEEPs|must WAIT while Bob SWEEPs/.test(f));
      if (mineThere && !toldToMove) {
        if (robot === broomHolder) return { action: `SWEEP ${next.name}`, why: `My broom is behind ${next.name}; I sweep it into the dustpan.` };
        return wait(`My dustpan is in front of ${next.name}; I hold it still while ${broomHolder ?? 'the broom'} sweeps.`);
      }
      const tool = robot === panHolder ? 'the dustpan' : robot === broomHolder ? 'the broom' : 'my gripper';
      return { action: `MOVE ${next.name}`, why: `${next.name} is the next cube on the table; I bring ${tool} to it.` };
    }
    if (inPan.length === 0) return wait('No cube is left to sweep or dump.');
    // The broom holder knows its own gripper; the dustpan holder knows the broom went aside from the last executed plan.
    const own = s.grippers.get(robot)?.pos;
    const lastPlan = s.history.at(-1) ?? '';
    const broomAside = robot === broomHolder ? !!own && knownPos(own) && dist(own, BROOM_ASIDE) < 0.08 : new RegExp(`${broomHolder ?? 'Bob'}\\b.*(MOVE \\(|WAIT)`).test(lastPlan) || s.history.length === 0;
    if (robot === broomHolder) {
      if (broomAside) return wait('The cubes are in the dustpan; I keep the broom out of the way of the dump.');
      return { action: `MOVE (${BROOM_ASIDE.join(', ')})`, why: 'Every cube is in the dustpan; I lift the broom aside so the dustpan can reach the trash_bin.' };
    }
    if (robot === panHolder && broomAside) return { action: 'DUMP', why: `${inPan.join(', ')} ${inPan.length === 1 ? 'is' : 'are'} in the dustpan and the broom is clear; I empty it into the trash_bin.` };
    return wait('The broom is still next to the dustpan; I wait until it is out of the way.');
  },
};


// ---------------------------------------------------------------------------------------------------------------
// Move Rope: each robot PICKs the rope end on its side, then both PLACE their ends on the groove ends in the same
// round, every move with a four-point PATH (to 12 cm above an end, to 20 cm above a groove end: over the wall).

const moveRope: TaskPolicy = {
  id: 'move_rope',
  matches: (t) => /^move the rope over/i.test(t),
  decide(s, robot) {
    const pairs = [...s.task.matchAll(/(rope_\w+_end) onto (groove_\w+_end)/g)].map((m) => [m[1]!, m[2]!] as const);
    if (pairs.length === 0) return wait('I cannot tell which rope end goes where.');
    const side = sideOf(s, robot);
    const held = holding(s, robot);
    const others = s.robots.filter((r) => r !== robot);
    if (held) {
      const goal = pairs.find(([end]) => end === held)?.[1];
      const g = goal ? s.things.get(goal) : undefined;
      if (!goal || !g) return wait(`I hold ${held} but do not see where it goes.`);
      // Both ends move in the same round, so the rope goes over the wall without being dragged.
      const partnerHolds = others.every((o) => holding(s, o));
      if (!partnerHolds) return wait(`I hold ${held}; I wait until the other end is picked too, so we lift the rope together.`);
      return { action: withPath(s, robot, `PLACE ${held} ${goal}`, round3([g.pos[0], g.pos[1], g.pos[2] + 0.2])), why: `I hold ${held}; together we carry the rope over obstacle_wall and I lay my end on ${goal}.` };
    }
    const loose = pairs.map(([end]) => s.things.get(end)).filter((t): t is Thing => !!t && !/is held by|is on groove|is in the groove/.test(t.relation ?? ''));
    if (loose.length === 0) return wait('The rope is in the groove.');
    // The loose end on my side of the table (or the nearer one).
    const mine = loose.find((t) => Math.sign(t.pos[0]) === side) ?? (loose.length === pairs.length ? undefined : loose[0]);
    if (!mine) return wait('The other end is on my side only; I let my partner start.');
    return { action: withPath(s, robot, `PICK ${mine.name}`, round3([mine.pos[0], mine.pos[1], mine.pos[2] + 0.12])), why: `${mine.name} is on my side; I pick it up so we can lift the rope together.` };
  },
};


// ---------------------------------------------------------------------------------------------------------------
// Arrange Cabinet: the robots whose reach names a door handle OPEN that door and hold it (WAIT); the robot whose
// reach names the cups takes them out one by one (PICK, then PLACE on its coaster) once both doors are open.

const arrangeCabinet: TaskPolicy = {
  id: 'arrange_cabinet',
  matches: (t) => /take the cups out of the cabinet/i.test(t),
  decide(s, robot) {
    const goals = [...s.task.matchAll(/(\w+) (?:goes )?on (\w+_coaster)/g)].map((m) => [m[1]!, m[2]!] as const);
    const doors = new Map<string, { open: boolean; holder?: string }>();
    for (const f of s.facts) {
      const m = /^(\w+_door) is (open|closed)(?:.*held by (\w+))?/.exec(f);
      if (m) doors.set(m[1]!, { open: m[2] === 'open', ...(m[3] ? { holder: m[3] } : {}) });
    }
    const reach = s.reach.get(robot) ?? '';
    const myHandle = /(\w+_door_handle)/.exec(reach)?.[1];
    const carriesCups = /\bcups\b/.test(reach);
    const held = holding(s, robot);
    if (held && /_door_handle$/.test(held)) return wait(`I hold ${held.replace(/_handle$/, '')} open so the cups can come out.`);
    if (held) {
      const coaster = goals.find(([c]) => c === held)?.[1];
      return coaster ? { action: `PLACE ${held} ${coaster}`, why: `I hold ${held}; it goes on ${coaster}.` } : wait(`I hold ${held} but do not know its coaster.`);
    }
    const left = goals.filter(([c]) => !new RegExp(`is on ${goals.find(([x]) => x === c)![1]}`).test(s.things.get(c)?.relation ?? ''));
    if (left.length === 0) return wait('Every cup is on its coaster; the task is done.');
    if (myHandle) {
      const door = myHandle.replace(/_handle$/, '');
      if (!doors.get(door)?.holder) return { action: `OPEN ${myHandle}`, why: `I can reach ${myHandle}; I open ${door} and hold it for the cups.` };
    }
    if (carriesCups) {
      const shut = [...doors.entries()].filter(([, d]) => !d.open).map(([n]) => n);
      if (shut.length > 0 || doors.size === 0) return wait(`${shut.join(' and ') || 'The doors'} must be open before I can take a cup out; I wait.`);
      const next = left.map(([c]) => s.things.get(c)).find((t): t is Thing => !!t && /inside cabinet/.test(t.relation ?? ''));
      if (next) return { action: `PICK ${next.name}`, why: `Both doors are open; I take ${next.name} out of the cabinet.` };
    }
    return wait('Nothing I can reach helps this round.');
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Handover: the robot on the object's side picks it and holds it out toward the middle (the free end beyond);
// the other robot takes the free end (a PICK of a held object is a handover) and puts it in the container.

const handover: TaskPolicy = {
  id: 'handover',
  matches: (t) => /hand it over/i.test(t),
  decide(s, robot) {
    const obj = /^Put the (\w+) into the (\w+)/i.exec(s.task);
    if (!obj) return wait('I cannot tell what to hand over.');
    const [, item, box] = obj as unknown as [string, string, string];
    const zone = (r: string) => {
      const m = /x from (-?[\d.]+) to (-?[\d.]+)/.exec(s.reach.get(r) ?? '');
      return m ? [Number(m[1]), Number(m[2])] : null;
    };
    const mine = zone(robot);
    const other = s.robots.find((r) => r !== robot);
    const theirs = other ? zone(other) : null;
    const base = s.base.get(robot);
    // Over my own end of the table (the robots stand 0.8 m apart).
    const restPoint: V3 = base ? [base[0], 0.0, 1.0] : [sideOf(s, robot) * 0.4, 0.0, 1.0];
    const held = holding(s, robot);
    const t = s.things.get(item);
    // The middle of the overlap: the giver's tool stops 12 cm short of it, the free end reaches past it.
    const giverSide = mine && theirs ? Math.sign(mine[0] + mine[1] - theirs[0] - theirs[1]) : -1;
    const middle = mine && theirs ? (Math.max(mine[0], theirs[0]) + Math.min(mine[1], theirs[1])) / 2 : 0;
    if (held === item) {
      const b = s.things.get(box);
      if (b && (!mine || (b.pos[0] >= mine[0] && b.pos[0] <= mine[1]))) {
        return { action: `PLACE ${item} ${box}`, why: `I hold ${item} and ${box} is on my side; I put it away.` };
      }
      const out: V3 = [round3([middle + giverSide * 0.12, 0.15, 0.95])[0], 0.15, 0.95];
      if (dist(gripperOf(s, robot), out) < 0.05) return wait(`I hold ${item} out in the middle for ${other ?? 'my partner'} to take.`);
      return { action: `MOVE (${out.join(', ')})`, why: `${box} is out of my reach; I hold ${item} out in the middle.` };
    }
    if (!t) return rest(s, robot, restPoint, `I cannot see ${item}; it is on the other side.`);
    const heldBy = /is held by (\w+)/.exec(t.relation ?? '')?.[1];
    if (heldBy && heldBy !== robot) {
      // Only the robot whose side has the container takes it: the giver must not take it back after the handover.
      const b = s.things.get(box);
      const receiver = !!b && !!mine && b.pos[0] >= mine[0] && b.pos[0] <= mine[1];
      if (!receiver) return wait(`${heldBy} has ${item} now and puts it away; I wait.`);
      if (t.pos[0] >= mine![0] - 0.02 && t.pos[0] <= mine![1] + 0.02 && Math.abs(t.pos[0] - middle) < 0.1) return { action: `PICK ${item}`, why: `${heldBy} holds ${item} out in the middle; I take its free end.` };
      return wait(`${heldBy} is bringing ${item}; I wait.`);
    }
    if (/is in /.test(t.relation ?? '')) return rest(s, robot, restPoint, `${item} is put away.`);
    if (mine && (t.pos[0] < mine[0] || t.pos[0] > mine[1])) return rest(s, robot, restPoint, `${item} lies out of my reach; ${other ?? 'my partner'} brings it.`);
    return { action: `PICK ${item}`, why: `${item} lies on my side; I pick it up to hand it over.` };
  },
};

export const TASK_POLICIES: TaskPolicy[] = [sortCubes, packGrocery, makeSandwich, sweepFloor, moveRope, arrangeCabinet, handover];

export function taskPolicyFor(task: string): TaskPolicy | undefined {
  return TASK_POLICIES.find((p) => p.matches(task));
}

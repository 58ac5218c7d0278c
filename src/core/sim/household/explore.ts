// Explore, in the spirit of LLaMAR's heuristic (Algorithm 1): K rounds of looking in the four directions (four
// right turns, everything seen on the way is discovered) and then moving J cells toward the best direction. The
// paper scores each direction's image with CLIP against the open subtasks (the released code compares the objects
// seen in each direction with the subtasks using a sentence encoder). Here a direction scores
//   frontier cells in its view cone (cells the team has seen that border unseen cells: doorways, the edge of the
//   view range), i.e. unexplored space, plus
//   10 for each object in view there whose type the hint (the open subtasks) names and that no agent's
//   observation has listed yet, so the agent ends up facing what the subtasks ask for.
// Ties go to the direction with the longer free run, then north, east, south, west; a direction the agent cannot
// walk in is skipped for moving. When the best direction shows
// such an object, the agent stops there, facing it. K = 3, J = 2 by default, as in the paper. Only the final view is the agent's observation: what it glimpsed while turning is discovered (it
// gets a label) but is not listed until it is in view again.
import { HEADINGS, HEADING_STEP, type Cell } from './grid.js';
import type { AgentData, World } from './world.js';

export const EXPLORE_ROUNDS = 3;
export const EXPLORE_MOVES = 2;

/** Words a hint may use for a type beyond its own name ("light" for a light switch). */
const ALIASES: Record<string, string[]> = {
  LightSwitch: ['light'], StoveKnob: ['knob', 'stove'], StoveBurner: ['burner', 'stove'], FloorLamp: ['lamp', 'light'], DeskLamp: ['lamp', 'light'],
  Television: ['tv', 'television'], CounterTop: ['counter'], Sofa: ['couch'], Laptop: ['computer'], DiningTable: ['table'], CoffeeTable: ['table'],
  SideTable: ['table'], GarbageCan: ['trash', 'bin'], Fridge: ['refrigerator'],
};

function typeWords(type: string): string[] {
  return [type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase(), ...(ALIASES[type] ?? [])];
}

export function exploreAction(w: World, agent: AgentData, args: readonly unknown[]): { ok: boolean; detail: string } {
  const rounds = intArg(args[0], EXPLORE_ROUNDS);
  const moves = intArg(args[1], EXPLORE_MOVES);
  if (rounds === undefined || moves === undefined || rounds < 1 || rounds > 10 || moves < 0 || moves > 10) {
    return { ok: false, detail: `Explore takes optional rounds (1-10), moves (0-10) and a hint, got ${JSON.stringify(args)}` };
  }
  const hint = typeof args[2] === 'string' ? args[2].toLowerCase() : '';
  const listed = new Set(w.data.shown);
  const relevant = (d: number): number => {
    if (!hint) return 0;
    const facing = { ...agent, heading: d };
    return w.data.objects.filter((o) => !listed.has(o.id) && typeWords(o.type).some((t) => hint.includes(t)) && w.sight(facing, o).visible).length;
  };
  const notes: string[] = [];
  let moved = 0;
  for (let k = 0; k < rounds; k++) {
    // Look around: four right turns, each a new view.
    for (let i = 0; i < 4; i++) {
      agent.heading = (agent.heading + 1) % 4;
      w.updateViews();
    }
    const scores = [0, 1, 2, 3].map((d) => {
      const frontier = frontierIn(w, agent, d);
      const wanted = relevant(d);
      return { d, frontier, wanted, score: frontier + 10 * wanted, run: freeRun(w, agent, d) };
    });
    scores.sort((a, b) => b.score - a.score || b.run - a.run || a.d - b.d);
    // Head where the agent can walk (a wall ahead scores its view but cannot be followed), unless it stops to look.
    const best = scores[0]!.wanted > 0 ? scores[0]! : (scores.find((s) => s.run > 0) ?? scores[0]!);
    agent.heading = best.d;
    let steps = 0;
    if (best.wanted > 0) {
      // Facing something the subtasks ask for: stay and look (walking closer can take it out of the camera's view).
      notes.push(`round ${k + 1}: ${[...scores].sort((a, b) => a.d - b.d).map((s) => `${HEADINGS[s.d]![0]!.toUpperCase()}=${s.frontier}${s.wanted ? `+${s.wanted}×10` : ''}`).join(' ')} -> ${HEADINGS[best.d]}, stopped to look`);
      break;
    }
    if (best.score === 0) {
      // Nothing unexplored in view in any direction: walk toward the nearest frontier anywhere (through a door).
      const path = pathToFrontier(w, agent);
      if (path && path.length > 1) {
        for (const to of path.slice(1, moves + 1)) {
          if (w.occupied(to, agent.name)) break;
          agent.heading = HEADING_STEP.findIndex(([dr, dc]) => agent.cell[0] + dr === to[0] && agent.cell[1] + dc === to[1]);
          agent.cell = to;
          w.data.paths[agent.name]!.push(to);
          steps++;
          w.updateViews();
        }
        moved += steps;
        notes.push(`round ${k + 1}: nothing new in view -> toward the nearest unexplored area, moved ${steps}`);
        continue;
      }
    }
    for (let j = 0; j < moves; j++) {
      const to = w.neighbour(agent.cell, best.d);
      if (!w.grid.walkable(to[0], to[1]) || w.occupied(to, agent.name)) break;
      agent.cell = to;
      w.data.paths[agent.name]!.push(to);
      steps++;
      w.updateViews();
    }
    moved += steps;
    notes.push(`round ${k + 1}: ${[...scores].sort((a, b) => a.d - b.d).map((s) => `${HEADINGS[s.d]![0]!.toUpperCase()}=${s.frontier}${s.wanted ? `+${s.wanted}×10` : ''}`).join(' ')} -> ${HEADINGS[best.d]}, moved ${steps}`);
  }
  return { ok: true, detail: `${notes.join('; ')} (${moved} cells in all)` };
}

/** Cells from the agent to the nearest walkable, seen cell that borders an unseen cell (BFS), or undefined. */
function pathToFrontier(w: World, agent: AgentData): Cell[] | undefined {
  const start = agent.cell;
  const prev = new Map<string, string | null>([[`${start[0]},${start[1]}`, null]]);
  const queue: Cell[] = [start];
  for (let i = 0; i < queue.length; i++) {
    const c = queue[i]!;
    const frontier =
      i > 0 &&
      HEADING_STEP.some(([dr, dc]) => {
        const nb: Cell = [c[0] + dr, c[1] + dc];
        return w.grid.inside(nb[0], nb[1]) && !w.grid.isWall(nb[0], nb[1]) && !w.cellSeen(nb);
      });
    if (frontier) {
      const out: Cell[] = [];
      for (let k: string | null | undefined = `${c[0]},${c[1]}`; k; k = prev.get(k)) out.push(k.split(',').map(Number) as Cell);
      return out.reverse();
    }
    for (const [dr, dc] of HEADING_STEP) {
      const n: Cell = [c[0] + dr, c[1] + dc];
      const k = `${n[0]},${n[1]}`;
      if (prev.has(k) || !w.grid.walkable(n[0], n[1]) || w.occupied(n, agent.name)) continue;
      prev.set(k, `${c[0]},${c[1]}`);
      queue.push(n);
    }
  }
  return undefined;
}

function intArg(v: unknown, dflt: number): number | undefined {
  if (v === undefined || v === null) return dflt;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isInteger(n) ? n : undefined;
}

/** Seen walkable cells in the cone of heading `d` that border an unseen cell. */
function frontierIn(w: World, agent: AgentData, d: number): number {
  let n = 0;
  for (const c of w.viewCells(agent, d)) {
    if (!w.grid.walkable(c[0], c[1]) || !w.cellSeen(c)) continue;
    if (HEADING_STEP.some(([dr, dc]) => {
      const nb: Cell = [c[0] + dr, c[1] + dc];
      return w.grid.inside(nb[0], nb[1]) && !w.grid.isWall(nb[0], nb[1]) && !w.cellSeen(nb);
    })) n++;
  }
  return n;
}

function freeRun(w: World, agent: AgentData, d: number): number {
  let c = agent.cell;
  let n = 0;
  for (;;) {
    const to = w.neighbour(c, d);
    if (!w.grid.walkable(to[0], to[1]) || w.occupied(to, agent.name) || n > 40) return n;
    c = to;
    n++;
  }
}

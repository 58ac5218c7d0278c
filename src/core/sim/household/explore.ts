// Explore, in the spirit of LLaMAR's heuristic (Algorithm 1): K rounds of looking in the four directions (four
// right turns, everything seen on the way is discovered) and then moving J cells toward the best direction. The
// paper scores each direction's image with CLIP against the open subtasks; here a direction scores the number of
// frontier cells in its view cone (cells the team has seen that border cells nobody has seen: doorways, the edge
// of the view range), i.e. it heads toward unexplored space. Ties go to the direction with the longer free run,
// then north, east, south, west. Defaults K = 3, J = 2, as in the paper.
import { HEADINGS, HEADING_STEP, type Cell } from './grid.js';
import type { AgentData, World } from './world.js';

export const EXPLORE_ROUNDS = 3;
export const EXPLORE_MOVES = 2;

export function exploreAction(w: World, agent: AgentData, args: readonly unknown[]): { ok: boolean; detail: string } {
  const rounds = intArg(args[0], EXPLORE_ROUNDS);
  const moves = intArg(args[1], EXPLORE_MOVES);
  if (rounds === undefined || moves === undefined || rounds < 1 || rounds > 10 || moves < 0 || moves > 10) {
    return { ok: false, detail: `Explore takes optional rounds (1-10) and moves (0-10), got ${JSON.stringify(args)}` };
  }
  const notes: string[] = [];
  let moved = 0;
  for (let k = 0; k < rounds; k++) {
    // Look around: four right turns, each a new view.
    for (let i = 0; i < 4; i++) {
      agent.heading = (agent.heading + 1) % 4;
      w.updateViews();
    }
    const scores = [0, 1, 2, 3].map((d) => ({ d, frontier: frontierIn(w, agent, d), run: freeRun(w, agent, d) }));
    scores.sort((a, b) => b.frontier - a.frontier || b.run - a.run || a.d - b.d);
    const best = scores[0]!;
    agent.heading = best.d;
    let steps = 0;
    for (let j = 0; j < moves; j++) {
      const to = w.neighbour(agent.cell, best.d);
      if (!w.grid.walkable(to[0], to[1]) || w.occupied(to, agent.name)) break;
      agent.cell = to;
      w.data.paths[agent.name]!.push(to);
      steps++;
      w.updateViews();
    }
    moved += steps;
    notes.push(`round ${k + 1}: ${[...scores].sort((a, b) => a.d - b.d).map((s) => `${HEADINGS[s.d]![0]!.toUpperCase()}=${s.frontier}`).join(' ')} -> ${HEADINGS[best.d]}, moved ${steps}`);
  }
  return { ok: true, detail: `${notes.join('; ')} (${moved} cells in all)` };
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

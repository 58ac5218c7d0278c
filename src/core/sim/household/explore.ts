// Explore, in the spirit of LLaMAR's heuristic (Algorithm 1): K rounds of looking in the four directions (four
// right turns, each with a level and a 30°-down view, as the released code's exploration notes sketch "8
// directions, pitching up/down"; everything seen on the way is discovered) and then moving J cells toward the best
// direction; the camera ends level (or at the pitch that shows what it stopped to look at). The
// paper scores each direction's image with CLIP against the open subtasks (the released code compares the objects
// seen in each direction with the subtasks using a sentence encoder). Here a direction scores
//   frontier cells in its view cone (cells the team has seen that border unseen cells: doorways, the edge of the
//   view range), i.e. unexplored space, plus
//   10 for each object in view there whose type the hint (the open subtasks) names, or that lies where the hint
//   says ("find anything else on the floor"), and that no agent's observation has listed yet, so the agent ends up
//   facing what the subtasks ask for.
// The robot keeps the way it was heading while that scores at least half the best; ties go to the longer free run,
// then north, east, south, west; a direction the agent cannot
// walk in (a wall, an open door, another robot's body) is skipped for moving. When the best direction shows
// such an object, the agent stops there, facing it. K = 3, J = 2 by default, as in the paper. Only the final view is the agent's observation: what it glimpsed while turning is discovered (it
// gets a label) but is not listed until it is in view again.
import { HEADINGS, HEADING_STEP, type Cell } from './grid.js';
import type { AgentData, World } from './world.js';

export const EXPLORE_ROUNDS = 3;
export const EXPLORE_MOVES = 2;
/** The second view in each direction looks this far down (the released code's notes: "8 directions, pitching"). */
const LOOK_DOWN_DEG = 30;

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
  // "... on the floor" / "on the dining table": what lies there is what the hint asks for, whatever its type.
  const onWhat = [...hint.matchAll(/\bon the ([a-z ]+?)(?:$|[;,.]| and\b)/g)].map((m) => m[1]!.trim());
  const liesOnHinted = (o: { parent: string }) => {
    if (onWhat.length === 0) return false;
    if (o.parent === 'Floor') return onWhat.includes('floor');
    const p = w.obj(o.parent);
    return p !== undefined && p.kind !== 'small' && typeWords(p.type).some((t) => onWhat.includes(t));
  };
  const wantedHere = (d: number, pitch: number): number => {
    if (!hint) return 0;
    const facing = { ...agent, heading: d, horizonDeg: pitch };
    return w.data.objects.filter((o) => !listed.has(o.id) && (typeWords(o.type).some((t) => hint.includes(t)) || (o.kind === 'small' && liesOnHinted(o))) && w.sight(facing, o).visible).length;
  };
  /** The wanted objects in view facing `d`, looking level or down (whichever shows more), and that pitch. */
  const relevant = (d: number): { n: number; pitch: number } => {
    const level = wantedHere(d, 0);
    const down = wantedHere(d, LOOK_DOWN_DEG);
    return down > level ? { n: down, pitch: LOOK_DOWN_DEG } : { n: level, pitch: 0 };
  };
  const notes: string[] = [];
  let moved = 0;
  // Keep going the way the robot was heading when directions score the same (no back and forth).
  let prev = agent.heading;
  for (let k = 0; k < rounds; k++) {
    // Look around: four right turns, each a view looking level and one looking down (things close by and low).
    for (let i = 0; i < 4; i++) {
      agent.heading = (agent.heading + 1) % 4;
      for (const pitch of [0, LOOK_DOWN_DEG]) {
        agent.horizonDeg = pitch;
        w.updateViews();
      }
    }
    agent.horizonDeg = 0;
    const scores = [0, 1, 2, 3].map((d) => {
      const frontier = frontierIn(w, agent, d);
      const r = relevant(d);
      return { d, frontier, wanted: r.n, pitch: r.pitch, score: frontier + 10 * r.n, run: freeRun(w, agent, d) };
    });
    scores.sort((a, b) => b.score - a.score || Number(b.d === prev) - Number(a.d === prev) || b.run - a.run || a.d - b.d);
    // Head where the agent can walk (a wall ahead scores its view but cannot be followed), unless it stops to look.
    let best = scores[0]!.wanted > 0 ? scores[0]! : (scores.find((s) => s.run > 0) ?? scores[0]!);
    // Keep the way it was going while that still scores at least half the best (no back and forth between two cells).
    const onward = scores.find((s) => s.d === prev);
    if (best.wanted === 0 && onward && onward !== best && onward.run > 0 && onward.score > 0 && onward.score * 2 >= best.score) best = onward;
    agent.heading = best.d;
    prev = best.d;
    let steps = 0;
    if (best.wanted > 0) {
      // Facing something the subtasks ask for: stay and look (walking closer can take it out of the camera's view).
      agent.horizonDeg = best.pitch;
      notes.push(`round ${k + 1}: ${[...scores].sort((a, b) => a.d - b.d).map((s) => `${HEADINGS[s.d]![0]!.toUpperCase()}=${s.frontier}${s.wanted ? `+${s.wanted}×10` : ''}`).join(' ')} -> ${HEADINGS[best.d]}, stopped to look`);
      break;
    }
    if (best.score === 0) {
      // Nothing unexplored in view in any direction: walk toward the nearest frontier anywhere (through a door).
      const path = pathToFrontier(w, agent);
      if (path && path.length > 1) {
        for (const to of path.slice(1, moves + 1)) {
          if (w.stepBlocked(to, agent.name)) break;
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
      if (w.stepBlocked(to, agent.name)) break;
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
      if (prev.has(k) || w.stepBlocked(n, agent.name)) continue;
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
    if (w.stepBlocked(to, agent.name) || n > 40) return n;
    c = to;
    n++;
  }
}

// The floor plan as a grid: which cells are walkable, which furniture each letter group is, which room a cell is
// in; A* between cells (4-connected, 0.25 m moves) and line of sight (walls block it, furniture does not).
import { CELL_M, LEGEND, type PlanSpec, type RoomSpec } from './floorPlans.js';

export type Cell = [row: number, col: number];

export const HEADINGS = ['north', 'east', 'south', 'west'] as const;
export type HeadingName = (typeof HEADINGS)[number];
/** Row/column step of each heading (north = up the map = row - 1). */
export const HEADING_STEP: readonly Cell[] = [
  [-1, 0],
  [0, 1],
  [1, 0],
  [0, -1],
];

export interface FurnitureGroup {
  type: string;
  cells: Cell[];
}

export class Grid {
  readonly rows: number;
  readonly cols: number;
  readonly chars: string[];
  readonly rooms: RoomSpec[];
  /** Connected groups of one furniture letter, in reading order (each is one object). */
  readonly furniture: FurnitureGroup[];

  constructor(readonly plan: PlanSpec) {
    this.chars = plan.rows;
    this.rows = plan.rows.length;
    this.cols = plan.rows[0]?.length ?? 0;
    this.rooms = plan.rooms;
    plan.rows.forEach((row, r) => {
      if (row.length !== this.cols) throw new Error(`floor plan ${plan.id}: row ${r} has ${row.length} cells, row 0 has ${this.cols}`);
      for (const ch of row) if (!LEGEND[ch]) throw new Error(`floor plan ${plan.id}: unknown cell letter '${ch}' in row ${r}`);
    });
    this.furniture = this.groups();
  }

  char(r: number, c: number): string {
    return this.chars[r]?.[c] ?? '#';
  }

  inside(r: number, c: number): boolean {
    return r >= 0 && c >= 0 && r < this.rows && c < this.cols;
  }

  walkable(r: number, c: number): boolean {
    return this.inside(r, c) && LEGEND[this.char(r, c)]!.walkable;
  }

  isWall(r: number, c: number): boolean {
    return this.char(r, c) === '#';
  }

  roomOf(r: number, c: number): string | undefined {
    return this.rooms.find((x) => r >= x.rect[0] && r <= x.rect[2] && c >= x.rect[1] && c <= x.rect[3])?.name;
  }

  /** Cell centre in metres: x east, y north (row 0 is the north edge). */
  xy(cell: Cell): [number, number] {
    return [round2(cell[1] * CELL_M), round2((this.rows - 1 - cell[0]) * CELL_M)];
  }

  /** Distance between cell centres in metres. */
  distM(a: Cell, b: Cell): number {
    return Math.hypot(a[0] - b[0], a[1] - b[1]) * CELL_M;
  }

  /** Walls between two cell centres block the view (the end cells themselves do not: a switch sits in a wall). */
  lineOfSight(a: Cell, b: Cell): boolean {
    let [r0, c0] = a;
    const [r1, c1] = b;
    const dr = Math.abs(r1 - r0);
    const dc = Math.abs(c1 - c0);
    const sr = r0 < r1 ? 1 : -1;
    const sc = c0 < c1 ? 1 : -1;
    let err = dc - dr;
    while (!(r0 === r1 && c0 === c1)) {
      const e2 = 2 * err;
      if (e2 > -dr) {
        err -= dr;
        c0 += sc;
      }
      if (e2 < dc) {
        err += dc;
        r0 += sr;
      }
      if (r0 === r1 && c0 === c1) break;
      if (this.isWall(r0, c0)) return false;
    }
    return true;
  }

  /**
   * A* over walkable cells not in `blocked`, from `start` to the nearest of `goals` (4-connected, unit cost).
   * Returns the cells from start to goal inclusive, or undefined when no goal is reachable.
   */
  path(start: Cell, goals: readonly Cell[], blocked: ReadonlySet<string>): Cell[] | undefined {
    if (goals.length === 0) return undefined;
    const goalKeys = new Set(goals.map(key));
    const h = (r: number, c: number) => Math.min(...goals.map((g) => Math.abs(g[0] - r) + Math.abs(g[1] - c)));
    const startKey = key(start);
    const g = new Map<string, number>([[startKey, 0]]);
    const came = new Map<string, string>();
    // Small grids: a sorted array is a fine priority queue. Ties break on insertion order, so paths are stable.
    const open: { k: string; r: number; c: number; f: number; n: number }[] = [{ k: startKey, r: start[0], c: start[1], f: h(start[0], start[1]), n: 0 }];
    let counter = 0;
    const closed = new Set<string>();
    while (open.length > 0) {
      let best = 0;
      for (let i = 1; i < open.length; i++) if (open[i]!.f < open[best]!.f || (open[i]!.f === open[best]!.f && open[i]!.n < open[best]!.n)) best = i;
      const cur = open.splice(best, 1)[0]!;
      if (closed.has(cur.k)) continue;
      closed.add(cur.k);
      if (goalKeys.has(cur.k)) {
        const out: Cell[] = [];
        let k: string | undefined = cur.k;
        while (k !== undefined) {
          out.push(unkey(k));
          k = came.get(k);
        }
        return out.reverse();
      }
      for (const [dr, dc] of HEADING_STEP) {
        const r = cur.r + dr;
        const c = cur.c + dc;
        const k = key([r, c]);
        if (!this.walkable(r, c) || blocked.has(k) || closed.has(k)) continue;
        const ng = g.get(cur.k)! + 1;
        if (ng < (g.get(k) ?? Infinity)) {
          g.set(k, ng);
          came.set(k, cur.k);
          open.push({ k, r, c, f: ng + h(r, c), n: ++counter });
        }
      }
    }
    return undefined;
  }

  /** Walkable cells reachable from `start` around `blocked`, with their move counts. */
  reachable(start: Cell, blocked: ReadonlySet<string>): Map<string, number> {
    const dist = new Map<string, number>([[key(start), 0]]);
    const queue: Cell[] = [start];
    for (let i = 0; i < queue.length; i++) {
      const cur = queue[i]!;
      for (const [dr, dc] of HEADING_STEP) {
        const n: Cell = [cur[0] + dr, cur[1] + dc];
        const k = key(n);
        if (!this.walkable(n[0], n[1]) || blocked.has(k) || dist.has(k)) continue;
        dist.set(k, dist.get(key(cur))! + 1);
        queue.push(n);
      }
    }
    return dist;
  }

  private groups(): FurnitureGroup[] {
    const seen = new Set<string>();
    const out: FurnitureGroup[] = [];
    for (let r = 0; r < this.rows; r++) {
      for (let c = 0; c < this.cols; c++) {
        const ch = this.char(r, c);
        const type = LEGEND[ch]!.type;
        if (!type || seen.has(key([r, c]))) continue;
        const cells: Cell[] = [];
        const stack: Cell[] = [[r, c]];
        seen.add(key([r, c]));
        while (stack.length) {
          const cur = stack.pop()!;
          cells.push(cur);
          for (const [dr, dc] of HEADING_STEP) {
            const n: Cell = [cur[0] + dr, cur[1] + dc];
            if (this.inside(n[0], n[1]) && this.char(n[0], n[1]) === ch && !seen.has(key(n))) {
              seen.add(key(n));
              stack.push(n);
            }
          }
        }
        cells.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        out.push({ type, cells });
      }
    }
    return out;
  }
}

export function key(c: Cell): string {
  return `${c[0]},${c[1]}`;
}

export function unkey(k: string): Cell {
  const [r, c] = k.split(',').map(Number);
  return [r!, c!];
}

export function round2(x: number): number {
  const v = Math.round(x * 100) / 100;
  return Object.is(v, -0) ? 0 : v;
}

/** Angle in degrees between heading `h` (index into HEADINGS) and the direction from `from` to `to`. */
export function bearingOffDeg(h: number, from: Cell, to: Cell): number {
  const dx = to[1] - from[1];
  const dy = from[0] - to[0]; // north is up
  if (dx === 0 && dy === 0) return 0;
  const target = (Math.atan2(dx, dy) * 180) / Math.PI; // 0 = north, 90 = east
  let d = target - h * 90;
  while (d > 180) d -= 360;
  while (d < -180) d += 360;
  return d;
}

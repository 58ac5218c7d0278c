// The household's state as plain data (so a snapshot is a copy) and the queries every action needs: where an
// object is, what an agent sees (view cone, range, pitch, closed receptacles, and a ray cast from the camera that
// walls, furniture up to its height and the other robots' bodies block), what it can reach (1.5 m), where a robot
// may stand (not inside another robot's body, not where an open door swings), and the team's discoveries
// (LLaMAR's object_dict: labels "Type_n" in the order the team first saw each object).
import type { CheckerSubtask } from '../../../protocol/household.js';
import { CELL_M, type PlanSpec } from './floorPlans.js';
import { bearingOffDeg, Grid, HEADING_STEP, key, type Cell } from './grid.js';
import { typeSpec } from './objectTypes.js';
import type { CheckerSpec } from './tasks.js';

/** Camera height above the floor (m), as AI2-THOR's default agent. */
export const CAMERA_HEIGHT_M = 1.5;
/** Half of the 90° field of view, horizontally and vertically. */
export const HALF_FOV_DEG = 45;
/** How far an agent sees objects (m); beyond it they are not in its observation. */
export const VIEW_RANGE_M = 4;
/** How far an agent can interact (m): AI2-THOR's visibilityDistance in LLaMAR. */
export const INTERACT_RANGE_M = 1.5;
/** Camera pitch limits (degrees, positive down), as AI2-THOR's horizon. */
export const HORIZON_MIN = -30;
export const HORIZON_MAX = 60;
/** Up to this height a robot standing in a cell hides what is behind it. (For walking its body is bigger than the
 *  cell: the 3 × 3 enclosure the released code blocks around the other agents when it plans a path.) */
export const AGENT_BODY_TOP_M = 1.5;
/** Ray-cast step along the line of sight (m). */
const RAY_STEP_M = 0.05;

export type ObjectKind = 'furniture' | 'fixture' | 'small';

export interface ObjData {
  id: string;
  type: string;
  kind: ObjectKind;
  /** Footprint (furniture, fixtures) or the cell a small object rests on when its parent is furniture or the floor. */
  cells: Cell[];
  /** Receptacle id, small-receptacle id, agent name, 'Floor', or '' for furniture and fixtures. */
  parent: string;
  room: string;
  upper?: boolean;
  isOpen?: boolean;
  isToggled?: boolean;
  isSliced?: boolean;
  isDirty?: boolean;
  isCooked?: boolean;
  filledWith?: string | null;
  /** Sliced or cracked: the whole object is gone (AI2-THOR replaces it by its pieces). */
  gone?: boolean;
  /** A piece: the id of the object it was sliced from. */
  slicedFrom?: string;
}

export interface AgentData {
  name: string;
  cell: Cell;
  /** Index into HEADINGS (0 north, 1 east, 2 south, 3 west). */
  heading: number;
  horizonDeg: number;
  holding: string | null;
}

export interface CheckerData {
  spec: CheckerSpec;
  state: CheckerSubtask[];
  coverageDone: string[];
}

export interface WorldData {
  planId: string;
  taskId: string;
  seed: number;
  instruction: string;
  objects: ObjData[];
  agents: AgentData[];
  /** Team discoveries in order: label -> object id. */
  known: { label: string; object: string }[];
  seenBy: Record<string, string[]>;
  /** Cells any agent has seen (for Explore's frontier). */
  seenCells: string[];
  /** Objects that were in some agent's observation at the end of a step (what the agents' text has listed). */
  shown: string[];
  lights: Record<string, boolean>;
  step: number;
  paths: Record<string, Cell[]>;
  checker: CheckerData;
}

export class World {
  readonly grid: Grid;
  private byId = new Map<string, ObjData>();
  private labelToId = new Map<string, string>();
  private idToLabel = new Map<string, string>();
  private seenCellSet = new Set<string>();
  /** Cell -> [bottom, top] of what stands there and hides what is behind (walls, furniture, the stove body). */
  private occluders = new Map<string, [number, number]>();
  /** Openable object id -> the floor cells its door or drawer sweeps when open. */
  private swings = new Map<string, Cell[]>();
  /** Cell -> the height of what one sees there from above (a furniture's surface; the floor is 0). */
  private surfaces = new Map<string, number>();

  constructor(
    readonly plan: PlanSpec,
    public data: WorldData,
  ) {
    this.grid = new Grid(plan);
    this.reindex();
  }

  /** Rebuilds lookups after `data` was replaced (restore). */
  reindex(): void {
    this.byId = new Map(this.data.objects.map((o) => [o.id, o]));
    this.labelToId = new Map(this.data.known.map((k) => [k.label, k.object]));
    this.idToLabel = new Map(this.data.known.map((k) => [k.object, k.label]));
    this.seenCellSet = new Set(this.data.seenCells);
    this.occluders = new Map();
    for (let r = 0; r < this.grid.rows; r++)
      for (let c = 0; c < this.grid.cols; c++) {
        if (this.grid.isWall(r, c)) this.occluders.set(key([r, c]), [0, 99]);
        else if (this.grid.char(r, c) === 'O') this.occluders.set(key([r, c]), [0, 0.95]);
      }
    this.surfaces = new Map();
    for (const [k, [, hi]] of this.occluders) this.surfaces.set(k, hi);
    for (const o of this.data.objects) {
      if (o.kind !== 'furniture') continue;
      const spec = typeSpec(o.type);
      const [lo, hi] = spec.extentM as [number, number];
      for (const c of o.cells) this.surfaces.set(key(c), spec.surfaceM ?? hi);
      const occ = spec.occludes ?? 'solid';
      if (occ === 'none') continue;
      for (const c of o.cells) this.occluders.set(key(c), occ === 'slab' ? [lo, hi] : occ === 'seat' ? [0, spec.surfaceM ?? hi] : [0, hi]);
    }
    this.swings = new Map();
    const furnitureAt = new Map<string, ObjData>();
    for (const o of this.data.objects) if (o.kind === 'furniture') for (const c of o.cells) furnitureAt.set(key(c), o);
    for (const o of this.data.objects) {
      const spec = typeSpec(o.type);
      if (!spec.openable || !spec.swings || o.upper || o.kind === 'small') continue;
      const under = o.kind === 'fixture' ? furnitureAt.get(key(o.cells[0]!)) : undefined;
      this.swings.set(o.id, this.frontCells(o.cells, under ? this.facing(under.cells) : undefined));
    }
  }

  /** The side (heading index) of a footprint with the most walkable cells next to it: the way it faces. */
  private facing(cells: readonly Cell[]): number | undefined {
    const own = new Set(cells.map(key));
    let best: number | undefined;
    let bestN = 0;
    HEADING_STEP.forEach(([dr, dc], d) => {
      const n = cells.filter((c) => !own.has(key([c[0] + dr, c[1] + dc])) && this.grid.walkable(c[0] + dr, c[1] + dc)).length;
      if (n > bestN) {
        best = d;
        bestN = n;
      }
    });
    return best;
  }

  /** The walkable cells in front of a footprint (on its facing side, or the given one when that side is open). */
  private frontCells(cells: readonly Cell[], prefer?: number): Cell[] {
    const own = new Set(cells.map(key));
    const side = (d: number) =>
      cells.map((c): Cell => [c[0] + HEADING_STEP[d]![0], c[1] + HEADING_STEP[d]![1]]).filter((n) => !own.has(key(n)) && this.grid.walkable(n[0], n[1]));
    if (prefer !== undefined && side(prefer).length > 0) return side(prefer);
    const d = this.facing(cells);
    return d === undefined ? [] : side(d);
  }

  /** Floor cells the door or drawer of `o` sweeps when it opens (empty for things without a swinging door). */
  swingOf(o: ObjData): Cell[] {
    return this.swings.get(o.id) ?? [];
  }

  /** Cells taken by the doors and drawers that stand open now. */
  openDoorCells(): Set<string> {
    const out = new Set<string>();
    for (const [id, cells] of this.swings) if (this.byId.get(id)?.isOpen) for (const c of cells) out.add(key(c));
    return out;
  }

  /** The other robot whose body covers `cell` (its own cell or one of the eight around it), if any. */
  bodyAt(cell: Cell, except?: string): AgentData | undefined {
    return this.data.agents.find((a) => a.name !== except && Math.max(Math.abs(a.cell[0] - cell[0]), Math.abs(a.cell[1] - cell[1])) <= 1);
  }

  /** Why robot `self` cannot step onto `cell` now, or undefined when it can. */
  stepBlocked(cell: Cell, self: string): string | undefined {
    if (!this.grid.walkable(cell[0], cell[1])) return 'a wall or furniture';
    const door = [...this.swings].find(([id, cells]) => this.byId.get(id)?.isOpen && cells.some((c) => c[0] === cell[0] && c[1] === cell[1]));
    if (door) return `the open door of ${this.nameOf(door[0])}`;
    const other = this.bodyAt(cell, self);
    if (other) return `${other.name}, who stands ${other.cell[0] === cell[0] && other.cell[1] === cell[1] ? 'there' : 'right next to it'}`;
    return undefined;
  }

  /** Cells a path for robot `self` must avoid: the other robots' bodies and the open doors. */
  blockedFor(self: string): Set<string> {
    const out = this.openDoorCells();
    for (const a of this.data.agents) {
      if (a.name === self) continue;
      for (let dr = -1; dr <= 1; dr++) for (let dc = -1; dc <= 1; dc++) out.add(key([a.cell[0] + dr, a.cell[1] + dc]));
    }
    const me = this.agent(self);
    if (me) out.delete(key(me.cell));
    return out;
  }

  obj(id: string): ObjData | undefined {
    return this.byId.get(id);
  }

  agent(name: string): AgentData | undefined {
    return this.data.agents.find((a) => a.name === name);
  }

  labelOf(id: string): string | undefined {
    return this.idToLabel.get(id);
  }

  idOfLabel(label: string): string | undefined {
    return this.labelToId.get(label);
  }

  /** The label, or the object id when the team has not seen it (ground-truth views only). */
  nameOf(id: string): string {
    return this.idToLabel.get(id) ?? id;
  }

  /** Cells an object occupies now (held objects are at the holder's cell; contents move with a bowl or box). */
  cellsOf(o: ObjData): Cell[] {
    if (o.kind !== 'small') return o.cells;
    const holder = this.agent(o.parent);
    if (holder) return [holder.cell];
    const p = this.byId.get(o.parent);
    if (p && p.kind === 'small') return this.cellsOf(p);
    return o.cells;
  }

  /** The agent holding the object (directly or inside something it holds). */
  heldBy(o: ObjData): string | undefined {
    if (this.agent(o.parent)) return o.parent;
    const p = this.byId.get(o.parent);
    return p && p.kind === 'small' ? this.heldBy(p) : undefined;
  }

  /** Inside a closed openable receptacle (at any depth)? */
  enclosed(o: ObjData): boolean {
    const p = this.byId.get(o.parent);
    if (!p) return false;
    if (typeSpec(p.type).openable && !p.isOpen) return true;
    return this.enclosed(p);
  }

  /** Vertical extent [bottom, top] in metres. */
  extentOf(o: ObjData): [number, number] {
    const spec = typeSpec(o.type);
    if (o.kind !== 'small') {
      if (o.upper) return [1.5, 2.1];
      return spec.extentM as [number, number];
    }
    const p = this.byId.get(o.parent);
    const own = typeof spec.extentM === 'number' ? spec.extentM : spec.extentM[1] - spec.extentM[0];
    if (!p) return [0, own];
    const ps = typeSpec(p.type);
    // Inside something you open (a fridge, a cabinet): seen where the receptacle's interior is.
    if (ps.openable) return this.extentOf(p);
    const base = p.kind === 'small' ? this.extentOf(p)[0] + (ps.surfaceM ?? 0) : p.upper ? 1.6 : (ps.surfaceM ?? this.extentOf(p)[1]);
    return [base, base + own];
  }


  /**
   * Whether `agent` sees object `o` now, and the distance (m) to its nearest visible cell. Seen means: in the 90°
   * view cone, within the view range, inside the camera's vertical field of view at its pitch, not in a closed
   * receptacle, not held by anyone, not sliced away, and a ray from the camera reaches it past walls, furniture
   * (up to its height) and the other robots.
   */
  sight(agent: AgentData, o: ObjData, range = VIEW_RANGE_M): { visible: boolean; distM: number } {
    if (o.gone || this.heldBy(o) || this.enclosed(o)) return { visible: false, distM: Infinity };
    // The floor under the robot is always in view (it can always put something down).
    if (o.type === 'Floor') return o.cells.some((c) => c[0] === agent.cell[0] && c[1] === agent.cell[1]) ? { visible: true, distM: 0 } : { visible: false, distM: Infinity };
    const [lo, hi] = this.extentOf(o);
    const cells = this.cellsOf(o);
    const own = new Set(cells.map(key));
    const byDistance = cells.map((c) => ({ c, d: this.grid.distM(agent.cell, c) })).sort((a, b) => a.d - b.d);
    for (const { c: cell, d } of byDistance) {
      if (d > range) break;
      if (d > 0 && Math.abs(bearingOffDeg(agent.heading, agent.cell, cell)) > HALF_FOV_DEG + 1e-9) continue;
      if (!this.verticallyVisible(agent.horizonDeg, lo, hi, d)) continue;
      if (!this.rayClear(agent, cell, lo, hi, own)) continue;
      return { visible: true, distM: d };
    }
    return { visible: false, distM: Infinity };
  }

  /**
   * Whether a ray from the camera (cell centre, 1.5 m up) reaches some height of [lo, hi] over cell `to`: sampled
   * every 5 cm, a wall, a furniture cell whose extent spans the ray's height there, or another robot (up to 1.5 m)
   * blocks it. The cells of the seen object itself do not.
   */
  rayClear(agent: AgentData, to: Cell, lo: number, hi: number, own: ReadonlySet<string>): boolean {
    const heights = hi - lo < 0.02 ? [hi] : [hi - 0.01, (lo + hi) / 2, lo + 0.01];
    const open = heights.map(() => true);
    const lenM = this.grid.distM(agent.cell, to);
    const n = Math.ceil(lenM / RAY_STEP_M);
    const bodies = new Map<string, true>(this.data.agents.filter((a) => a.name !== agent.name).map((a) => [key(a.cell), true]));
    for (let i = 1; i < n; i++) {
      const t = i / n;
      const cell: Cell = [Math.round(agent.cell[0] + (to[0] - agent.cell[0]) * t), Math.round(agent.cell[1] + (to[1] - agent.cell[1]) * t)];
      const k = key(cell);
      if ((cell[0] === agent.cell[0] && cell[1] === agent.cell[1]) || own.has(k)) continue;
      const occ = this.occluders.get(k);
      const body = bodies.has(k);
      if (!occ && !body) continue;
      let any = false;
      heights.forEach((z, j) => {
        if (!open[j]) return;
        const h = CAMERA_HEIGHT_M + (z - CAMERA_HEIGHT_M) * t;
        if ((occ && h >= occ[0] && h <= occ[1]) || (body && h <= AGENT_BODY_TOP_M)) open[j] = false;
        else any = true;
      });
      if (!any) return false;
    }
    return open.some(Boolean);
  }

  verticallyVisible(horizonDeg: number, lo: number, hi: number, distM: number): boolean {
    const d = Math.max(distM, CELL_M / 2);
    const eLo = (Math.atan2(lo - CAMERA_HEIGHT_M, d) * 180) / Math.PI;
    const eHi = (Math.atan2(hi - CAMERA_HEIGHT_M, d) * 180) / Math.PI;
    const top = -horizonDeg + HALF_FOV_DEG;
    const bottom = -horizonDeg - HALF_FOV_DEG;
    return eHi >= bottom && eLo <= top;
  }

  /** Visible and within the interaction range. */
  interactable(agent: AgentData, o: ObjData): boolean {
    return this.sight(agent, o, INTERACT_RANGE_M).visible;
  }

  /** Objects `agent` sees now, in scene order (furniture first, as the scene lists them). */
  visibleTo(agent: AgentData): ObjData[] {
    return this.data.objects.filter((o) => this.sight(agent, o).visible);
  }

  /** Adds objects (a slice's pieces) to the world, right after `after` in scene order. */
  addObjects(objs: readonly ObjData[], after: string): void {
    const i = this.data.objects.findIndex((o) => o.id === after);
    this.data.objects.splice(i < 0 ? this.data.objects.length : i + 1, 0, ...objs);
    for (const o of objs) this.byId.set(o.id, o);
  }

  /** Objects that exist now (not sliced away). */
  present(): ObjData[] {
    return this.data.objects.filter((o) => !o.gone);
  }

  /** Records what every agent sees now: new objects get the next label of their type; seen cells grow. */
  updateViews(): void {
    for (const a of this.data.agents) {
      const seen = new Set(this.data.seenBy[a.name] ?? []);
      for (const o of this.visibleTo(a)) {
        if (!seen.has(o.id)) {
          seen.add(o.id);
          (this.data.seenBy[a.name] ??= []).push(o.id);
        }
        if (!this.idToLabel.has(o.id)) {
          const n = this.data.known.filter((k) => this.byId.get(k.object)?.type === o.type).length + 1;
          const label = `${o.type}_${n}`;
          this.data.known.push({ label, object: o.id });
          this.labelToId.set(label, o.id);
          this.idToLabel.set(o.id, label);
        }
      }
      for (const c of this.viewCells(a, a.heading)) {
        const k = key(c);
        if (!this.seenCellSet.has(k)) {
          this.seenCellSet.add(k);
          this.data.seenCells.push(k);
        }
      }
    }
  }

  /** Records what the agents' observations list now (called at reset and after every joint step). */
  recordShown(): void {
    const shown = new Set(this.data.shown);
    for (const a of this.data.agents) for (const o of this.visibleTo(a)) if (!shown.has(o.id)) {
      shown.add(o.id);
      this.data.shown.push(o.id);
    }
  }

  cellSeen(c: Cell): boolean {
    return this.seenCellSet.has(key(c));
  }

  /**
   * Cells inside the view cone of heading `h` from the agent's cell whose floor (or furniture surface) a ray from
   * the camera reaches (range, walls, furniture and robots; not pitch: looking around covers it).
   */
  viewCells(a: AgentData, h: number): Cell[] {
    const out: Cell[] = [];
    const reach = Math.floor(VIEW_RANGE_M / CELL_M);
    for (let dr = -reach; dr <= reach; dr++) {
      for (let dc = -reach; dc <= reach; dc++) {
        const c: Cell = [a.cell[0] + dr, a.cell[1] + dc];
        if (!this.grid.inside(c[0], c[1])) continue;
        const d = this.grid.distM(a.cell, c);
        if (d > VIEW_RANGE_M) continue;
        if (d > 0 && Math.abs(bearingOffDeg(h, a.cell, c)) > HALF_FOV_DEG) continue;
        if (this.grid.isWall(c[0], c[1])) {
          if (this.grid.lineOfSight(a.cell, c)) out.push(c);
          continue;
        }
        const z = this.surfaces.get(key(c)) ?? 0;
        if (!this.rayClear(a, c, z, z, new Set([key(c)]))) continue;
        out.push(c);
      }
    }
    return out;
  }

  /** The cell one move away in direction index `dir` (absolute, 0 = north). */
  neighbour(c: Cell, dir: number): Cell {
    const [dr, dc] = HEADING_STEP[((dir % 4) + 4) % 4]!;
    return [c[0] + dr, c[1] + dc];
  }

  /** Position in metres (x east, y north) of a cell. */
  xy(c: Cell): [number, number] {
    return this.grid.xy(c);
  }
}

// The household's state as plain data (so a snapshot is a copy) and the queries every action needs: where an
// object is, what an agent sees (view cone, range, walls, pitch, closed receptacles), what it can reach (1.5 m),
// and the team's discoveries (LLaMAR's object_dict: labels "Type_n" in the order the team first saw each object).
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

  occupied(cell: Cell, except?: string): boolean {
    return this.data.agents.some((a) => a.name !== except && a.cell[0] === cell[0] && a.cell[1] === cell[1]);
  }

  /**
   * Whether `agent` sees object `o` now, and the distance (m) to its nearest visible cell. Seen means: in the 90°
   * view cone, within the view range, no wall in between, inside the camera's vertical field of view at its pitch,
   * not in a closed receptacle, not held by anyone.
   */
  sight(agent: AgentData, o: ObjData, range = VIEW_RANGE_M): { visible: boolean; distM: number } {
    if (this.heldBy(o) || this.enclosed(o)) return { visible: false, distM: Infinity };
    const [lo, hi] = this.extentOf(o);
    let best = Infinity;
    for (const cell of this.cellsOf(o)) {
      const d = this.grid.distM(agent.cell, cell);
      if (d > range || d >= best) continue;
      if (d > 0 && Math.abs(bearingOffDeg(agent.heading, agent.cell, cell)) > HALF_FOV_DEG + 1e-9) continue;
      if (!this.verticallyVisible(agent.horizonDeg, lo, hi, d)) continue;
      if (!this.grid.lineOfSight(agent.cell, cell)) continue;
      best = d;
    }
    return { visible: best < Infinity, distM: best };
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

  /** Cells inside the view cone of heading `h` from the agent's cell (range and walls, not pitch). */
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
        if (!this.grid.lineOfSight(a.cell, c)) continue;
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

// Builds a scene from a floor plan, a task and a seed: furniture and fixtures from the plan (a fixture of a type
// one can pick up, a desk lamp, becomes a small object on the furniture under it), the task's own objects and
// states, its distractors, the rooms' usual small objects (each present or not, placed on one of its usual
// receptacles with room left), and the agents' start cells and headings. Same (plan, task, seed, agents) -> the
// same scene.
import { HOUSEHOLD_AGENT_NAMES } from '../../../protocol/household.js';
import { seededRng, type Rng } from '../../host.js';
import { SimParamError } from '../simulator.js';
import type { PlanSpec, RoomKind } from './floorPlans.js';
import { Grid, HEADING_STEP, key, type Cell } from './grid.js';
import { accepts, sizeOf, typeSpec } from './objectTypes.js';
import type { CheckerSpec, SceneObjectNeed, SceneQuery, SceneSetup, TaskDef } from './tasks.js';
import { World, type AgentData, type ObjData, type WorldData } from './world.js';

/** What usually lies around in each kind of room, and on what. */
const USUAL: Record<RoomKind, { type: string; on: string[] }[]> = {
  kitchen: [
    { type: 'Apple', on: ['CounterTop', 'DiningTable', 'Fridge'] },
    { type: 'Tomato', on: ['CounterTop', 'Fridge', 'DiningTable'] },
    { type: 'Bread', on: ['CounterTop', 'DiningTable'] },
    { type: 'Lettuce', on: ['CounterTop', 'Fridge'] },
    { type: 'Potato', on: ['CounterTop', 'Fridge', 'Sink'] },
    { type: 'Egg', on: ['Fridge', 'CounterTop'] },
    { type: 'Mug', on: ['CounterTop', 'Cabinet', 'DiningTable'] },
    { type: 'Bowl', on: ['CounterTop', 'Cabinet', 'DiningTable'] },
    { type: 'Plate', on: ['Cabinet', 'CounterTop', 'DiningTable'] },
    { type: 'Cup', on: ['Cabinet', 'CounterTop'] },
    { type: 'Pot', on: ['StoveBurner', 'Cabinet'] },
    { type: 'Pan', on: ['StoveBurner', 'CounterTop'] },
    { type: 'Knife', on: ['CounterTop', 'Drawer'] },
    { type: 'ButterKnife', on: ['Drawer', 'CounterTop'] },
    { type: 'Fork', on: ['Drawer', 'DiningTable'] },
    { type: 'Spoon', on: ['Drawer', 'Sink'] },
    { type: 'SaltShaker', on: ['CounterTop', 'Cabinet'] },
    { type: 'PepperShaker', on: ['CounterTop', 'Cabinet'] },
    { type: 'DishSponge', on: ['Sink', 'CounterTop'] },
    { type: 'Kettle', on: ['StoveBurner', 'CounterTop'] },
    { type: 'SoapBottle', on: ['CounterTop'] },
    { type: 'PaperTowelRoll', on: ['CounterTop'] },
    { type: 'Spatula', on: ['Drawer', 'CounterTop'] },
  ],
  living: [
    { type: 'Laptop', on: ['Desk', 'CoffeeTable', 'Sofa'] },
    { type: 'Book', on: ['Shelf', 'CoffeeTable', 'SideTable'] },
    { type: 'Newspaper', on: ['CoffeeTable', 'Sofa'] },
    { type: 'Pen', on: ['Desk', 'CoffeeTable', 'SideTable'] },
    { type: 'Pencil', on: ['Desk', 'Shelf'] },
    { type: 'RemoteControl', on: ['CoffeeTable', 'Sofa', 'TVStand'] },
    { type: 'KeyChain', on: ['SideTable', 'Shelf', 'TVStand'] },
    { type: 'Watch', on: ['SideTable', 'Shelf'] },
    { type: 'CreditCard', on: ['CoffeeTable', 'Desk'] },
    { type: 'TissueBox', on: ['SideTable', 'CoffeeTable', 'TVStand'] },
    { type: 'Vase', on: ['Shelf', 'SideTable', 'TVStand'] },
    { type: 'Statue', on: ['Shelf', 'TVStand'] },
    { type: 'Pillow', on: ['Sofa', 'ArmChair'] },
    { type: 'Box', on: ['Floor', 'CoffeeTable'] },
    { type: 'CellPhone', on: ['Sofa', 'Desk'] },
  ],
  bedroom: [
    { type: 'Book', on: ['Desk', 'Bed', 'Shelf'] },
    { type: 'Laptop', on: ['Desk', 'Bed'] },
    { type: 'Pen', on: ['Desk', 'Dresser'] },
    { type: 'Pencil', on: ['Desk', 'Shelf'] },
    { type: 'CellPhone', on: ['Bed', 'SideTable', 'Dresser'] },
    { type: 'AlarmClock', on: ['SideTable', 'Dresser'] },
    { type: 'Pillow', on: ['Bed'] },
    { type: 'KeyChain', on: ['Dresser', 'SideTable'] },
    { type: 'TeddyBear', on: ['Bed'] },
    { type: 'Watch', on: ['Dresser'] },
    { type: 'CreditCard', on: ['Desk', 'Dresser'] },
  ],
  bathroom: [
    { type: 'SoapBar', on: ['CounterTop', 'Sink', 'Bathtub'] },
    { type: 'Towel', on: ['TowelHolder'] },
    { type: 'ToiletPaper', on: ['Toilet', 'CounterTop'] },
    { type: 'SprayBottle', on: ['CounterTop', 'Toilet'] },
    { type: 'Cloth', on: ['CounterTop', 'Bathtub'] },
    { type: 'Candle', on: ['CounterTop', 'Toilet'] },
    { type: 'SoapBottle', on: ['CounterTop'] },
  ],
  hall: [],
};

/** Where agents start: the hallway in the apartment (so the rooms must be explored), any room elsewhere. */
const START_ROOMS: Record<string, string[]> = { apartment: ['hallway'] };

const fmt = (v: number) => `${v < 0 ? '-' : '+'}${Math.abs(v).toFixed(2).padStart(5, '0')}`;

export interface BuiltScene {
  data: WorldData;
  instruction: string;
}

export function buildScene(plan: PlanSpec, task: TaskDef, seed: number, agentCount: number): BuiltScene {
  const grid = new Grid(plan);
  const rng = seededRng((seed * 2654435761 + hashString(`${plan.id}/${task.id}`)) >>> 0);
  const objects: ObjData[] = [];
  const ids = new Set<string>();
  const idFor = (type: string, cell: Cell, h: number): string => {
    const [x, y] = grid.xy(cell);
    let id = `${type}|${fmt(x)}|${fmt(h)}|${fmt(y)}`;
    for (let n = 2; ids.has(id); n++) id = `${type}|${fmt(x)}|${fmt(h)}|${fmt(y)}|${n}`;
    ids.add(id);
    return id;
  };
  const roomAt = (c: Cell) => grid.roomOf(c[0], c[1]) ?? nearestRoom(grid, c);

  for (const g of grid.furniture) {
    const centre = g.cells[Math.floor(g.cells.length / 2)]!;
    const spec = typeSpec(g.type);
    objects.push({ id: idFor(g.type, centre, (spec.extentM as number[])[1] ?? 0), type: g.type, kind: 'furniture', cells: g.cells, parent: '', room: roomAt(centre), ...initialState(g.type) });
  }
  const furnitureAt = (c: Cell) => objects.find((o) => o.kind === 'furniture' && o.cells.some((x) => x[0] === c[0] && x[1] === c[1]));
  for (const f of plan.fixtures) {
    const spec = typeSpec(f.type);
    if (spec.pickupable) {
      const under = furnitureAt(f.at);
      const h = under ? (typeSpec(under.type).surfaceM ?? 0) : 0;
      objects.push({ id: idFor(f.type, f.at, h), type: f.type, kind: 'small', cells: [f.at], parent: under?.id ?? 'Floor', room: f.room ?? roomAt(f.at), ...initialState(f.type) });
      continue;
    }
    objects.push({
      id: idFor(f.type, f.at, f.upper ? 2.1 : ((spec.extentM as number[])[1] ?? 0)),
      type: f.type,
      kind: 'fixture',
      cells: [f.at],
      parent: '',
      room: f.room ?? roomAt(f.at),
      ...(f.upper ? { upper: true } : {}),
      ...initialState(f.type),
    });
  }

  if (task.floorObjects) {
    // The floor of each room (a receptacle: things can be put down on it) and each doorway (a place to walk to).
    for (const room of plan.rooms) {
      const cells: Cell[] = [];
      for (let r = room.rect[0]; r <= room.rect[2]; r++) for (let c = room.rect[1]; c <= room.rect[3]; c++) if (grid.char(r, c) === '.') cells.push([r, c]);
      objects.push({ id: idFor('Floor', cells[0] ?? [room.rect[0], room.rect[1]], 0), type: 'Floor', kind: 'fixture', cells, parent: '', room: room.name });
    }
    for (const door of doorGroups(grid)) objects.push({ id: idFor('Doorway', door[0]!, 0), type: 'Doorway', kind: 'fixture', cells: door, parent: '', room: roomAt(door[0]!) });
  }

  const roomKind = (name: string): RoomKind => plan.rooms.find((r) => r.name === name)?.kind ?? 'hall';
  /** Size units used in each receptacle. */
  const load = new Map<string, number>();
  const usedCells = new Set<string>();
  const keepFree = new Set(task.keepFree ?? []);
  const place = (need: { type: string; on: readonly string[] }, roomKindWanted: RoomKind, extra: Partial<ObjData> = {}, usual = false): boolean => {
    const options: { rec?: ObjData; floor?: string }[] = [];
    for (const on of need.on) {
      if (usual && keepFree.has(on)) continue;
      if (on === 'Floor') {
        for (const r of plan.rooms.filter((x) => x.kind === roomKindWanted)) options.push({ floor: r.name });
        continue;
      }
      for (const o of objects) {
        if (o.type !== on || o.kind === 'small' || roomKind(o.room) !== roomKindWanted) continue;
        if ((load.get(o.id) ?? 0) + sizeOf(need.type) > (typeSpec(o.type).capacity ?? 0) || !accepts(o.type, need.type)) continue;
        options.push({ rec: o });
      }
    }
    if (options.length === 0) return false;
    const pick = options[Math.floor(rng.next() * options.length)]!;
    let cell: Cell;
    let parent: string;
    let h: number;
    if (pick.rec) {
      const front = pick.rec.cells.filter((c) => HEADING_STEP.some(([dr, dc]) => grid.walkable(c[0] + dr, c[1] + dc)));
      const choices = (front.length > 0 ? front : pick.rec.cells).filter((c) => !usedCells.has(`${need.type}@${key(c)}`));
      cell = (choices.length > 0 ? choices : pick.rec.cells)[Math.floor(rng.next() * (choices.length || pick.rec.cells.length))]!;
      parent = pick.rec.id;
      h = typeSpec(pick.rec.type).surfaceM ?? 0;
      load.set(pick.rec.id, (load.get(pick.rec.id) ?? 0) + sizeOf(need.type));
    } else {
      const room = plan.rooms.find((r) => r.name === pick.floor)!;
      const free: Cell[] = [];
      for (let r = room.rect[0]; r <= room.rect[2]; r++)
        for (let c = room.rect[1]; c <= room.rect[3]; c++) {
          if (grid.char(r, c) !== '.' || usedCells.has(`floor@${r},${c}`)) continue;
          // Away from walls and furniture, so the item is easy to see and never blocks a doorway.
          if (HEADING_STEP.every(([dr, dc]) => grid.walkable(r + dr, c + dc))) free.push([r, c]);
        }
      if (free.length === 0) return false;
      cell = free[Math.floor(rng.next() * free.length)]!;
      parent = 'Floor';
      h = 0;
      usedCells.add(`floor@${key(cell)}`);
    }
    usedCells.add(`${need.type}@${key(cell)}`);
    objects.push({ id: idFor(need.type, cell, h), type: need.type, kind: 'small', cells: [cell], parent, room: roomAt(cell), ...initialState(need.type), ...extra });
    return true;
  };

  // The task's own objects first (so they get the places they need), then the rooms' usual contents.
  const needs: SceneObjectNeed[] = [...(task.objects ?? [])];
  if (task.someOf) {
    const from = [...task.someOf.from];
    const [lo, hi] = task.someOf.choose;
    const n = lo + Math.floor(rng.next() * (hi - lo + 1));
    shuffle(from, rng);
    // Keep one pick per type and room kind that the plan has.
    const kinds = new Set(plan.rooms.map((r) => r.kind));
    needs.push(...from.filter((x) => kinds.has(x.room)).slice(0, n));
  }
  // Then the distractors (same types the task names but does not ask for, or look-alikes), where the plan has the room.
  const kinds = new Set(plan.rooms.map((r) => r.kind));
  const distractors = (task.distractors ?? []).filter((d) => kinds.has(d.room));
  const taskTypes = new Set([...needs, ...distractors].map((n) => n.type));
  for (const need of [...needs, ...distractors]) {
    const [lo, hi] = need.count ?? [1, 1];
    const n = lo + Math.floor(rng.next() * (hi - lo + 1));
    for (let i = 0; i < n; i++) {
      if (!place(need, need.room, need.isDirty ? { isDirty: true } : {})) throw new Error(`task ${task.id} on plan ${plan.id}: no place for ${need.type} on ${need.on.join('/')} in a ${need.room}`);
    }
  }
  // The task's types (and every type it might have picked) come only from the task, so "all the X" is exact.
  const removed = new Set([...(task.remove ?? []), ...taskTypes, ...(task.someOf?.from.map((x) => x.type) ?? [])]);
  for (const room of plan.rooms) {
    for (const u of USUAL[room.kind]) {
      if (removed.has(u.type) || rng.next() < 0.3) continue;
      place(u, room.kind, {}, true);
    }
  }

  const lights: Record<string, boolean> = Object.fromEntries(plan.rooms.map((r) => [r.name, true]));
  const byId = new Map(objects.map((o) => [o.id, o]));
  const query: SceneQuery = {
    ids: (type, kind) => objects.filter((o) => o.type === type && (kind === undefined || roomKind(o.room) === kind)).map((o) => o.id),
    typeOf: (id) => byId.get(id)!.type,
    isOn: (id) => byId.get(id)!.isToggled === true,
    roomOf: (id) => byId.get(id)!.room,
    roomKindOf: (id) => roomKind(byId.get(id)!.room),
    onFloor: (id) => byId.get(id)!.parent === 'Floor',
    startsOn: (id) => byId.get(byId.get(id)!.parent)?.type ?? (byId.get(id)!.parent === 'Floor' ? 'Floor' : undefined),
  };
  const setup: SceneSetup = {
    ...query,
    set: (id, prop, value) => {
      byId.get(id)![prop] = value;
    },
  };
  task.setup?.(setup, rng);
  for (const o of objects) if (o.type === 'LightSwitch') lights[o.room] = o.isToggled === true;

  const agents = placeAgents(grid, plan, agentCount, rng);
  const spec: CheckerSpec = task.checker(query);
  const data: WorldData = {
    planId: plan.id,
    taskId: task.id,
    seed,
    instruction: task.instructionFor?.[plan.id] ?? task.instruction,
    objects,
    agents,
    known: [],
    seenBy: Object.fromEntries(agents.map((a) => [a.name, []])),
    seenCells: [],
    shown: [],
    lights,
    step: 0,
    paths: Object.fromEntries(agents.map((a) => [a.name, [a.cell]])),
    checker: { spec, state: spec.subtasks.map((s, i) => ({ id: `s${i + 1}`, text: s.text, done: false })), coverageDone: [] },
  };
  const world = new World(plan, data);
  world.updateViews();
  world.recordShown();
  return { data: world.data, instruction: data.instruction };
}

function initialState(type: string): Partial<ObjData> {
  const s = typeSpec(type);
  const out: Partial<ObjData> = {};
  if (s.openable) out.isOpen = false;
  // Lights and lamps start on; appliances, faucets and knobs off.
  if (s.toggleable) out.isToggled = type === 'LightSwitch' || type === 'FloorLamp' || type === 'DeskLamp';
  if (s.sliceable) out.isSliced = false;
  if (s.dirtyable) out.isDirty = false;
  if (s.cookable) out.isCooked = false;
  if (type === 'Mug' || type === 'Cup') out.filledWith = null;
  return out;
}

function placeAgents(grid: Grid, plan: PlanSpec, n: number, rng: Rng): AgentData[] {
  if (!Number.isInteger(n) || n < 1 || n > HOUSEHOLD_AGENT_NAMES.length) {
    throw new SimParamError('agents', `agents must be an integer from 1 to ${HOUSEHOLD_AGENT_NAMES.length}, got ${n}`);
  }
  const rooms = START_ROOMS[plan.id] ?? plan.rooms.map((r) => r.name);
  const free: Cell[] = [];
  for (let r = 0; r < grid.rows; r++)
    for (let c = 0; c < grid.cols; c++) if (grid.char(r, c) === '.' && rooms.includes(grid.roomOf(r, c) ?? '')) free.push([r, c]);
  const agents: AgentData[] = [];
  for (let i = 0; i < n; i++) {
    // At least 1 m from the others when the room allows it (crowded rooms relax the spacing).
    let pick: Cell | undefined;
    for (const minM of [1, 0.5, 0.25]) {
      const ok = free.filter((c) => agents.every((a) => grid.distM(a.cell, c) >= minM));
      if (ok.length > 0) {
        pick = ok[Math.floor(rng.next() * ok.length)];
        break;
      }
    }
    if (!pick) throw new Error(`floor plan ${plan.id} has no free cell for agent ${i + 1}`);
    agents.push({ name: HOUSEHOLD_AGENT_NAMES[i]!, cell: pick, heading: Math.floor(rng.next() * 4), horizonDeg: 0, holding: null });
  }
  return agents;
}

/** Connected groups of door cells: one doorway each. */
function doorGroups(grid: Grid): Cell[][] {
  const seen = new Set<string>();
  const out: Cell[][] = [];
  for (let r = 0; r < grid.rows; r++)
    for (let c = 0; c < grid.cols; c++) {
      if (grid.char(r, c) !== 'D' || seen.has(key([r, c]))) continue;
      const group: Cell[] = [];
      const stack: Cell[] = [[r, c]];
      seen.add(key([r, c]));
      while (stack.length > 0) {
        const cur = stack.pop()!;
        group.push(cur);
        for (const [dr, dc] of HEADING_STEP) {
          const n: Cell = [cur[0] + dr, cur[1] + dc];
          if (grid.char(n[0], n[1]) === 'D' && !seen.has(key(n))) {
            seen.add(key(n));
            stack.push(n);
          }
        }
      }
      out.push(group.sort((a, b) => a[0] - b[0] || a[1] - b[1]));
    }
  return out;
}

function nearestRoom(grid: Grid, c: Cell): string {
  let best = '';
  let bestD = Infinity;
  for (const r of grid.rooms) {
    const rr = Math.min(Math.max(c[0], r.rect[0]), r.rect[2]);
    const cc = Math.min(Math.max(c[1], r.rect[1]), r.rect[3]);
    const d = Math.abs(rr - c[0]) + Math.abs(cc - c[1]);
    if (d < bestD) {
      bestD = d;
      best = r.name;
    }
  }
  return best;
}

function shuffle<T>(xs: T[], rng: Rng): void {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
}

export function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

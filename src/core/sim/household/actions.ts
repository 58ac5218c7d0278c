// LLaMAR's high-level actions on the household world. A joint step runs one action per agent. The robots act in
// the team's order (as the released code steps agent 0, then agent 1, ...), and a NavigateTo is walked one cell
// per tick with every robot's walk advancing in the same ticks (the paper: the agents' low-level actions "are
// executed synchronously"), so a robot can stop short of its goal: another robot stepped into its way, or a door
// opened across it, and the walk ends there, failed, as the released code breaks off a navigation at the first
// primitive move that fails. Conflicts are decided by the team order: a robot cannot step into another robot's body
// (its cell and the eight around it), A* plans around the others where they stand and around open doors, an open
// door cannot swing through a robot, and two robots acting on the same object in one step (both opening the
// fridge) leave the later one with a failure naming the earlier.
import { checkAction } from './checker.js';
import { exploreAction } from './explore.js';
import { HEADING_STEP, HEADINGS, key, type Cell } from './grid.js';
import { accepts, sizeOf, typeSpec } from './objectTypes.js';
import { actText, type NavFailure } from './text.js';
import { CELL_M } from './floorPlans.js';
import { CAMERA_HEIGHT_M, HORIZON_MAX, HORIZON_MIN, INTERACT_RANGE_M, type AgentData, type ObjData, type World } from './world.js';

export const ACTION_NAMES = ['Move', 'Rotate', 'LookUp', 'LookDown', 'NavigateTo', 'Pickup', 'Put', 'Open', 'Close', 'Slice', 'Clean', 'ToggleOn', 'ToggleOff', 'Explore', 'Idle', 'Done'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

const OBJECT_ACTIONS = new Set(['NavigateTo', 'Pickup', 'Put', 'Open', 'Close', 'Slice', 'Clean', 'ToggleOn', 'ToggleOff']);
/** Actions that change an object's state: two agents doing one of these to the same object in one step conflict. */
const EXCLUSIVE = new Set(['Pickup', 'Open', 'Close', 'Slice', 'Clean', 'ToggleOn', 'ToggleOff']);

const ALIASES: Record<string, [ActionName, string?]> = {
  PickupObject: ['Pickup'],
  PickUp: ['Pickup'],
  PutObject: ['Put'],
  OpenObject: ['Open'],
  CloseObject: ['Close'],
  SliceObject: ['Slice'],
  CleanObject: ['Clean'],
  ToggleObjectOn: ['ToggleOn'],
  ToggleObjectOff: ['ToggleOff'],
  MoveAhead: ['Move', 'Ahead'],
  MoveBack: ['Move', 'Back'],
  MoveLeft: ['Move', 'Left'],
  MoveRight: ['Move', 'Right'],
  RotateLeft: ['Rotate', 'Left'],
  RotateRight: ['Rotate', 'Right'],
  Wait: ['Idle'],
};

export interface JointAction {
  agent: string;
  name: string;
  args: readonly unknown[];
}

export interface ActionOutcome {
  agent: string;
  /** Canonical action name (or the name as given when unknown). */
  name: string;
  ok: boolean;
  /** The authors' feedback line the agents read. */
  text: string;
  /** The simulator's own reason for a failure, or what it did (trace only). */
  detail: string;
  /** Target object id. */
  target?: string;
}

interface Ctx {
  world: World;
  /** Object id -> agent that changed it earlier in this step. */
  touched: Map<string, string>;
}

/** Canonical name and first argument of an action, or why it is not one. */
export function normalizeAction(name: string, args: readonly unknown[]): { name: ActionName; args: unknown[] } | { error: string } {
  const alias = ALIASES[name];
  const canonical = alias?.[0] ?? (ACTION_NAMES as readonly string[]).find((n) => n === name);
  if (!canonical) return { error: `unknown action '${name}'; actions: ${ACTION_NAMES.join(', ')}` };
  return { name: canonical as ActionName, args: alias?.[1] !== undefined ? [alias[1], ...args] : [...args] };
}

/** A NavigateTo under way: the planned path, walked one cell per tick. */
interface Walk {
  index: number;
  agent: AgentData;
  o: ObjData;
  label: string;
  path: Cell[];
  /** Index into `path` of the cell the robot stands on. */
  at: number;
  /** The goal is within reach of the object (else the robot only gets as close as it can). */
  closeEnough: boolean;
  /** Why the walk stopped before the goal. */
  stoppedBy?: string;
  heldBefore: string | null;
}

/** Runs one joint step: one action per agent (agents without an action stay idle). Results in the given order. */
export function runJointStep(world: World, actions: readonly JointAction[]): ActionOutcome[] {
  world.data.step += 1;
  world.data.paths = Object.fromEntries(world.data.agents.map((a) => [a.name, [a.cell]]));
  const ctx: Ctx = { world, touched: new Map() };
  const results = new Map<number, ActionOutcome>();
  const seen = new Set<string>();
  const walks: Walk[] = [];
  const order = actions
    .map((a, i) => ({ a, i, rank: world.data.agents.findIndex((x) => x.name === a.agent) }))
    .sort((p, q) => (p.rank < 0 ? 99 : p.rank) - (q.rank < 0 ? 99 : q.rank) || p.i - q.i);
  const settle = (i: number, agent: AgentData, out: ActionOutcome, heldBefore: string | null) => {
    world.updateViews();
    checkAction(world, { agent: agent.name, name: out.name, target: out.target, ok: out.ok, heldBefore });
    if (out.ok && out.target && EXCLUSIVE.has(out.name)) ctx.touched.set(out.target, agent.name);
    results.set(i, out);
  };
  // Tick 0: every robot starts its action in team order; instant actions finish, walks take their first step.
  for (const { a, i } of order) {
    const agent = world.agent(a.agent);
    if (!agent) {
      results.set(i, { agent: a.agent, name: a.name, ok: false, text: `There is no agent named ${a.agent}.`, detail: `no agent '${a.agent}'; agents: ${world.data.agents.map((x) => x.name).join(', ')}` });
      continue;
    }
    if (seen.has(a.agent)) {
      results.set(i, { agent: a.agent, name: a.name, ok: false, text: actText({ name: a.name }, false), detail: `${a.agent} already has an action in this step` });
      continue;
    }
    seen.add(a.agent);
    const heldBefore = agent.holding;
    const started = startAction(ctx, agent, a);
    if ('path' in started) {
      const walk: Walk = { ...started, index: i, heldBefore };
      walks.push(walk);
      stepWalk(world, walk);
    } else settle(i, agent, started, heldBefore);
  }
  // Ticks 1, 2, ...: the walking robots each take their next cell, in team order, until all arrived or stopped.
  for (let tick = 1; walks.some((w) => walking(w)); tick++) {
    for (const w of walks) if (walking(w)) stepWalk(world, w);
    if (tick > 400) break;
  }
  for (const w of walks) settle(w.index, w.agent, finishWalk(world, w), w.heldBefore);
  world.recordShown();
  return actions.map((_, i) => results.get(i)!);
}

const walking = (w: Walk) => w.stoppedBy === undefined && w.at < w.path.length - 1;

/** One cell along the path, unless the cell is blocked now (then the walk stops where it is). */
function stepWalk(world: World, w: Walk): void {
  if (!walking(w)) return;
  const next = w.path[w.at + 1]!;
  const why = world.stepBlocked(next, w.agent.name);
  const dir = HEADING_STEP.findIndex(([dr, dc]) => w.agent.cell[0] + dr === next[0] && w.agent.cell[1] + dc === next[1]);
  if (dir >= 0) w.agent.heading = dir;
  if (why) {
    w.stoppedBy = `the next cell ${HEADINGS[dir] ?? ''} is blocked by ${why}`;
    return;
  }
  w.agent.cell = next;
  world.data.paths[w.agent.name]!.push(next);
  w.at += 1;
}

/** Starts an agent's action: instant actions run to their outcome; a NavigateTo that found a path returns its walk. */
function startAction(ctx: Ctx, agent: AgentData, a: JointAction): ActionOutcome | Omit<Walk, 'index' | 'heldBefore'> {
  const n = normalizeAction(a.name, a.args);
  if ('error' in n) return { agent: agent.name, name: a.name, ok: false, text: actText({ name: a.name }, false), detail: n.error };
  const arg = n.args[0];
  const fail = (detail: string, extra: { arg?: string; navFailure?: NavFailure; held?: string | null; target?: string } = {}): ActionOutcome => ({
    agent: agent.name,
    name: n.name,
    ok: false,
    text: actText({ name: n.name, arg: extra.arg ?? (arg === undefined ? '' : String(arg)), navFailure: extra.navFailure, held: extra.held }, false),
    detail,
    ...(extra.target ? { target: extra.target } : {}),
  });
  const succeed = (detail: string, extra: { arg?: string; held?: string | null; target?: string } = {}): ActionOutcome => ({
    agent: agent.name,
    name: n.name,
    ok: true,
    text: actText({ name: n.name, arg: extra.arg ?? (arg === undefined ? '' : String(arg)), held: extra.held }, true),
    detail,
    ...(extra.target ? { target: extra.target } : {}),
  });
  const w = ctx.world;

  switch (n.name) {
    case 'Idle':
    case 'Done':
      return succeed(n.name === 'Idle' ? 'stayed in place' : 'declared the task done');
    case 'Move': {
      const dir = typeof arg === 'string' ? ['Ahead', 'Right', 'Back', 'Left'].findIndex((d) => d.toLowerCase() === arg.toLowerCase()) : -1;
      if (dir < 0) return fail(`Move takes Ahead, Back, Left or Right, got ${JSON.stringify(arg)}`);
      const to = w.neighbour(agent.cell, agent.heading + dir);
      const name = ['Ahead', 'Right', 'Back', 'Left'][dir]!;
      const why = w.stepBlocked(to, agent.name);
      if (why) return fail(`the cell ${HEADINGS[(agent.heading + dir) % 4]} of ${agent.name} is blocked by ${why}`, { arg: name });
      agent.cell = to;
      w.data.paths[agent.name]!.push(to);
      return succeed(`moved 0.25 m ${HEADINGS[(agent.heading + dir) % 4]}`, { arg: name });
    }
    case 'Rotate': {
      const dir = typeof arg === 'string' ? arg.toLowerCase() : '';
      if (dir !== 'left' && dir !== 'right') return fail(`Rotate takes Left or Right, got ${JSON.stringify(arg)}`);
      agent.heading = (agent.heading + (dir === 'right' ? 1 : 3)) % 4;
      return succeed(`now facing ${HEADINGS[agent.heading]}`, { arg: dir === 'right' ? 'Right' : 'Left' });
    }
    case 'LookUp':
    case 'LookDown': {
      const deg = typeof arg === 'number' ? arg : typeof arg === 'string' && /^\d+$/.test(arg.trim()) ? Number(arg) : NaN;
      if (!Number.isFinite(deg) || deg <= 0 || deg % 30 !== 0) return fail(`${n.name} takes an angle of 30, 60, 90, ... degrees, got ${JSON.stringify(arg)}`);
      const next = agent.horizonDeg + (n.name === 'LookDown' ? deg : -deg);
      if (next < HORIZON_MIN || next > HORIZON_MAX) return fail(`the camera pitch would be ${next}°, outside ${HORIZON_MIN}..${HORIZON_MAX}° (now ${agent.horizonDeg}°)`, { arg: String(deg) });
      agent.horizonDeg = next;
      return succeed(`camera pitch now ${next}° (positive is down)`, { arg: String(deg) });
    }
    case 'Explore': {
      const r = exploreAction(w, agent, n.args);
      return r.ok ? succeed(r.detail) : fail(r.detail);
    }
  }

  // Object actions: the argument is a label the team has discovered ("Tomato_1").
  if (!OBJECT_ACTIONS.has(n.name)) return fail(`unhandled action ${n.name}`);
  if (typeof arg !== 'string' || arg.trim() === '') return fail(`${n.name} takes an object id such as Tomato_1, got ${JSON.stringify(arg)}`, { arg: String(arg ?? '') });
  const label = arg.trim();
  const id = w.idOfLabel(label);
  const heldLabel = agent.holding ? (w.labelOf(agent.holding) ?? agent.holding) : null;
  if (!id) {
    const seen = w.data.known.map((k) => k.label);
    return fail(`no object '${label}' has been seen by the team (seen: ${seen.join(', ') || 'nothing yet'})`, { arg: label, navFailure: 'unknown', held: heldLabel });
  }
  const o = w.obj(id)!;
  if (o.gone) {
    const pieces = w.data.objects.filter((x) => x.slicedFrom === o.id).map((x) => w.nameOf(x.id));
    return fail(`${label} no longer exists: it was ${typeSpec(o.type).sliceVerb === 'crack' ? 'cracked' : 'sliced'} into ${pieces.join(', ')}`, { arg: label, navFailure: 'unknown', held: heldLabel, target: id });
  }
  if (n.name === 'NavigateTo') return startNavigation(ctx, agent, o, label);

  const conflictWith = ctx.touched.get(id);
  if (conflictWith && EXCLUSIVE.has(n.name)) return fail(`${conflictWith} acted on ${label} earlier in this same step`, { arg: label, target: id, held: heldLabel });
  const spec = typeSpec(o.type);
  const reach = (): string | undefined => {
    if (w.interactable(agent, o)) return undefined;
    const s = w.sight(agent, o);
    if (w.heldBy(o)) return `${label} is held by ${w.heldBy(o)}`;
    if (w.enclosed(o)) return `${label} is inside ${w.labelOf(o.parent) ?? o.parent}, which is closed`;
    if (!s.visible) return `${label} is not in ${agent.name}'s view (facing ${HEADINGS[agent.heading]}, camera pitch ${agent.horizonDeg}°)`;
    return `${label} is ${s.distM.toFixed(2)} m away; the interaction range is ${INTERACT_RANGE_M} m`;
  };

  switch (n.name) {
    case 'Pickup': {
      if (!spec.pickupable) return fail(`${label} (${o.type}) cannot be picked up`, { arg: label, target: id });
      if (agent.holding) return fail(`${agent.name} already holds ${heldLabel}; robots hold one object at a time`, { arg: label, target: id });
      const why = reach();
      if (why) return fail(why, { arg: label, target: id });
      o.parent = agent.name;
      agent.holding = id;
      return succeed(`${agent.name} now holds ${label}`, { arg: label, target: id });
    }
    case 'Put': {
      if (!agent.holding) return fail(`${agent.name} holds nothing to put`, { arg: label, target: id, held: null });
      const held = w.obj(agent.holding)!;
      if (!spec.receptacle) return fail(`${label} (${o.type}) is not a receptacle`, { arg: label, target: id, held: heldLabel });
      if (o.id === held.id) return fail(`${label} cannot be put on itself`, { arg: label, target: id, held: heldLabel });
      const why = reach();
      if (why) return fail(why, { arg: label, target: id, held: heldLabel });
      if (spec.openable && !o.isOpen) return fail(`${label} is closed`, { arg: label, target: id, held: heldLabel });
      if (!accepts(o.type, held.type)) return fail(`a ${held.type} does not go in or on a ${o.type}`, { arg: label, target: id, held: heldLabel });
      const inside = w.data.objects.filter((x) => x.parent === o.id && !x.gone);
      const used = inside.reduce((sum, x) => sum + sizeOf(x.type), 0);
      if (used + sizeOf(held.type) > (spec.capacity ?? 0)) {
        return fail(`${label} is full: it holds ${inside.map((x) => w.nameOf(x.id)).join(', ')} (${used} of ${spec.capacity} size units; ${heldLabel} needs ${sizeOf(held.type)})`, { arg: label, target: id, held: heldLabel });
      }
      if (o.type === 'Floor') {
        // Put down on the floor: in front of the robot when that cell is free, else where it stands.
        const front = w.neighbour(agent.cell, agent.heading);
        const cell = w.stepBlocked(front, agent.name) === undefined ? front : agent.cell;
        held.parent = 'Floor';
        held.cells = [cell];
        held.room = w.grid.roomOf(cell[0], cell[1]) ?? held.room;
      } else {
        held.parent = o.id;
        held.cells = [nearestCell(w, agent, o)];
        held.room = o.room;
      }
      agent.holding = null;
      return succeed(`${heldLabel} is now in/on ${label}`, { arg: label, target: id, held: heldLabel });
    }
    case 'Open':
    case 'Close': {
      if (!spec.openable) return fail(`${label} (${o.type}) cannot be opened or closed`, { arg: label, target: id });
      const open = n.name === 'Open';
      if (o.isOpen === open) return fail(`${label} is already ${open ? 'open' : 'closed'}`, { arg: label, target: id });
      const why = reach();
      if (why) return fail(why, { arg: label, target: id });
      if (open && o.type === 'Microwave' && o.isToggled) return fail(`${label} is running; turn it off first`, { arg: label, target: id });
      if (open) {
        const swing = new Set(w.swingOf(o).map(key));
        const inWay = w.data.agents.filter((x) => swing.has(key(x.cell)));
        if (inWay.length > 0) return fail(`the door of ${label} cannot swing open: ${inWay.map((x) => x.name).join(' and ')} ${inWay.length > 1 ? 'stand' : 'stands'} in its way`, { arg: label, target: id });
      }
      o.isOpen = open;
      return succeed(`${label} is now ${open ? 'open' : 'closed'}`, { arg: label, target: id });
    }
    case 'Slice': {
      if (!spec.sliceable) return fail(`${label} (${o.type}) cannot be sliced`, { arg: label, target: id });
      if (o.isSliced) return fail(`${label} is already ${spec.sliceVerb === 'crack' ? 'cracked' : 'sliced'}`, { arg: label, target: id });
      if (w.heldBy(o)) return fail(`${label} is held by ${w.heldBy(o)}; put it down to slice it`, { arg: label, target: id });
      const why = reach();
      if (why) return fail(why, { arg: label, target: id });
      const pieces = slicePieces(w, o);
      return succeed(`${label} is now ${spec.sliceVerb === 'crack' ? 'cracked' : 'sliced'}: ${pieces.length} ${pieces.length === 1 ? 'piece' : 'pieces'} of ${pieces[0]?.type ?? o.type} where it was`, { arg: label, target: id });
    }
    case 'Clean': {
      if (!spec.dirtyable) return fail(`${label} (${o.type}) cannot be cleaned`, { arg: label, target: id });
      if (!o.isDirty) return fail(`${label} is already clean`, { arg: label, target: id });
      const why = reach();
      if (why) return fail(why, { arg: label, target: id });
      o.isDirty = false;
      return succeed(`${label} is now clean`, { arg: label, target: id });
    }
    case 'ToggleOn':
    case 'ToggleOff': {
      if (!spec.toggleable) return fail(`${label} (${o.type}) cannot be turned on or off`, { arg: label, target: id });
      const on = n.name === 'ToggleOn';
      if (o.isToggled === on) return fail(`${label} is already ${on ? 'on' : 'off'}`, { arg: label, target: id });
      const why = reach();
      if (why) return fail(why, { arg: label, target: id });
      if (on && o.type === 'Microwave' && o.isOpen) return fail(`${label}'s door is open; close it first`, { arg: label, target: id });
      o.isToggled = on;
      const effects = on ? applianceEffects(w, o) : '';
      if (o.type === 'LightSwitch') w.data.lights[o.room] = on;
      return succeed(`${label} is now ${on ? 'on' : 'off'}${effects}`, { arg: label, target: id });
    }
  }
  return fail(`unhandled action ${n.name}`);
}

/** Turning an appliance on acts on what is inside: a toaster toasts sliced bread, a coffee machine fills a mug. */
function applianceEffects(w: World, o: ObjData): string {
  const inside = w.data.objects.filter((x) => x.parent === o.id);
  const done: string[] = [];
  for (const x of inside) {
    if ((o.type === 'Toaster' || o.type === 'Microwave') && typeSpec(x.type).cookable && !x.isCooked) {
      x.isCooked = true;
      done.push(`${w.nameOf(x.id)} cooked`);
    }
    if (o.type === 'CoffeeMachine' && (x.type === 'Mug' || x.type === 'Cup')) {
      x.filledWith = 'coffee';
      done.push(`${w.nameOf(x.id)} filled with coffee`);
    }
  }
  return done.length > 0 ? `; ${done.join(', ')}` : '';
}

/** The receptacle cell nearest the agent (where a put object lands). */
function nearestCell(w: World, agent: AgentData, o: ObjData): Cell {
  const cells = w.cellsOf(o);
  return [...cells].sort((a, b) => w.grid.distM(agent.cell, a) - w.grid.distM(agent.cell, b))[0]!;
}

/**
 * Slicing (cracking) as AI2-THOR does it: the whole object is gone and its pieces lie where it was, each a new
 * object ("Apple|...|AppleSliced_0") the team labels when it sees them (AppleSliced_1, ...).
 */
function slicePieces(w: World, o: ObjData): ObjData[] {
  const into = typeSpec(o.type).sliceInto;
  o.isSliced = true;
  if (!into) return [];
  const spec = typeSpec(into.type);
  const pieces: ObjData[] = Array.from({ length: into.count }, (_, k) => ({
    id: `${o.id}|${into.type}_${k}`,
    type: into.type,
    kind: 'small',
    cells: o.cells.map((c): Cell => [c[0], c[1]]),
    parent: o.parent,
    room: o.room,
    slicedFrom: o.id,
    ...(spec.cookable ? { isCooked: false } : {}),
  }));
  o.gone = true;
  w.addObjects(pieces, o.id);
  return pieces;
}

/** Where a robot standing on `cell` would face to see `o`: heading toward its nearest cell, pitch in 30° steps. */
function facePose(w: World, cell: Cell, o: ObjData): { heading: number; horizonDeg: number } {
  const cells = w.cellsOf(o);
  const t = [...cells].sort((a, b) => w.grid.distM(cell, a) - w.grid.distM(cell, b))[0]!;
  const dx = t[1] - cell[1];
  const dy = cell[0] - t[0];
  const deg = ((Math.atan2(dx, dy) * 180) / Math.PI + 360) % 360;
  const heading = Math.round(deg / 90) % 4;
  const [lo, hi] = w.extentOf(o);
  const d = Math.max(w.grid.distM(cell, t), CELL_M / 2);
  // The pitch (in 30° steps) that brings the object's middle closest to the centre of the view, as the released
  // code's navigation turns the camera to face the object.
  const mid = (Math.atan2((lo + hi) / 2 - CAMERA_HEIGHT_M, d) * 180) / Math.PI;
  const pitches = [0, 30, -30, 60].filter((h) => w.verticallyVisible(h, lo, hi, d));
  const best = pitches.sort((a, b) => Math.abs(mid + a) - Math.abs(mid + b) || Math.abs(a) - Math.abs(b))[0];
  return { heading, horizonDeg: best ?? 0 };
}

/**
 * NavigateTo, planned when the robot's turn comes: A* around walls, furniture, open doors and the other robots'
 * bodies where they stand now, to the nearest free cell within 0.75 m (else 1.5 m) of the object from which it
 * would be in view (nothing in between, not where its own door swings). The walk itself happens in the step's
 * ticks. Fails at once when the object was never seen ("doesn't exist") or no cell near it can be reached ("no
 * clear path"); when the near cells are all taken the robot goes as close as it can and fails on arrival.
 */
function startNavigation(ctx: Ctx, agent: AgentData, o: ObjData, label: string): ActionOutcome | Omit<Walk, 'index' | 'heldBefore'> {
  const w = ctx.world;
  const target = w.cellsOf(o);
  const blocked = w.blockedFor(agent.name);
  const ownSwing = new Set(w.swingOf(o).map(key));
  const targetKeys = new Set(target.map(key));
  const candidates = (maxM: number, needView: boolean): Cell[] => {
    const out: Cell[] = [];
    for (let r = 0; r < w.grid.rows; r++)
      for (let c = 0; c < w.grid.cols; c++) {
        const k = `${r},${c}`;
        if (!w.grid.walkable(r, c) || (blocked.has(k) && !(r === agent.cell[0] && c === agent.cell[1])) || targetKeys.has(k)) continue;
        const d = Math.min(...target.map((t) => w.grid.distM([r, c], t)));
        if (d > maxM) continue;
        if (needView) {
          if (ownSwing.has(k)) continue;
          const pose = facePose(w, [r, c], o);
          if (!w.sight({ ...agent, cell: [r, c], ...pose }, o, INTERACT_RANGE_M).visible) continue;
        }
        out.push([r, c]);
      }
    return out;
  };
  let path = w.grid.path(agent.cell, candidates(0.75, true), blocked) ?? w.grid.path(agent.cell, candidates(INTERACT_RANGE_M, true), blocked);
  let closeEnough = path !== undefined;
  if (!path) {
    // The cells within reach are taken or cut off: go as close as possible (another robot is in the way).
    const reach = w.grid.reachable(agent.cell, blocked);
    const best = candidates(2.5, false)
      .filter((c) => reach.has(key(c)))
      .map((c) => ({ c, d: Math.min(...target.map((t) => w.grid.distM(c, t))), n: reach.get(key(c))! }))
      .sort((a, b) => a.d - b.d || a.n - b.n)[0];
    path = best ? w.grid.path(agent.cell, [best.c], blocked) : undefined;
    closeEnough = false;
  }
  if (!path) {
    return { agent: agent.name, name: 'NavigateTo', ok: false, text: actText({ name: 'NavigateTo', arg: label, navFailure: 'no_path' }, false), detail: `no free cell within 2.5 m of ${label} can be reached from ${agent.name}'s cell`, target: o.id };
  }
  return { agent, o, label, path, at: 0, closeEnough };
}

/** The walk's outcome: arrived (facing the object, which must be interactable) or stopped short. */
function finishWalk(w: World, walk: Walk): ActionOutcome {
  const { agent, o, label, path } = walk;
  const moves = walk.at;
  const outcome = (ok: boolean, detail: string, navFailure?: NavFailure): ActionOutcome => ({
    agent: agent.name,
    name: 'NavigateTo',
    ok,
    text: actText({ name: 'NavigateTo', arg: label, navFailure }, ok),
    detail,
    target: o.id,
  });
  if (walk.stoppedBy !== undefined) {
    // Stopped short, as the released code breaks off at the first failed move: no final turn toward the object.
    const where = `stopped after ${moves} of ${path.length - 1} moves: ${walk.stoppedBy}`;
    return w.interactable(agent, o) ? outcome(false, `${where} (${label} is within reach all the same)`) : outcome(false, `${where}; ${label} is not within reach from there`, 'not_interactable');
  }
  const pose = facePose(w, agent.cell, o);
  agent.heading = pose.heading;
  agent.horizonDeg = pose.horizonDeg;
  const held = w.heldBy(o);
  if (held && held !== agent.name) return outcome(false, `arrived, but ${label} is held by ${held}`, 'not_interactable');
  if (held === agent.name) return outcome(false, `${agent.name} is holding ${label}`, 'not_interactable');
  if (!w.interactable(agent, o)) {
    const others = w.data.agents.filter((a) => a !== agent).map((a) => a.name);
    const why = w.enclosed(o)
      ? `${label} is inside ${w.nameOf(o.parent)}, which is closed`
      : !walk.closeEnough
        ? `the cells within ${INTERACT_RANGE_M} m of ${label} from which it can be seen are taken by ${others.length > 0 ? others.join(', ') : 'nobody'}, open doors, or cut off; stopped ${w.sight(agent, o, 99).distM.toFixed(2)} m away`
        : `${label} is not in view from where ${agent.name} stopped`;
    return outcome(false, `arrived after ${moves} moves, but ${why}`, 'not_interactable');
  }
  return outcome(true, `${moves} moves along A*; facing ${HEADINGS[agent.heading]}, camera pitch ${agent.horizonDeg}°`);
}

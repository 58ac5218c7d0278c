// MAP-THOR-style tasks in the paper's four categories of language ambiguity (1: explicit item type, quantity and
// target; 2: explicit type and target, implicit quantity; 3: explicit target, implicit types and quantity;
// 4: everything implicit). Each runs on at least three floor plans. A task says what must be in the scene (and in
// what state) and builds its checker: the authors' action-level subtasks (NavigateTo(X), PickupObject(X),
// NavigateTo(R, X) and PutObject(R, X) holding X, OpenObject(R), ...), over the object instances present.
import type { RoomKind } from './floorPlans.js';
import type { Rng } from '../../host.js';

/** Which objects a subtask is about: one instance, or any instance of some types. */
export type Selector = { id: string } | { types: readonly string[] };

export type SubtaskSpec =
  | { kind: 'act'; act: 'NavigateTo' | 'Pickup' | 'Open' | 'Close' | 'Slice' | 'Clean' | 'ToggleOn' | 'ToggleOff'; obj: Selector; contains?: Selector; text: string }
  /** Conditional on what the agent holds (before the action): NavigateTo(R, X), PutObject(R, X). */
  | { kind: 'holding'; act: 'NavigateTo' | 'Put'; rec: Selector; held: Selector; text: string };

export interface SceneObjectNeed {
  type: string;
  /** How many (inclusive range; default exactly 1). */
  count?: [number, number];
  /** Receptacle types (or 'Floor') it may start on. */
  on: readonly string[];
  room: RoomKind;
  isDirty?: boolean;
}

/** What the checker needs to know about the scene it was built for. */
export interface SceneQuery {
  /** Object ids of a type (optionally only in rooms of a kind), in scene order. */
  ids(type: string, roomKind?: RoomKind): string[];
  typeOf(id: string): string;
  /** Whether a toggleable object is on at the start. */
  isOn(id: string): boolean;
  /** The room (name) an object is in. */
  roomOf(id: string): string;
  roomKindOf(id: string): RoomKind;
  /** Whether an object starts on the floor. */
  onFloor(id: string): boolean;
  /** The type of the receptacle an object starts in or on. */
  startsOn(id: string): string | undefined;
}

export interface CheckerSpec {
  subtasks: SubtaskSpec[];
  /** Object ids whose successful interaction counts for coverage. */
  coverage: string[];
}

export interface TaskDef {
  id: string;
  category: 1 | 2 | 3 | 4;
  instruction: string;
  /** A plan-specific wording where the plan makes the instruction ambiguous (two faucets in an apartment). */
  instructionFor?: Partial<Record<string, string>>;
  /** The MAP-THOR task it imitates (Appendix C of the paper). */
  imitates: string;
  plans: readonly string[];
  objects?: readonly SceneObjectNeed[];
  /** Optional picks: `choose` of these types are present (seeded), each placed as given. */
  someOf?: { choose: [number, number]; from: readonly SceneObjectNeed[] };
  /** Types removed from the rooms' usual contents (so counts are exact and nothing is ambiguous). */
  remove?: readonly string[];
  /** Sets initial states (lights, faucets) after the scene is built. */
  setup?: (s: SceneSetup, rng: Rng) => void;
  checker: (q: SceneQuery) => CheckerSpec;
}

export interface SceneSetup extends SceneQuery {
  set(id: string, prop: 'isToggled' | 'isOpen' | 'isDirty', value: boolean): void;
}

// --- checker builders -------------------------------------------------------------------------------------------

/**
 * One object in a subtask's text, as a reference the checker names when it reports (`subtaskText`): with the
 * label the agents use for it (`Drawer_1`), which exists only once the team has seen it. A numbering of its own
 * ("Drawer #1") would name a drawer the agents may call Drawer_2.
 */
const one = (id: string) => `{{${id}}}`;

/**
 * A subtask's text with its object references named: the team's label, else (never seen) the type when the scene
 * has one object of it, else the object id (AI2-THOR's `Type|x|y|z`), which no agent label can be confused with.
 */
export function subtaskText(template: string, nameOf: (id: string) => string): string {
  return template.replace(/\{\{([^{}]+)\}\}/g, (_, id: string) => nameOf(id));
}

/** NavigateTo(X), PickupObject(X), NavigateTo(R, X), PutObject(R, X) for each object; R any of `recTypes`. */
function transport(q: SceneQuery, ids: readonly string[], recTypes: readonly string[], recName = recTypes[0]!): SubtaskSpec[] {
  const out: SubtaskSpec[] = [];
  for (const id of ids) {
    const name = one(id);
    out.push(
      { kind: 'act', act: 'NavigateTo', obj: { id }, text: `NavigateTo(${name})` },
      { kind: 'act', act: 'Pickup', obj: { id }, text: `PickupObject(${name})` },
      { kind: 'holding', act: 'NavigateTo', rec: { types: recTypes }, held: { id }, text: `NavigateTo(${recName}, ${name})` },
      { kind: 'holding', act: 'Put', rec: { types: recTypes }, held: { id }, text: `PutObject(${recName}, ${name})` },
    );
  }
  return out;
}

function actOn(q: SceneQuery, act: 'Open' | 'Slice' | 'Clean' | 'ToggleOn' | 'ToggleOff', ids: readonly string[]): SubtaskSpec[] {
  const verb = { Open: 'OpenObject', Slice: 'SliceObject', Clean: 'CleanObject', ToggleOn: 'ToggleObjectOn', ToggleOff: 'ToggleObjectOff' }[act];
  return ids.flatMap((id): SubtaskSpec[] => [
    { kind: 'act', act: 'NavigateTo', obj: { id }, text: `NavigateTo(${one(id)})` },
    { kind: 'act', act, obj: { id }, text: `${verb}(${one(id)})` },
  ]);
}

const openClose = (type: string): SubtaskSpec[] => [
  { kind: 'act', act: 'Open', obj: { types: [type] }, text: `OpenObject(${type})` },
  { kind: 'act', act: 'Close', obj: { types: [type] }, text: `CloseObject(${type})` },
];

const FOOD = ['Apple', 'Tomato', 'Bread', 'Lettuce', 'Potato', 'Egg'];
const DISHES = ['Mug', 'Bowl', 'Plate', 'Cup'];
const SILVERWARE = ['Fork', 'Spoon', 'Knife', 'ButterKnife'];

/** Where an item belongs when a task says "appropriate place" (the checker accepts any of these). */
export const APPROPRIATE: Record<string, readonly string[]> = {
  ...Object.fromEntries(FOOD.map((t) => [t, ['Fridge']])),
  ...Object.fromEntries(DISHES.map((t) => [t, ['Sink', 'Cabinet']])),
  ...Object.fromEntries(SILVERWARE.map((t) => [t, ['Drawer', 'Sink']])),
  Pillow: ['Sofa', 'Bed', 'ArmChair'],
  TeddyBear: ['Bed', 'Sofa', 'ArmChair'],
  Book: ['Shelf', 'Desk', 'SideTable', 'CoffeeTable'],
  RemoteControl: ['CoffeeTable', 'TVStand', 'Sofa', 'SideTable'],
  Laptop: ['Desk', 'CoffeeTable', 'Sofa', 'Bed'],
};

/** Items placed appropriately, each with the authors' four transport subtasks; Open/Close(Fridge) when food moves. */
function clearInto(q: SceneQuery, ids: readonly string[]): SubtaskSpec[] {
  const out: SubtaskSpec[] = [];
  for (const id of ids) {
    const recs = APPROPRIATE[q.typeOf(id)] ?? [];
    out.push(...transport(q, [id], recs, recs.join('|')));
  }
  if (ids.some((id) => FOOD.includes(q.typeOf(id)))) out.push(...openClose('Fridge'));
  return out;
}

const allIds = (q: SceneQuery, types: readonly string[], room?: RoomKind) => types.flatMap((t) => q.ids(t, room));
const coverageOf = (subtasks: SubtaskSpec[], q: SceneQuery, extraTypes: readonly string[] = []): string[] => {
  const ids = new Set<string>();
  for (const s of subtasks) {
    if (s.kind === 'act' && 'id' in s.obj) ids.add(s.obj.id);
    if (s.kind === 'holding' && 'id' in s.held) ids.add(s.held.id);
  }
  for (const t of extraTypes) for (const id of q.ids(t)) ids.add(id);
  return [...ids];
};

const KITCHENS = ['kitchen', 'galley_kitchen', 'apartment', 'studio'] as const;
const LIVING = ['living_room', 'apartment', 'studio'] as const;
const TOP = ['CounterTop', 'DiningTable'] as const;

export const TASKS: readonly TaskDef[] = [
  // ---- 1: explicit item type, quantity and target -------------------------------------------------------------
  {
    id: 'put_bread_lettuce_tomato_fridge',
    category: 1,
    instruction: 'Put the bread, the lettuce and the tomato in the fridge.',
    imitates: 'MAP-THOR 1.1 put bread, lettuce, and a tomato in the fridge',
    plans: KITCHENS,
    objects: [
      { type: 'Bread', on: TOP, room: 'kitchen' },
      { type: 'Lettuce', on: TOP, room: 'kitchen' },
      { type: 'Tomato', on: TOP, room: 'kitchen' },
    ],
    checker: (q) => {
      const subtasks = [...transport(q, allIds(q, ['Bread', 'Lettuce', 'Tomato']), ['Fridge']), ...openClose('Fridge')];
      return { subtasks, coverage: coverageOf(subtasks, q, ['Fridge']) };
    },
  },
  {
    id: 'slice_bread_tomato_crack_egg',
    category: 1,
    instruction: 'Slice the bread and the tomato, and crack the egg.',
    imitates: 'MAP-THOR 1.3 slice the bread and tomato and crack the egg',
    plans: KITCHENS,
    objects: [
      { type: 'Bread', on: TOP, room: 'kitchen' },
      { type: 'Tomato', on: TOP, room: 'kitchen' },
      { type: 'Egg', on: TOP, room: 'kitchen' },
    ],
    checker: (q) => {
      const subtasks = actOn(q, 'Slice', allIds(q, ['Bread', 'Tomato', 'Egg']));
      return { subtasks, coverage: coverageOf(subtasks, q) };
    },
  },
  {
    id: 'turn_off_faucet_and_light',
    category: 1,
    instruction: 'Turn off the faucet and the light if either of them is on.',
    instructionFor: { apartment: 'Turn off the kitchen faucet and the kitchen light if either of them is on.' },
    imitates: 'MAP-THOR 1.5 turn off the faucet and light if either is on',
    plans: ['kitchen', 'galley_kitchen', 'bathroom', 'apartment'],
    setup: (s, rng) => {
      const faucet = s.ids('Faucet')[0]!;
      const room = s.roomOf(faucet);
      const light = s.ids('LightSwitch').find((id) => s.roomOf(id) === room)!;
      // At least one of them is on; which ones depends on the seed.
      const faucetOn = rng.next() < 0.75;
      s.set(faucet, 'isToggled', faucetOn);
      s.set(light, 'isToggled', !faucetOn || rng.next() < 0.6);
    },
    checker: (q) => {
      const faucet = q.ids('Faucet')[0]!;
      const light = q.ids('LightSwitch').find((id) => q.roomOf(id) === q.roomOf(faucet))!;
      const subtasks = actOn(q, 'ToggleOff', [faucet, light].filter((id) => q.isOn(id)));
      return { subtasks, coverage: coverageOf(subtasks, q) };
    },
  },
  {
    id: 'put_laptop_book_pen_sofa',
    category: 1,
    instruction: 'Put the laptop, the book and the pen on the sofa.',
    imitates: 'MAP-THOR 1.7 put the computer, book, and pen on the couch',
    plans: LIVING,
    objects: [
      { type: 'Laptop', on: ['Desk', 'CoffeeTable'], room: 'living' },
      { type: 'Book', on: ['Shelf', 'SideTable', 'CoffeeTable'], room: 'living' },
      { type: 'Pen', on: ['Desk', 'SideTable', 'CoffeeTable'], room: 'living' },
    ],
    remove: ['Pencil'],
    checker: (q) => {
      const subtasks = transport(q, allIds(q, ['Laptop', 'Book', 'Pen'], 'living'), ['Sofa']);
      return { subtasks, coverage: coverageOf(subtasks, q, ['Sofa']) };
    },
  },
  {
    id: 'wash_bowl_mug_pot_pan',
    category: 1,
    instruction: 'Wash the bowl, the mug, the pot and the pan.',
    imitates: 'MAP-THOR 1.11 wash the bowl, mug, pot, and pan',
    plans: KITCHENS,
    objects: [
      { type: 'Bowl', on: ['CounterTop', 'DiningTable', 'Sink'], room: 'kitchen', isDirty: true },
      { type: 'Mug', on: ['CounterTop', 'DiningTable', 'Sink'], room: 'kitchen', isDirty: true },
      { type: 'Pot', on: ['StoveBurner', 'CounterTop'], room: 'kitchen', isDirty: true },
      { type: 'Pan', on: ['StoveBurner', 'CounterTop'], room: 'kitchen', isDirty: true },
    ],
    remove: ['Cup', 'Plate'],
    checker: (q) => {
      const subtasks = actOn(q, 'Clean', allIds(q, ['Bowl', 'Mug', 'Pot', 'Pan']));
      return { subtasks, coverage: coverageOf(subtasks, q) };
    },
  },
  // ---- 2: explicit type and target, implicit quantity ---------------------------------------------------------
  {
    id: 'open_all_drawers',
    category: 2,
    instruction: 'Open all the drawers.',
    imitates: 'MAP-THOR 2.1 open all the drawers',
    plans: ['kitchen', 'bedroom', 'living_room', 'apartment'],
    checker: (q) => {
      const subtasks = actOn(q, 'Open', q.ids('Drawer'));
      return { subtasks, coverage: coverageOf(subtasks, q) };
    },
  },
  {
    id: 'turn_on_all_stove_knobs',
    category: 2,
    instruction: 'Turn on all the stove knobs.',
    imitates: 'MAP-THOR 2.3 turn on all the stove knobs',
    plans: KITCHENS,
    checker: (q) => {
      const subtasks = actOn(q, 'ToggleOn', q.ids('StoveKnob'));
      return { subtasks, coverage: coverageOf(subtasks, q) };
    },
  },
  {
    id: 'put_all_potatoes_in_bowl',
    category: 2,
    instruction: 'Put all the potatoes in the bowl.',
    imitates: 'MAP-THOR 2.5 put all the potatoes in the bowl',
    plans: KITCHENS,
    objects: [
      { type: 'Potato', count: [2, 3], on: ['CounterTop', 'DiningTable', 'Sink'], room: 'kitchen' },
      { type: 'Bowl', on: TOP, room: 'kitchen' },
    ],
    checker: (q) => {
      const subtasks = transport(q, q.ids('Potato'), ['Bowl']);
      return { subtasks, coverage: coverageOf(subtasks, q, ['Bowl']) };
    },
  },
  {
    id: 'turn_off_all_light_switches',
    category: 2,
    instruction: 'Turn off all the light switches.',
    imitates: 'MAP-THOR 2.8 turn off all light switches',
    plans: ['kitchen', 'galley_kitchen', 'living_room', 'bedroom', 'bathroom', 'apartment', 'studio'],
    setup: (s) => {
      for (const id of s.ids('LightSwitch')) s.set(id, 'isToggled', true);
    },
    checker: (q) => {
      const subtasks = actOn(q, 'ToggleOff', q.ids('LightSwitch'));
      return { subtasks, coverage: coverageOf(subtasks, q) };
    },
  },
  // ---- 3: explicit target, implicit item types and quantity ---------------------------------------------------
  {
    id: 'put_all_groceries_fridge',
    category: 3,
    instruction: 'Put all the groceries in the fridge.',
    imitates: 'MAP-THOR 3.1 put all groceries in the fridge (tomato, bread, apple, potato, lettuce)',
    plans: KITCHENS,
    someOf: {
      choose: [3, 5],
      from: ['Tomato', 'Bread', 'Apple', 'Potato', 'Lettuce'].map((type) => ({ type, on: TOP, room: 'kitchen' as const })),
    },
    remove: ['Egg'],
    checker: (q) => {
      const subtasks = [...transport(q, allIds(q, ['Tomato', 'Bread', 'Apple', 'Potato', 'Lettuce']), ['Fridge']), ...openClose('Fridge')];
      return { subtasks, coverage: coverageOf(subtasks, q, ['Fridge']) };
    },
  },
  {
    id: 'put_all_school_supplies_sofa',
    category: 3,
    instruction: 'Put all the school supplies on the sofa.',
    imitates: 'MAP-THOR 3.5 put all school supplies on the couch (pencil, computer, book)',
    plans: LIVING,
    someOf: {
      choose: [3, 4],
      from: [
        { type: 'Pencil', on: ['Desk', 'Shelf', 'CoffeeTable'], room: 'living' },
        { type: 'Pen', on: ['Desk', 'SideTable', 'CoffeeTable'], room: 'living' },
        { type: 'Book', on: ['Shelf', 'SideTable', 'CoffeeTable'], room: 'living' },
        { type: 'Laptop', on: ['Desk', 'CoffeeTable'], room: 'living' },
      ],
    },
    checker: (q) => {
      const subtasks = transport(q, allIds(q, ['Pencil', 'Pen', 'Book', 'Laptop'], 'living'), ['Sofa']);
      return { subtasks, coverage: coverageOf(subtasks, q, ['Sofa']) };
    },
  },
  {
    id: 'put_all_tableware_countertop',
    category: 3,
    instruction: 'Put all the tableware on the countertop.',
    imitates: 'MAP-THOR 3.3 put all tableware on the countertop (bowl, plate, mug)',
    plans: KITCHENS,
    objects: [
      { type: 'Bowl', on: ['DiningTable', 'Sink'], room: 'kitchen' },
      { type: 'Plate', on: ['DiningTable', 'Sink'], room: 'kitchen' },
      { type: 'Mug', on: ['DiningTable', 'Sink'], room: 'kitchen' },
    ],
    remove: ['Cup'],
    checker: (q) => {
      const subtasks = transport(q, allIds(q, ['Bowl', 'Plate', 'Mug']), ['CounterTop']);
      return { subtasks, coverage: coverageOf(subtasks, q) };
    },
  },
  {
    id: 'put_all_silverware_sink',
    category: 3,
    instruction: 'Put all the silverware in the sink.',
    imitates: 'MAP-THOR 3.7 put all silverware in the sink',
    plans: KITCHENS,
    someOf: {
      choose: [2, 4],
      from: SILVERWARE.map((type) => ({ type, on: ['CounterTop', 'DiningTable'], room: 'kitchen' as const })),
    },
    remove: ['Spatula', 'Ladle'],
    checker: (q) => {
      const subtasks = transport(q, allIds(q, SILVERWARE, 'kitchen'), ['Sink']);
      return { subtasks, coverage: coverageOf(subtasks, q) };
    },
  },
  // ---- 4: implicit target, item types and quantity ------------------------------------------------------------
  {
    id: 'make_living_room_dark',
    category: 4,
    instruction: 'Make the living room dark.',
    imitates: 'MAP-THOR 4.7 make the living room dark',
    plans: LIVING,
    setup: (s, rng) => {
      for (const t of ['LightSwitch', 'FloorLamp', 'DeskLamp']) for (const id of s.ids(t, 'living')) s.set(id, 'isToggled', true);
      for (const id of s.ids('Television', 'living')) s.set(id, 'isToggled', rng.next() < 0.5);
    },
    checker: (q) => {
      const on = ['LightSwitch', 'FloorLamp', 'DeskLamp', 'Television'].flatMap((t) => q.ids(t, 'living')).filter((id) => q.isOn(id));
      const subtasks = actOn(q, 'ToggleOff', on);
      return { subtasks, coverage: coverageOf(subtasks, q) };
    },
  },
  {
    id: 'make_coffee_and_toast',
    category: 4,
    instruction: 'Make a mug of coffee and toast the bread.',
    imitates: 'MAP-THOR 4.8 make a mug of coffee and toast the bread',
    plans: KITCHENS,
    objects: [
      { type: 'Mug', on: TOP, room: 'kitchen' },
      { type: 'Bread', on: TOP, room: 'kitchen' },
    ],
    remove: ['Cup'],
    checker: (q) => {
      const mug = q.ids('Mug')[0]!;
      const bread = q.ids('Bread')[0]!;
      const subtasks: SubtaskSpec[] = [
        ...transport(q, [mug], ['CoffeeMachine']),
        { kind: 'act', act: 'ToggleOn', obj: { types: ['CoffeeMachine'] }, contains: { id: mug }, text: 'ToggleObjectOn(CoffeeMachine, Mug)' },
        { kind: 'act', act: 'Slice', obj: { id: bread }, text: 'SliceObject(Bread)' },
        ...transport(q, [bread], ['Toaster']),
        { kind: 'act', act: 'ToggleOn', obj: { types: ['Toaster'] }, contains: { id: bread }, text: 'ToggleObjectOn(Toaster, Bread)' },
      ];
      return { subtasks, coverage: coverageOf(subtasks, q, ['CoffeeMachine', 'Toaster']) };
    },
  },
  {
    id: 'clear_dining_table',
    category: 4,
    instruction: 'Clear the dining table by putting the items in their appropriate places.',
    imitates: 'MAP-THOR 4.2 clear the table by placing the items in their appropriate positions',
    plans: KITCHENS,
    someOf: {
      choose: [3, 4],
      from: ['Apple', 'Tomato', 'Bread', 'Mug', 'Bowl', 'Plate', 'ButterKnife'].map((type) => ({ type, on: ['DiningTable'], room: 'kitchen' as const })),
    },
    checker: (q) => {
      const ids = ['Apple', 'Tomato', 'Bread', 'Mug', 'Bowl', 'Plate', 'ButterKnife'].flatMap((t) => q.ids(t, 'kitchen')).filter((id) => q.startsOn(id) === 'DiningTable');
      const subtasks = clearInto(q, ids);
      return { subtasks, coverage: coverageOf(subtasks, q) };
    },
  },
  {
    id: 'clear_the_floor',
    category: 4,
    instruction: 'Clear the floor by putting the items in their appropriate places.',
    imitates: 'MAP-THOR 4.1 clear the floor by placing items at their appropriate positions',
    plans: ['living_room', 'bedroom', 'apartment'],
    someOf: {
      choose: [2, 3],
      from: [
        { type: 'Pillow', on: ['Floor'], room: 'living' },
        { type: 'Book', on: ['Floor'], room: 'living' },
        { type: 'RemoteControl', on: ['Floor'], room: 'living' },
        { type: 'Pillow', on: ['Floor'], room: 'bedroom' },
        { type: 'TeddyBear', on: ['Floor'], room: 'bedroom' },
        { type: 'Laptop', on: ['Floor'], room: 'bedroom' },
      ],
    },
    checker: (q) => {
      const onFloor = ['Pillow', 'Book', 'RemoteControl', 'TeddyBear', 'Laptop'].flatMap((t) => q.ids(t)).filter((id) => q.onFloor(id));
      const subtasks = clearInto(q, onFloor);
      return { subtasks, coverage: coverageOf(subtasks, q) };
    },
  },
];

export function taskById(id: string): TaskDef | undefined {
  return TASKS.find((t) => t.id === id);
}

export const CATEGORY_LABELS: Record<TaskDef['category'], string> = {
  1: 'explicit item type, quantity and target',
  2: 'explicit item type and target, implicit quantity',
  3: 'explicit target, implicit item types and quantity',
  4: 'implicit target, item types and quantity',
};

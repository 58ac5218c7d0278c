// MAP-THOR's 44 tasks (Appendix C of the LLaMAR paper, its wording and order) in the paper's four categories of
// language ambiguity (1: explicit item type, quantity and target; 2: explicit type and target, implicit quantity;
// 3: explicit target, implicit item types and quantity; 4: everything implicit). Ids follow the released code's
// folder names ("<category>_<words>"). Each task is posed on the five single-room floor plans of the room kind it
// needs (AI2-THOR's scenes are single rooms), says what must be in the scene (and in what state), which same-type
// and look-alike distractors lie around, and builds its checker: the authors' action-level subtasks
// (NavigateTo(X), PickupObject(X), NavigateTo(R, X) and PutObject(R, X) holding X, OpenObject(R), ...). Where the
// instruction names a type ("the mug"), any instance of it counts, as the released checkers strip the instance
// number; where it says "all", every instance present must be done.
import { PLANS_BY_KIND, type RoomKind } from './floorPlans.js';
import type { Rng } from '../../host.js';

/** Which objects a subtask is about: one instance, or any instance of some types. */
export type Selector = { id: string } | { types: readonly string[] };

export type SubtaskSpec =
  | { kind: 'act'; act: 'NavigateTo' | 'Pickup' | 'Open' | 'Close' | 'Slice' | 'Clean' | 'ToggleOn' | 'ToggleOff'; obj: Selector; contains?: readonly Selector[]; text: string }
  /**
   * Conditional on what the agent holds (before the action): NavigateTo(R, X), PutObject(R, X). `near`: the put
   * object must end within `withinM` of an object of one of these types ("next to the door").
   */
  | { kind: 'holding'; act: 'NavigateTo' | 'Put'; rec: Selector; held: Selector; text: string; near?: { types: readonly string[]; withinM: number } };

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

/** Objects of the given types that start in or on one of the given receptacle types, in scene order by type. */
function startingOn(q: SceneQuery, types: readonly string[], places: readonly string[]): string[] {
  return types.flatMap((t) => q.ids(t)).filter((id) => places.includes(q.startsOn(id) ?? ''));
}

export interface CheckerSpec {
  subtasks: SubtaskSpec[];
  /** What counts for coverage: object ids, or type names (any object of the type, as the released checkers list them). */
  coverage: string[];
}

export type TaskRoom = 'kitchen' | 'living' | 'bedroom';

export interface TaskDef {
  id: string;
  /** Its place in the paper's Appendix C list ("1.1" ... "4.10"). */
  paper: string;
  category: 1 | 2 | 3 | 4;
  /** The paper's wording. */
  instruction: string;
  /** A plan-specific wording where the plan makes the instruction ambiguous (two faucets in an apartment). */
  instructionFor?: Partial<Record<string, string>>;
  /** The MAP-THOR task it is (Appendix C of the paper). */
  imitates: string;
  /** The room kind the task is posed in. */
  room: TaskRoom;
  /** Its five floor plans (single rooms of that kind). */
  plans: readonly string[];
  /** More plans it also runs on (multi-room ones kept from the earlier task list); not MAP-THOR's five. */
  extraPlans?: readonly string[];
  /** Ids of the earlier 17-task list that now name this task, with the plans each ran on (the first is its default). */
  aliases?: readonly { id: string; plans: readonly string[] }[];
  objects?: readonly SceneObjectNeed[];
  /** Optional picks: `choose` of these types are present (seeded), each placed as given. */
  someOf?: { choose: [number, number]; from: readonly SceneObjectNeed[] };
  /** Same-type and look-alike objects the task does not ask for (the checker ignores them). */
  distractors?: readonly SceneObjectNeed[];
  /** Types removed from the rooms' usual contents (so counts are exact and nothing is ambiguous). */
  remove?: readonly string[];
  /** Receptacle types (or 'Floor') the rooms' usual contents stay out of (a surface to clear, a drawer to fill). */
  keepFree?: readonly string[];
  /** The scene has Floor and Doorway objects (to put things down on the floor next to a door). */
  floorObjects?: boolean;
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

/** NavigateTo(X), PickupObject(X), NavigateTo(R, X), PutObject(R, X) for each object instance; R any of `recTypes`. */
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

/** The same four subtasks for one object of each type, any instance (the released checkers' denumerated names). */
function transportTypes(types: readonly string[], recTypes: readonly string[], recName = recTypes[0]!): SubtaskSpec[] {
  return types.flatMap((t): SubtaskSpec[] => [
    { kind: 'act', act: 'NavigateTo', obj: { types: [t] }, text: `NavigateTo(${t})` },
    { kind: 'act', act: 'Pickup', obj: { types: [t] }, text: `PickupObject(${t})` },
    { kind: 'holding', act: 'NavigateTo', rec: { types: recTypes }, held: { types: [t] }, text: `NavigateTo(${recName}, ${t})` },
    { kind: 'holding', act: 'Put', rec: { types: recTypes }, held: { types: [t] }, text: `PutObject(${recName}, ${t})` },
  ]);
}

type Verb = 'Open' | 'Slice' | 'Clean' | 'ToggleOn' | 'ToggleOff';
const VERB_NAME: Record<Verb, string> = { Open: 'OpenObject', Slice: 'SliceObject', Clean: 'CleanObject', ToggleOn: 'ToggleObjectOn', ToggleOff: 'ToggleObjectOff' };

/** NavigateTo(X), Verb(X) for each instance. */
function actOn(q: SceneQuery, act: Verb, ids: readonly string[]): SubtaskSpec[] {
  return ids.flatMap((id): SubtaskSpec[] => [
    { kind: 'act', act: 'NavigateTo', obj: { id }, text: `NavigateTo(${one(id)})` },
    { kind: 'act', act, obj: { id }, text: `${VERB_NAME[act]}(${one(id)})` },
  ]);
}

/** NavigateTo(T), Verb(T) for one object of each type (any instance). */
function actOnTypes(act: Verb, types: readonly string[]): SubtaskSpec[] {
  return types.flatMap((t): SubtaskSpec[] => [
    { kind: 'act', act: 'NavigateTo', obj: { types: [t] }, text: `NavigateTo(${t})` },
    { kind: 'act', act, obj: { types: [t] }, text: `${VERB_NAME[act]}(${t})` },
  ]);
}

const openClose = (type: string): SubtaskSpec[] => [
  { kind: 'act', act: 'Open', obj: { types: [type] }, text: `OpenObject(${type})` },
  { kind: 'act', act: 'Close', obj: { types: [type] }, text: `CloseObject(${type})` },
];
const openOnly = (type: string): SubtaskSpec => ({ kind: 'act', act: 'Open', obj: { types: [type] }, text: `OpenObject(${type})` });

const FOOD = ['Apple', 'Tomato', 'Bread', 'Lettuce', 'Potato', 'Egg'];
const GROCERIES = ['Tomato', 'Bread', 'Apple', 'Potato', 'Lettuce'];
const SILVERWARE = ['Fork', 'Spoon', 'Knife', 'ButterKnife'];
const SLICEABLE = ['Apple', 'Bread', 'Lettuce', 'Potato', 'Tomato', 'Egg'];
/** "the table" in a living room: the dining or coffee table (a side table also takes things put "on the table"). */
const LIVING_TABLES = ['DiningTable', 'CoffeeTable', 'SideTable'];

/** Where an item belongs when a task says "appropriate positions" (the checker accepts any of these). */
export const APPROPRIATE: Record<string, readonly string[]> = {
  ...Object.fromEntries(FOOD.map((t) => [t, ['Fridge']])),
  Mug: ['Sink', 'Cabinet', 'CoffeeMachine'],
  Cup: ['Sink', 'Cabinet'],
  Bowl: ['Sink', 'Cabinet', 'Shelf'],
  Plate: ['Sink', 'Cabinet', 'Shelf', 'SideTable'],
  ...Object.fromEntries(SILVERWARE.map((t) => [t, ['Drawer', 'Sink']])),
  PaperTowelRoll: ['Cabinet', 'Drawer', 'Shelf'],
  Pillow: ['Sofa', 'Bed', 'ArmChair'],
  TeddyBear: ['Bed', 'Sofa', 'ArmChair'],
  Book: ['Shelf', 'Desk', 'SideTable', 'CoffeeTable', 'Bed'],
  RemoteControl: ['CoffeeTable', 'TVStand', 'Sofa', 'SideTable'],
  Laptop: ['Desk', 'CoffeeTable', 'Sofa', 'Bed'],
  Statue: ['Shelf', 'SideTable', 'TVStand', 'CoffeeTable', 'Dresser'],
  Watch: ['SideTable', 'Drawer', 'Dresser', 'Shelf', 'Desk'],
  CreditCard: ['Desk', 'Drawer', 'SideTable', 'Dresser', 'Box'],
  Newspaper: ['Sofa', 'SideTable', 'Shelf', 'Desk', 'CoffeeTable'],
  Pen: ['Desk', 'Drawer', 'Shelf', 'SideTable'],
  Pencil: ['Desk', 'Drawer', 'Shelf', 'SideTable'],
  KeyChain: ['SideTable', 'Drawer', 'Dresser', 'Shelf'],
  CellPhone: ['SideTable', 'Desk', 'Bed', 'Sofa'],
};

/** Each item put where it belongs (but not back where it was: "other" positions); Open/Close(Fridge) when food goes in
 *  (the fridge is the one place for food; silverware may go to a drawer or the sink, so no drawer must be opened). */
function clearInto(q: SceneQuery, ids: readonly string[], from: readonly string[]): SubtaskSpec[] {
  const out: SubtaskSpec[] = [];
  for (const id of ids) {
    const recs = (APPROPRIATE[q.typeOf(id)] ?? []).filter((r) => !from.includes(r));
    out.push(...transport(q, [id], recs, recs.join('|')));
  }
  if (ids.some((id) => FOOD.includes(q.typeOf(id)))) out.push(...openClose('Fridge'));
  return out;
}

const allIds = (q: SceneQuery, types: readonly string[], room?: RoomKind) => types.flatMap((t) => q.ids(t, room));
/** Coverage: the instances the subtasks name, and the types they name (any object of the type). */
const coverageOf = (subtasks: SubtaskSpec[], extra: readonly string[] = []): string[] => {
  const out = new Set<string>();
  const add = (sel: Selector) => ('id' in sel ? out.add(sel.id) : sel.types.length === 1 && out.add(sel.types[0]!));
  for (const s of subtasks) {
    if (s.kind === 'act' && s.act !== 'Open' && s.act !== 'Close') add(s.obj);
    if (s.kind === 'holding') add(s.held);
  }
  for (const t of extra) out.add(t);
  return [...out];
};
const simple = (subtasks: SubtaskSpec[], extra: readonly string[] = []): CheckerSpec => ({ subtasks, coverage: coverageOf(subtasks, extra) });

const TOP = ['CounterTop', 'DiningTable'] as const;
const K = PLANS_BY_KIND.kitchen;
const L = PLANS_BY_KIND.living;
const B = PLANS_BY_KIND.bedroom;
const need = (type: string, on: readonly string[], room: RoomKind, extra: Partial<SceneObjectNeed> = {}): SceneObjectNeed => ({ type, on, room, ...extra });
const kitchen = (type: string, on: readonly string[] = TOP, extra: Partial<SceneObjectNeed> = {}) => need(type, on, 'kitchen', extra);
const living = (type: string, on: readonly string[], extra: Partial<SceneObjectNeed> = {}) => need(type, on, 'living', extra);
const bedroom = (type: string, on: readonly string[], extra: Partial<SceneObjectNeed> = {}) => need(type, on, 'bedroom', extra);

export const TASKS: readonly TaskDef[] = [
  // ---- 1: explicit item type, quantity and target -------------------------------------------------------------
  {
    id: '1_put_bread_lettuce_tomato_fridge',
    paper: '1.1',
    category: 1,
    instruction: 'put bread, lettuce, and a tomato in the fridge',
    imitates: 'MAP-THOR 1.1',
    room: 'kitchen',
    plans: K,
    extraPlans: ['apartment', 'studio'],
    aliases: [{ id: 'put_bread_lettuce_tomato_fridge', plans: ['kitchen', 'galley_kitchen', 'apartment', 'studio'] }],
    objects: [kitchen('Bread'), kitchen('Lettuce'), kitchen('Tomato')],
    distractors: [kitchen('Tomato'), kitchen('Potato')],
    checker: () => simple([...transportTypes(['Bread', 'Lettuce', 'Tomato'], ['Fridge']), ...openClose('Fridge')], ['Fridge']),
  },
  {
    id: '1_put_pots_pans_stove_burners',
    paper: '1.2',
    category: 1,
    instruction: 'Put the pots and pans on the stove burners',
    imitates: 'MAP-THOR 1.2',
    room: 'kitchen',
    plans: K,
    objects: [kitchen('Pot', ['CounterTop', 'DiningTable', 'Sink']), kitchen('Pan', ['CounterTop', 'DiningTable'])],
    // A kettle already takes one burner: a burner holds one pot.
    distractors: [kitchen('Kettle', ['StoveBurner'])],
    checker: () => simple(transportTypes(['Pot', 'Pan'], ['StoveBurner']), ['StoveBurner']),
  },
  {
    id: '1_slice_bread_tomato_crack_egg',
    paper: '1.3',
    category: 1,
    instruction: 'Slice the bread and tomato and crack the egg',
    imitates: 'MAP-THOR 1.3',
    room: 'kitchen',
    plans: K,
    extraPlans: ['apartment', 'studio'],
    aliases: [{ id: 'slice_bread_tomato_crack_egg', plans: ['kitchen', 'galley_kitchen', 'apartment', 'studio'] }],
    objects: [kitchen('Bread'), kitchen('Tomato'), kitchen('Egg')],
    distractors: [kitchen('Apple'), kitchen('Egg', ['Fridge'])],
    checker: () => simple(actOnTypes('Slice', ['Bread', 'Tomato', 'Egg'])),
  },
  {
    id: '1_put_butterknife_bowl_mug_sink',
    paper: '1.4',
    category: 1,
    instruction: 'Put the butter knife, bowl, and mug in the sink',
    imitates: 'MAP-THOR 1.4',
    room: 'kitchen',
    plans: K,
    objects: [kitchen('ButterKnife'), kitchen('Bowl'), kitchen('Mug')],
    distractors: [kitchen('Knife'), kitchen('Cup')],
    checker: () => simple(transportTypes(['ButterKnife', 'Bowl', 'Mug'], ['Sink']), ['Sink']),
  },
  {
    id: '1_turn_off_faucet_light',
    paper: '1.5',
    category: 1,
    instruction: 'Turn off the faucet and light if either is on',
    instructionFor: { apartment: 'Turn off the kitchen faucet and the kitchen light if either is on' },
    imitates: 'MAP-THOR 1.5',
    room: 'kitchen',
    plans: K,
    extraPlans: ['bathroom', 'apartment'],
    aliases: [{ id: 'turn_off_faucet_and_light', plans: ['kitchen', 'galley_kitchen', 'bathroom', 'apartment'] }],
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
      return simple(actOn(q, 'ToggleOff', [faucet, light].filter((id) => q.isOn(id))));
    },
  },
  {
    id: '1_put_tissuebox_keys_plate_box',
    paper: '1.6',
    category: 1,
    instruction: 'Put the tissue box, keys, and plate in the box',
    imitates: 'MAP-THOR 1.6',
    room: 'living',
    plans: L,
    objects: [
      living('TissueBox', ['SideTable', 'TVStand', 'CoffeeTable', 'DiningTable']),
      living('KeyChain', ['SideTable', 'Shelf', 'TVStand']),
      living('Plate', ['DiningTable', 'CoffeeTable', 'Shelf']),
      living('Box', ['Floor']),
    ],
    distractors: [living('Watch', ['SideTable', 'Shelf', 'TVStand']), living('CreditCard', ['Desk', 'Shelf'])],
    checker: () => simple(transportTypes(['TissueBox', 'KeyChain', 'Plate'], ['Box']), ['Box']),
  },
  {
    id: '1_put_computer_book_pen_couch',
    paper: '1.7',
    category: 1,
    instruction: 'Put the computer, book, and pen on the couch',
    imitates: 'MAP-THOR 1.7',
    room: 'living',
    plans: L,
    extraPlans: ['apartment', 'studio'],
    aliases: [{ id: 'put_laptop_book_pen_sofa', plans: ['living_room', 'apartment', 'studio'] }],
    objects: [living('Laptop', ['Desk', 'CoffeeTable', 'DiningTable']), living('Book', ['Shelf', 'SideTable']), living('Pen', ['Desk', 'SideTable'])],
    distractors: [living('Pencil', ['Desk', 'SideTable']), living('Book', ['Shelf', 'TVStand'])],
    checker: () => simple(transportTypes(['Laptop', 'Book', 'Pen'], ['Sofa']), ['Sofa']),
  },
  {
    id: '1_put_bowl_tissuebox_table',
    paper: '1.8',
    category: 1,
    instruction: 'Put the bowl and tissue box on the table',
    imitates: 'MAP-THOR 1.8',
    room: 'living',
    plans: L,
    objects: [living('Bowl', ['Shelf', 'TVStand', 'Desk']), living('TissueBox', ['Shelf', 'TVStand', 'Desk'])],
    distractors: [living('Vase', ['Shelf', 'TVStand'])],
    keepFree: LIVING_TABLES,
    checker: () => simple(transportTypes(['Bowl', 'TissueBox'], LIVING_TABLES, 'Table')),
  },
  {
    id: '1_put_apple_fridge_switch_off_light',
    paper: '1.9',
    category: 1,
    instruction: 'Put apple in fridge and switch off the light',
    imitates: 'MAP-THOR 1.9',
    room: 'kitchen',
    plans: K,
    objects: [kitchen('Apple')],
    distractors: [kitchen('Tomato')],
    setup: (s) => {
      for (const id of s.ids('LightSwitch')) s.set(id, 'isToggled', true);
    },
    checker: () => simple([...transportTypes(['Apple'], ['Fridge']), ...openClose('Fridge'), ...actOnTypes('ToggleOff', ['LightSwitch'])], ['Fridge']),
  },
  {
    id: '1_put_watch_keychain_drawer',
    paper: '1.10',
    category: 1,
    instruction: 'Put the watch and Keychain inside the drawer',
    imitates: 'MAP-THOR 1.10',
    room: 'bedroom',
    plans: B,
    objects: [bedroom('Watch', ['Dresser', 'Desk', 'Bed']), bedroom('KeyChain', ['Dresser', 'Desk', 'Bed'])],
    distractors: [bedroom('CreditCard', ['Desk', 'Dresser'])],
    keepFree: ['Drawer'],
    checker: () => simple([...transportTypes(['Watch', 'KeyChain'], ['Drawer']), openOnly('Drawer')], ['Drawer']),
  },
  {
    id: '1_wash_bowl_mug_pot_pan',
    paper: '1.11',
    category: 1,
    instruction: 'Wash the bowl, mug, pot, and pan',
    imitates: 'MAP-THOR 1.11',
    room: 'kitchen',
    plans: K,
    extraPlans: ['apartment', 'studio'],
    aliases: [{ id: 'wash_bowl_mug_pot_pan', plans: ['kitchen', 'galley_kitchen', 'apartment', 'studio'] }],
    objects: [
      kitchen('Bowl', ['CounterTop', 'DiningTable', 'Sink'], { isDirty: true }),
      kitchen('Mug', ['CounterTop', 'DiningTable', 'Sink'], { isDirty: true }),
      kitchen('Pot', ['StoveBurner', 'CounterTop'], { isDirty: true }),
      kitchen('Pan', ['StoveBurner', 'CounterTop'], { isDirty: true }),
    ],
    distractors: [kitchen('Plate', ['CounterTop', 'DiningTable'], { isDirty: true })],
    remove: ['Cup'],
    checker: () => simple(actOnTypes('Clean', ['Bowl', 'Mug', 'Pot', 'Pan'])),
  },
  {
    id: '1_put_box_sofa_bowl_box',
    paper: '1.12',
    category: 1,
    instruction: 'Put the Box on the sofa and the bowl in the box',
    imitates: 'MAP-THOR 1.12',
    room: 'living',
    plans: L,
    objects: [living('Box', ['Floor']), living('Bowl', ['DiningTable', 'CoffeeTable', 'Shelf', 'TVStand'])],
    distractors: [living('Plate', ['DiningTable', 'CoffeeTable', 'Shelf'])],
    checker: () => simple([...transportTypes(['Box'], ['Sofa']), ...transportTypes(['Bowl'], ['Box'])], ['Sofa']),
  },
  // ---- 2: explicit type and target, implicit quantity ---------------------------------------------------------
  {
    id: '2_open_all_drawers',
    paper: '2.1',
    category: 2,
    instruction: 'Open all the drawers',
    imitates: 'MAP-THOR 2.1',
    room: 'kitchen',
    plans: K,
    extraPlans: ['bedroom', 'living_room', 'apartment'],
    aliases: [{ id: 'open_all_drawers', plans: ['kitchen', 'bedroom', 'living_room', 'apartment'] }],
    checker: (q) => simple(actOn(q, 'Open', q.ids('Drawer')), q.ids('Drawer')),
  },
  {
    id: '2_open_all_cabinets',
    paper: '2.2',
    category: 2,
    instruction: 'Open all the cabinets',
    imitates: 'MAP-THOR 2.2',
    room: 'kitchen',
    plans: K,
    checker: (q) => simple(actOn(q, 'Open', q.ids('Cabinet')), q.ids('Cabinet')),
  },
  {
    id: '2_turn_on_all_stove_knobs',
    paper: '2.3',
    category: 2,
    instruction: 'Turn on all the stove knobs',
    imitates: 'MAP-THOR 2.3',
    room: 'kitchen',
    plans: K,
    extraPlans: ['apartment', 'studio'],
    aliases: [{ id: 'turn_on_all_stove_knobs', plans: ['kitchen', 'galley_kitchen', 'apartment', 'studio'] }],
    checker: (q) => simple(actOn(q, 'ToggleOn', q.ids('StoveKnob'))),
  },
  {
    id: '2_put_all_vases_table',
    paper: '2.4',
    category: 2,
    instruction: 'Put all the vases on the table',
    imitates: 'MAP-THOR 2.4',
    room: 'living',
    plans: L,
    objects: [living('Vase', ['Shelf', 'TVStand', 'Desk'], { count: [2, 3] })],
    distractors: [living('Statue', ['Shelf', 'TVStand'])],
    keepFree: LIVING_TABLES,
    checker: (q) => simple(transport(q, q.ids('Vase'), LIVING_TABLES, 'Table')),
  },
  {
    id: '2_put_all_potatoes_bowl',
    paper: '2.5',
    category: 2,
    instruction: 'Put all the potatoes in the bowl',
    imitates: 'MAP-THOR 2.5',
    room: 'kitchen',
    plans: K,
    extraPlans: ['apartment', 'studio'],
    aliases: [{ id: 'put_all_potatoes_in_bowl', plans: ['kitchen', 'galley_kitchen', 'apartment', 'studio'] }],
    objects: [kitchen('Potato', ['CounterTop', 'DiningTable', 'Sink'], { count: [2, 3] }), kitchen('Bowl')],
    distractors: [kitchen('Tomato'), kitchen('Apple')],
    checker: (q) => simple(transport(q, q.ids('Potato'), ['Bowl']), ['Bowl']),
  },
  {
    id: '2_put_all_pencils_pens_box',
    paper: '2.6',
    category: 2,
    instruction: 'Put all pencils and pens in the box',
    imitates: 'MAP-THOR 2.6',
    room: 'bedroom',
    plans: B,
    objects: [bedroom('Pencil', ['Desk', 'Dresser', 'SideTable', 'Bed'], { count: [1, 2] }), bedroom('Pen', ['Desk', 'Dresser', 'SideTable', 'Bed'], { count: [1, 2] }), bedroom('Box', ['Floor'])],
    distractors: [bedroom('CreditCard', ['Desk', 'Dresser']), bedroom('CellPhone', ['Bed', 'Desk'])],
    checker: (q) => simple(transport(q, allIds(q, ['Pencil', 'Pen']), ['Box']), ['Box']),
  },
  {
    id: '2_move_all_lamps_door',
    paper: '2.7',
    category: 2,
    instruction: 'Move all lamps next to the door',
    imitates: 'MAP-THOR 2.7 (desk lamps; a floor lamp is furniture here)',
    room: 'living',
    plans: L,
    floorObjects: true,
    checker: (q) => {
      const out: SubtaskSpec[] = [];
      for (const id of q.ids('DeskLamp')) {
        const name = one(id);
        out.push(
          { kind: 'act', act: 'NavigateTo', obj: { id }, text: `NavigateTo(${name})` },
          { kind: 'act', act: 'Pickup', obj: { id }, text: `PickupObject(${name})` },
          { kind: 'holding', act: 'NavigateTo', rec: { types: ['Doorway'] }, held: { id }, text: `NavigateTo(Doorway, ${name})` },
          { kind: 'holding', act: 'Put', rec: { types: ['Floor'] }, held: { id }, near: { types: ['Doorway'], withinM: 1 }, text: `PutObject(Floor next to the door, ${name})` },
        );
      }
      return simple(out);
    },
  },
  {
    id: '2_turn_off_all_light_switches',
    paper: '2.8',
    category: 2,
    instruction: 'Turn off all light switches',
    imitates: 'MAP-THOR 2.8',
    room: 'bedroom',
    plans: B,
    extraPlans: ['kitchen', 'galley_kitchen', 'living_room', 'bathroom', 'apartment', 'studio'],
    aliases: [{ id: 'turn_off_all_light_switches', plans: ['kitchen', 'galley_kitchen', 'living_room', 'bedroom', 'bathroom', 'apartment', 'studio'] }],
    setup: (s) => {
      for (const id of s.ids('LightSwitch')) s.set(id, 'isToggled', true);
    },
    checker: (q) => simple(actOn(q, 'ToggleOff', q.ids('LightSwitch'))),
  },
  {
    id: '2_turn_on_all_light_switches',
    paper: '2.9',
    category: 2,
    instruction: 'Turn on all light switches',
    imitates: 'MAP-THOR 2.9',
    room: 'bedroom',
    plans: B,
    setup: (s) => {
      for (const id of s.ids('LightSwitch')) s.set(id, 'isToggled', false);
    },
    checker: (q) => simple(actOn(q, 'ToggleOn', q.ids('LightSwitch'))),
  },
  // ---- 3: explicit target, implicit item types and quantity ---------------------------------------------------
  {
    id: '3_put_all_groceries_fridge',
    paper: '3.1',
    category: 3,
    instruction: 'Put all groceries in the fridge',
    imitates: 'MAP-THOR 3.1 (tomato, bread, apple, potato, lettuce)',
    room: 'kitchen',
    plans: K,
    extraPlans: ['apartment', 'studio'],
    aliases: [{ id: 'put_all_groceries_fridge', plans: ['kitchen', 'galley_kitchen', 'apartment', 'studio'] }],
    someOf: { choose: [3, 5], from: GROCERIES.map((type) => kitchen(type)) },
    remove: ['Egg'],
    checker: (q) => simple([...transport(q, allIds(q, GROCERIES), ['Fridge']), ...openClose('Fridge')], ['Fridge']),
  },
  {
    id: '3_put_all_shakers_drawer',
    paper: '3.2',
    category: 3,
    instruction: 'Put all shakers in the closest drawer',
    imitates: 'MAP-THOR 3.2 (salt shaker, pepper shaker; any drawer counts, as the released checkers accept any receptacle of the type)',
    room: 'kitchen',
    plans: K,
    objects: [kitchen('SaltShaker', ['CounterTop', 'DiningTable']), kitchen('PepperShaker', ['CounterTop', 'DiningTable'], { count: [1, 2] })],
    distractors: [kitchen('SoapBottle', ['CounterTop'])],
    keepFree: ['Drawer'],
    checker: (q) => simple([...transport(q, allIds(q, ['SaltShaker', 'PepperShaker']), ['Drawer']), openOnly('Drawer')], ['Drawer']),
  },
  {
    id: '3_put_all_tableware_countertop',
    paper: '3.3',
    category: 3,
    instruction: 'Put all tableware on the countertop',
    imitates: 'MAP-THOR 3.3 (bowl, plate, mug)',
    room: 'kitchen',
    plans: K,
    extraPlans: ['apartment', 'studio'],
    aliases: [{ id: 'put_all_tableware_countertop', plans: ['kitchen', 'galley_kitchen', 'apartment', 'studio'] }],
    objects: [kitchen('Bowl', ['DiningTable', 'Sink']), kitchen('Plate', ['DiningTable', 'Sink']), kitchen('Mug', ['DiningTable', 'Sink'], { count: [1, 2] })],
    distractors: [kitchen('Pot', ['StoveBurner'])],
    remove: ['Cup'],
    checker: (q) => simple(transport(q, allIds(q, ['Bowl', 'Plate', 'Mug']), ['CounterTop'])),
  },
  {
    id: '3_put_all_food_countertop',
    paper: '3.4',
    category: 3,
    instruction: 'Put all food on the countertop',
    imitates: 'MAP-THOR 3.4 (tomato, bread, apple, potato, lettuce)',
    room: 'kitchen',
    plans: K,
    someOf: { choose: [3, 5], from: GROCERIES.map((type) => kitchen(type, ['DiningTable', 'Sink'])) },
    distractors: [kitchen('Mug', ['DiningTable'])],
    remove: ['Egg'],
    checker: (q) => simple(transport(q, allIds(q, GROCERIES), ['CounterTop'])),
  },
  {
    id: '3_put_all_school_supplies_couch',
    paper: '3.5',
    category: 3,
    instruction: 'Put all school supplies on the couch',
    imitates: 'MAP-THOR 3.5 (pencil, computer, book)',
    room: 'living',
    plans: L,
    extraPlans: ['apartment', 'studio'],
    aliases: [{ id: 'put_all_school_supplies_sofa', plans: ['living_room', 'apartment', 'studio'] }],
    someOf: {
      choose: [3, 4],
      from: [
        living('Pencil', ['Desk', 'Shelf', 'CoffeeTable']),
        living('Pen', ['Desk', 'SideTable', 'CoffeeTable']),
        living('Book', ['Shelf', 'SideTable', 'CoffeeTable']),
        living('Laptop', ['Desk', 'CoffeeTable']),
      ],
    },
    distractors: [living('RemoteControl', ['CoffeeTable', 'TVStand', 'SideTable'])],
    checker: (q) => simple(transport(q, allIds(q, ['Pencil', 'Pen', 'Book', 'Laptop'], 'living'), ['Sofa']), ['Sofa']),
  },
  {
    id: '3_put_all_kitchenware_box',
    paper: '3.6',
    category: 3,
    instruction: 'Put all kitchenware in the cardboard box',
    imitates: 'MAP-THOR 3.6 (bowl, plate)',
    room: 'living',
    plans: L,
    objects: [living('Bowl', ['DiningTable', 'CoffeeTable', 'Shelf', 'TVStand']), living('Plate', ['DiningTable', 'CoffeeTable', 'Shelf', 'TVStand'], { count: [1, 2] }), living('Box', ['Floor'])],
    distractors: [living('Vase', ['Shelf', 'SideTable'])],
    checker: (q) => simple(transport(q, allIds(q, ['Bowl', 'Plate']), ['Box']), ['Box']),
  },
  {
    id: '3_put_all_silverware_sink',
    paper: '3.7',
    category: 3,
    instruction: 'Put all silverware in the sink',
    imitates: 'MAP-THOR 3.7',
    room: 'kitchen',
    plans: K,
    extraPlans: ['apartment', 'studio'],
    aliases: [{ id: 'put_all_silverware_sink', plans: ['kitchen', 'galley_kitchen', 'apartment', 'studio'] }],
    someOf: { choose: [2, 4], from: SILVERWARE.map((type) => kitchen(type, ['CounterTop', 'DiningTable'])) },
    distractors: [kitchen('Spatula', ['CounterTop'])],
    remove: ['Ladle'],
    checker: (q) => simple(transport(q, allIds(q, SILVERWARE, 'kitchen'), ['Sink'])),
  },
  {
    id: '3_move_everything_table_desk',
    paper: '3.8',
    category: 3,
    instruction: 'Move everything on the table to the desk',
    imitates: 'MAP-THOR 3.8 (laptop, pencil, pen, plate, credit card, book, newspaper)',
    room: 'living',
    plans: L,
    someOf: { choose: [3, 5], from: ['Laptop', 'Pencil', 'Pen', 'Plate', 'CreditCard', 'Book', 'Newspaper'].map((t) => living(t, ['DiningTable', 'CoffeeTable'])) },
    keepFree: ['DiningTable', 'CoffeeTable'],
    checker: (q) => {
      const ids = startingOn(q, ['Laptop', 'Pencil', 'Pen', 'Plate', 'CreditCard', 'Book', 'Newspaper'], ['DiningTable', 'CoffeeTable']);
      return simple(transport(q, ids, ['Desk']), ['Desk']);
    },
  },
  {
    id: '3_slice_lettuce_trash_mug_switch_off_light',
    paper: '3.9',
    category: 3,
    instruction: 'Slice the lettuce, trash the mug and switch off the light',
    imitates: 'MAP-THOR 3.9',
    room: 'kitchen',
    plans: K,
    objects: [kitchen('Lettuce'), kitchen('Mug')],
    distractors: [kitchen('Cup'), kitchen('Tomato')],
    setup: (s) => {
      for (const id of s.ids('LightSwitch')) s.set(id, 'isToggled', true);
    },
    checker: () => simple([...actOnTypes('Slice', ['Lettuce']), ...transportTypes(['Mug'], ['GarbageCan']), ...actOnTypes('ToggleOff', ['LightSwitch'])], ['GarbageCan']),
  },
  {
    id: '3_put_all_electronics_couch',
    paper: '3.10',
    category: 3,
    instruction: 'Put all electronics on the couch',
    imitates: 'MAP-THOR 3.10 (laptop, cell phone, remote control)',
    room: 'living',
    plans: L,
    objects: [
      living('Laptop', ['Desk', 'CoffeeTable', 'DiningTable']),
      living('CellPhone', ['Desk', 'SideTable', 'CoffeeTable', 'DiningTable'], { count: [1, 2] }),
      living('RemoteControl', ['CoffeeTable', 'TVStand', 'SideTable'], { count: [1, 2] }),
    ],
    distractors: [living('Book', ['Shelf', 'SideTable'])],
    checker: (q) => simple(transport(q, allIds(q, ['Laptop', 'CellPhone', 'RemoteControl']), ['Sofa']), ['Sofa']),
  },
  {
    id: '3_microwave_eggs_tomato',
    paper: '3.11',
    category: 3,
    instruction: 'Make a dish by microwaving eggs and tomato',
    imitates: 'MAP-THOR 3.11',
    room: 'kitchen',
    plans: K,
    objects: [kitchen('Egg', TOP, { count: [1, 2] }), kitchen('Tomato')],
    distractors: [kitchen('Potato'), kitchen('Apple')],
    checker: (q) => {
      const items = [...q.ids('Egg'), ...q.ids('Tomato')];
      return simple(
        [
          ...transport(q, items, ['Microwave']),
          ...openClose('Microwave'),
          { kind: 'act', act: 'ToggleOn', obj: { types: ['Microwave'] }, contains: items.map((id) => ({ id })), text: 'ToggleObjectOn(Microwave, Egg, Tomato)' },
        ],
        ['Microwave'],
      );
    },
  },
  {
    id: '3_put_all_readable_sofa',
    paper: '3.12',
    category: 3,
    instruction: 'Put all readable objects on the sofa',
    imitates: 'MAP-THOR 3.12 (book, newspaper)',
    room: 'living',
    plans: L,
    objects: [living('Book', ['Shelf', 'CoffeeTable', 'SideTable', 'Desk', 'DiningTable'], { count: [1, 2] }), living('Newspaper', ['CoffeeTable', 'SideTable', 'DiningTable', 'TVStand'], { count: [1, 2] })],
    distractors: [living('Laptop', ['Desk'])],
    checker: (q) => simple(transport(q, allIds(q, ['Book', 'Newspaper']), ['Sofa']), ['Sofa']),
  },
  {
    id: '3_wash_all_fruits',
    paper: '3.13',
    category: 3,
    instruction: 'Wash all fruits',
    imitates: 'MAP-THOR 3.13 (apples and tomatoes)',
    room: 'kitchen',
    plans: K,
    objects: [kitchen('Apple', ['CounterTop', 'DiningTable', 'Sink'], { count: [1, 2], isDirty: true }), kitchen('Tomato', ['CounterTop', 'DiningTable', 'Sink'], { count: [1, 2], isDirty: true })],
    distractors: [kitchen('Potato')],
    checker: (q) => simple(actOn(q, 'Clean', allIds(q, ['Apple', 'Tomato']))),
  },
  // ---- 4: implicit target, item types and quantity ------------------------------------------------------------
  {
    id: '4_clear_floor',
    paper: '4.1',
    category: 4,
    instruction: 'Clear the floor by placing items at their appropriate positions',
    imitates: "MAP-THOR 4.1 (depending on what's on the floor)",
    room: 'bedroom',
    plans: B,
    extraPlans: ['living_room', 'apartment'],
    aliases: [{ id: 'clear_the_floor', plans: ['living_room', 'bedroom', 'apartment'] }],
    someOf: {
      choose: [2, 3],
      from: [
        living('Pillow', ['Floor']),
        living('Book', ['Floor']),
        living('RemoteControl', ['Floor']),
        bedroom('Pillow', ['Floor']),
        bedroom('TeddyBear', ['Floor']),
        bedroom('Laptop', ['Floor']),
        bedroom('Book', ['Floor']),
      ],
    },
    keepFree: ['Floor'],
    checker: (q) => {
      const onFloor = ['Pillow', 'Book', 'RemoteControl', 'TeddyBear', 'Laptop'].flatMap((t) => q.ids(t)).filter((id) => q.onFloor(id));
      return simple(clearInto(q, onFloor, []));
    },
  },
  {
    id: '4_clear_table_kitchen',
    paper: '4.2',
    category: 4,
    instruction: 'Clear the table by placing the items in their appropriate positions',
    imitates: 'MAP-THOR 4.2 (depends on the floor plan, e.g. bread, apple, tomato, knife, bowl)',
    room: 'kitchen',
    plans: K,
    extraPlans: ['apartment', 'studio'],
    aliases: [{ id: 'clear_dining_table', plans: ['kitchen', 'galley_kitchen', 'apartment', 'studio'] }],
    someOf: { choose: [3, 4], from: ['Bread', 'Apple', 'Tomato', 'Knife', 'Bowl', 'Mug', 'ButterKnife'].map((type) => kitchen(type, ['DiningTable'])) },
    keepFree: ['DiningTable'],
    checker: (q) => {
      const ids = ['Bread', 'Apple', 'Tomato', 'Knife', 'Bowl', 'Mug', 'ButterKnife'].flatMap((t) => q.ids(t, 'kitchen')).filter((id) => q.startsOn(id) === 'DiningTable');
      return simple(clearInto(q, ids, ['DiningTable']));
    },
  },
  {
    id: '4_clear_countertop_kitchen',
    paper: '4.3',
    category: 4,
    instruction: 'Clear the countertop by placing items in their appropriate positions',
    imitates: 'MAP-THOR 4.3 (lettuce, mug, paper towel roll)',
    room: 'kitchen',
    plans: K,
    objects: [kitchen('Lettuce', ['CounterTop']), kitchen('Mug', ['CounterTop']), kitchen('PaperTowelRoll', ['CounterTop'])],
    someOf: { choose: [0, 1], from: [kitchen('Tomato', ['CounterTop']), kitchen('Fork', ['CounterTop'])] },
    keepFree: ['CounterTop', 'Drawer', 'Cabinet'],
    checker: (q) => {
      const ids = startingOn(q, ['Lettuce', 'Mug', 'PaperTowelRoll', 'Tomato', 'Fork'], ['CounterTop']);
      return simple(clearInto(q, ids, ['CounterTop']));
    },
  },
  {
    id: '4_clear_desk',
    paper: '4.4',
    category: 4,
    instruction: 'Clear the desk by placing the items in other appropriate positions',
    imitates: 'MAP-THOR 4.4 (statue, watch, remote control)',
    room: 'living',
    plans: L,
    objects: [living('Statue', ['Desk']), living('Watch', ['Desk']), living('RemoteControl', ['Desk'])],
    keepFree: ['Desk'],
    checker: (q) => {
      const ids = startingOn(q, ['Statue', 'Watch', 'RemoteControl'], ['Desk']);
      return simple(clearInto(q, ids, ['Desk']));
    },
  },
  {
    id: '4_clear_table_livingroom',
    paper: '4.5',
    category: 4,
    instruction: 'Clear the table by placing the items in other appropriate positions',
    imitates: 'MAP-THOR 4.5 (book, credit card, laptop, plate, newspaper, pen, pencil)',
    room: 'living',
    plans: L,
    someOf: { choose: [3, 5], from: ['Book', 'CreditCard', 'Laptop', 'Plate', 'Newspaper', 'Pen', 'Pencil'].map((t) => living(t, ['DiningTable', 'CoffeeTable'])) },
    keepFree: ['DiningTable', 'CoffeeTable'],
    checker: (q) => {
      const ids = startingOn(q, ['Book', 'CreditCard', 'Laptop', 'Plate', 'Newspaper', 'Pen', 'Pencil'], ['DiningTable', 'CoffeeTable']);
      return simple(clearInto(q, ids, ['DiningTable', 'CoffeeTable']));
    },
  },
  {
    id: '4_clear_couch',
    paper: '4.6',
    category: 4,
    instruction: 'Clear the couch by placing the items in other appropriate positions',
    imitates: 'MAP-THOR 4.6 (pillow)',
    room: 'living',
    plans: L,
    objects: [living('Pillow', ['Sofa'], { count: [1, 2] })],
    someOf: { choose: [0, 1], from: [living('RemoteControl', ['Sofa']), living('Book', ['Sofa'])] },
    keepFree: ['Sofa'],
    checker: (q) => {
      const ids = startingOn(q, ['Pillow', 'RemoteControl', 'Book'], ['Sofa']);
      return simple(clearInto(q, ids, ['Sofa']));
    },
  },
  {
    id: '4_make_livingroom_dark',
    paper: '4.7',
    category: 4,
    instruction: 'Make the living room dark',
    imitates: 'MAP-THOR 4.7',
    room: 'living',
    plans: L,
    extraPlans: ['apartment', 'studio'],
    aliases: [{ id: 'make_living_room_dark', plans: ['living_room', 'apartment', 'studio'] }],
    setup: (s, rng) => {
      for (const t of ['LightSwitch', 'FloorLamp', 'DeskLamp']) for (const id of s.ids(t, 'living')) s.set(id, 'isToggled', true);
      for (const id of s.ids('Television', 'living')) s.set(id, 'isToggled', rng.next() < 0.5);
    },
    checker: (q) => {
      const on = ['LightSwitch', 'FloorLamp', 'DeskLamp', 'Television'].flatMap((t) => q.ids(t, 'living')).filter((id) => q.isOn(id));
      return simple(actOn(q, 'ToggleOff', on));
    },
  },
  {
    id: '4_make_coffee_toast_bread',
    paper: '4.8',
    category: 4,
    instruction: 'Make a mug of coffee and toast the bread',
    imitates: 'MAP-THOR 4.8',
    room: 'kitchen',
    plans: K,
    extraPlans: ['apartment', 'studio'],
    aliases: [{ id: 'make_coffee_and_toast', plans: ['kitchen', 'galley_kitchen', 'apartment', 'studio'] }],
    objects: [kitchen('Mug'), kitchen('Bread')],
    distractors: [kitchen('Cup', ['Cabinet', 'CounterTop'])],
    checker: () =>
      simple(
        [
          ...transportTypes(['Mug'], ['CoffeeMachine']),
          { kind: 'act', act: 'ToggleOn', obj: { types: ['CoffeeMachine'] }, contains: [{ types: ['Mug'] }], text: 'ToggleObjectOn(CoffeeMachine, Mug)' },
          ...actOnTypes('Slice', ['Bread']),
          ...transportTypes(['BreadSliced'], ['Toaster']),
          { kind: 'act', act: 'ToggleOn', obj: { types: ['Toaster'] }, contains: [{ types: ['BreadSliced'] }], text: 'ToggleObjectOn(Toaster, BreadSliced)' },
        ],
        ['CoffeeMachine', 'Toaster'],
      ),
  },
  {
    id: '4_trash_all_groceries',
    paper: '4.9',
    category: 4,
    instruction: 'Trash all groceries',
    imitates: 'MAP-THOR 4.9',
    room: 'kitchen',
    plans: K,
    someOf: { choose: [3, 5], from: GROCERIES.map((type) => kitchen(type, ['CounterTop', 'DiningTable', 'Sink'])) },
    distractors: [kitchen('Mug', ['DiningTable'])],
    remove: ['Egg'],
    checker: (q) => simple(transport(q, allIds(q, GROCERIES), ['GarbageCan']), ['GarbageCan']),
  },
  {
    id: '4_slice_all_sliceable',
    paper: '4.10',
    category: 4,
    instruction: 'Slice all sliceable objects',
    imitates: 'MAP-THOR 4.10',
    room: 'kitchen',
    plans: K,
    someOf: { choose: [3, 5], from: SLICEABLE.map((type) => kitchen(type)) },
    distractors: [kitchen('Mug')],
    checker: (q) => simple(actOn(q, 'Slice', allIds(q, SLICEABLE))),
  },
];

/** The task an id names: its own id or an alias from the earlier task list. */
export function taskById(id: string): TaskDef | undefined {
  return TASKS.find((t) => t.id === id || t.aliases?.some((a) => a.id === id));
}

export const CATEGORY_LABELS: Record<TaskDef['category'], string> = {
  1: 'explicit item type, quantity and target',
  2: 'explicit item type and target, implicit quantity',
  3: 'explicit target, implicit item types and quantity',
  4: 'implicit target, item types and quantity',
};

// What LLaMAR's reference policies know about households, as a language model would: how task sentences map to
// goals, which words name which object types, what counts as groceries or tableware, where things belong, which
// receptacles open. Written for the policies alone (the simulator has its own tables).

export type Goal =
  /** Move items to a receptacle. `all`: every instance (to be found); else one of each listed type. */
  | { kind: 'transport'; types: string[]; all: boolean; dest: string[] }
  /** Act on objects: one of each listed type, or all instances; `ifOn`: only those that are on. */
  | { kind: 'act'; verb: 'Slice' | 'Clean' | 'ToggleOn' | 'ToggleOff' | 'Open'; types: string[]; all: boolean; ifOn?: boolean }
  /** Put everything on a surface (or the floor) where it belongs. */
  | { kind: 'clear'; from: 'DiningTable' | 'Floor' }
  | { kind: 'coffee_toast' };

const WORD_TYPES: Record<string, string[]> = {
  bread: ['Bread'], lettuce: ['Lettuce'], tomato: ['Tomato'], tomatoes: ['Tomato'], egg: ['Egg'], eggs: ['Egg'], apple: ['Apple'], apples: ['Apple'],
  potato: ['Potato'], potatoes: ['Potato'], laptop: ['Laptop'], computer: ['Laptop'], book: ['Book'], books: ['Book'], pen: ['Pen'], pens: ['Pen'],
  pencil: ['Pencil'], pencils: ['Pencil'], bowl: ['Bowl'], mug: ['Mug'], pot: ['Pot'], pan: ['Pan'], plate: ['Plate'], faucet: ['Faucet'],
  light: ['LightSwitch'], 'light switch': ['LightSwitch'], 'light switches': ['LightSwitch'], lights: ['LightSwitch'], drawer: ['Drawer'], drawers: ['Drawer'],
  cabinet: ['Cabinet'], cabinets: ['Cabinet'], 'stove knob': ['StoveKnob'], 'stove knobs': ['StoveKnob'], vase: ['Vase'], vases: ['Vase'],
  fridge: ['Fridge'], refrigerator: ['Fridge'], sofa: ['Sofa'], couch: ['Sofa'], countertop: ['CounterTop'], counter: ['CounterTop'], sink: ['Sink'],
  table: ['DiningTable', 'CoffeeTable', 'SideTable'], 'dining table': ['DiningTable'], box: ['Box'], shelf: ['Shelf'], desk: ['Desk'],
  groceries: ['Tomato', 'Bread', 'Apple', 'Potato', 'Lettuce'],
  'school supplies': ['Pencil', 'Pen', 'Book', 'Laptop'],
  tableware: ['Bowl', 'Plate', 'Mug', 'Cup'],
  silverware: ['Fork', 'Spoon', 'Knife', 'ButterKnife'],
  electronics: ['Laptop', 'CellPhone', 'RemoteControl', 'Television'],
  'readable objects': ['Book', 'Newspaper'],
  fruits: ['Apple', 'Tomato'],
};

/** Receptacles you open before putting something in, and close after. */
export const OPENABLE = new Set(['Fridge', 'Cabinet', 'Drawer', 'Microwave']);

/** Where a thing belongs (first choice first) when a task says "appropriate places". */
const HOME: Record<string, string[]> = {
  Apple: ['Fridge'], Tomato: ['Fridge'], Bread: ['Fridge'], Lettuce: ['Fridge'], Potato: ['Fridge'], Egg: ['Fridge'],
  Mug: ['Sink', 'Cabinet'], Bowl: ['Sink', 'Cabinet'], Plate: ['Sink', 'Cabinet'], Cup: ['Sink', 'Cabinet'],
  Fork: ['Sink', 'Drawer'], Spoon: ['Sink', 'Drawer'], Knife: ['Sink', 'Drawer'], ButterKnife: ['Sink', 'Drawer'],
  Pillow: ['Sofa', 'Bed', 'ArmChair'], TeddyBear: ['Bed', 'Sofa', 'ArmChair'], Book: ['Shelf', 'Desk', 'SideTable', 'CoffeeTable'],
  RemoteControl: ['CoffeeTable', 'TVStand', 'Sofa', 'SideTable'], Laptop: ['Desk', 'CoffeeTable', 'Sofa', 'Bed'],
};

export function homeOf(type: string): string[] {
  return HOME[type] ?? [];
}

function typesOfPhrase(phrase: string): string[] {
  const p = phrase.toLowerCase().replace(/^(the|a|an|all the|all)\s+/, '').replace(/^(kitchen|living room)\s+/, '').trim();
  return WORD_TYPES[p] ?? WORD_TYPES[p.replace(/s$/, '')] ?? [];
}

function splitList(text: string): string[] {
  return text
    .split(/,\s*(?:and\s+)?|\s+and\s+/i)
    .map((s) => s.replace(/^(?:slice|crack|cut)\s+/i, '').trim())
    .filter(Boolean);
}

/** The goals of a task sentence, or undefined when the policy does not understand it. */
export function goalsOf(task: string): Goal[] | undefined {
  const t = task.trim().replace(/\.$/, '');
  let m: RegExpExecArray | null;
  if (/^clear the (dining )?table\b/i.test(t)) return [{ kind: 'clear', from: 'DiningTable' }];
  if (/^clear the floor\b/i.test(t)) return [{ kind: 'clear', from: 'Floor' }];
  if (/make a mug of coffee and toast the bread/i.test(t)) return [{ kind: 'coffee_toast' }];
  if (/^make the living room dark/i.test(t)) return [{ kind: 'act', verb: 'ToggleOff', types: ['LightSwitch', 'FloorLamp', 'DeskLamp', 'Television'], all: true, ifOn: true }];
  if ((m = /^put (all )?the (.+?) (?:in|on|into|onto|inside) the (.+)$/i.exec(t))) {
    const dest = typesOfPhrase(m[3]!);
    if (dest.length === 0) return undefined;
    if (m[1]) {
      const types = typesOfPhrase(m[2]!);
      return types.length ? [{ kind: 'transport', types, all: true, dest }] : undefined;
    }
    const types = splitList(m[2]!).flatMap(typesOfPhrase);
    return types.length ? [{ kind: 'transport', types, all: false, dest }] : undefined;
  }
  if ((m = /^(slice|crack) (.+)$/i.exec(t))) {
    const types = splitList(m[2]!).flatMap(typesOfPhrase);
    return types.length ? [{ kind: 'act', verb: 'Slice', types, all: false }] : undefined;
  }
  if ((m = /^(wash|clean) (all )?the (.+)$/i.exec(t))) {
    const types = m[2] ? typesOfPhrase(m[3]!) : splitList(m[3]!).flatMap(typesOfPhrase);
    return types.length ? [{ kind: 'act', verb: 'Clean', types, all: Boolean(m[2]) }] : undefined;
  }
  if ((m = /^open all the (.+)$/i.exec(t))) {
    const types = typesOfPhrase(m[1]!);
    return types.length ? [{ kind: 'act', verb: 'Open', types, all: true }] : undefined;
  }
  if ((m = /^turn (on|off) all the (.+)$/i.exec(t))) {
    const types = typesOfPhrase(m[2]!);
    return types.length ? [{ kind: 'act', verb: m[1]!.toLowerCase() === 'on' ? 'ToggleOn' : 'ToggleOff', types, all: true }] : undefined;
  }
  if ((m = /^turn (on|off) the (.+?)(?: if (?:either|any|it|they)\b.*)?$/i.exec(t))) {
    const types = splitList(m[2]!).flatMap(typesOfPhrase);
    const verb = m[1]!.toLowerCase() === 'on' ? 'ToggleOn' : 'ToggleOff';
    return types.length ? types.map((type) => ({ kind: 'act' as const, verb, types: [type], all: false, ifOn: /\bif\b/i.test(t) })) : undefined;
  }
  return undefined;
}

/** A short phrase for a type in subtask texts ("CounterTop" -> "countertop"). */
export function word(type: string): string {
  return type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

export function plural(type: string): string {
  const w = word(type);
  return w.endsWith('h') || w.endsWith('s') || w.endsWith('x') ? `${w}es` : w.endsWith('y') ? `${w.slice(0, -1)}ies` : `${w}s`;
}

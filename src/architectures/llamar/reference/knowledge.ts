// What LLaMAR's reference policies know about households, as a language model would: how task sentences map to
// goals, which words name which object types, what counts as groceries or tableware, where things belong, which
// receptacles open. Written for the policies alone (the simulator has its own tables).

export type Goal =
  /**
   * Move items to a receptacle. `all`: every instance (to be found); else one of each listed type. `near`: put
   * down on the floor next to an object of this type ("next to the door").
   */
  | { kind: 'transport'; types: string[]; all: boolean; dest: string[]; near?: string }
  /** Act on objects: one of each listed type, or all instances; `ifOn`: only those that are on. */
  | { kind: 'act'; verb: 'Slice' | 'Clean' | 'ToggleOn' | 'ToggleOff' | 'Open'; types: string[]; all: boolean; ifOn?: boolean }
  /** Put everything on a surface (or the floor) where it belongs, or (`dest`) move it all to one place. */
  | { kind: 'clear'; from: string[]; dest?: string[] }
  | { kind: 'coffee_toast' }
  /** Put the items in the microwave, close it and turn it on. */
  | { kind: 'microwave'; types: string[] };

const SLICEABLE = ['Apple', 'Bread', 'Lettuce', 'Potato', 'Tomato', 'Egg'];
const GROCERIES = ['Tomato', 'Bread', 'Apple', 'Potato', 'Lettuce'];

const WORD_TYPES: Record<string, string[]> = {
  bread: ['Bread'], lettuce: ['Lettuce'], tomato: ['Tomato'], tomatoes: ['Tomato'], egg: ['Egg'], eggs: ['Egg'], apple: ['Apple'], apples: ['Apple'],
  potato: ['Potato'], potatoes: ['Potato'], laptop: ['Laptop'], computer: ['Laptop'], book: ['Book'], books: ['Book'], pen: ['Pen'], pens: ['Pen'],
  pencil: ['Pencil'], pencils: ['Pencil'], bowl: ['Bowl'], mug: ['Mug'], pot: ['Pot'], pots: ['Pot'], pan: ['Pan'], pans: ['Pan'], plate: ['Plate'],
  faucet: ['Faucet'], light: ['LightSwitch'], 'light switch': ['LightSwitch'], 'light switches': ['LightSwitch'], lights: ['LightSwitch'],
  drawer: ['Drawer'], drawers: ['Drawer'], 'closest drawer': ['Drawer'], cabinet: ['Cabinet'], cabinets: ['Cabinet'], 'stove knob': ['StoveKnob'],
  'stove knobs': ['StoveKnob'], 'stove burners': ['StoveBurner'], 'stove burner': ['StoveBurner'], burners: ['StoveBurner'], vase: ['Vase'], vases: ['Vase'],
  fridge: ['Fridge'], refrigerator: ['Fridge'], sofa: ['Sofa'], couch: ['Sofa'], countertop: ['CounterTop'], counter: ['CounterTop'], sink: ['Sink'],
  table: ['DiningTable', 'CoffeeTable', 'SideTable'], 'dining table': ['DiningTable'], box: ['Box'], 'cardboard box': ['Box'], shelf: ['Shelf'], desk: ['Desk'],
  'butter knife': ['ButterKnife'], knife: ['Knife'], 'tissue box': ['TissueBox'], keys: ['KeyChain'], key: ['KeyChain'], keychain: ['KeyChain'],
  watch: ['Watch'], lamps: ['DeskLamp'], lamp: ['DeskLamp'], door: ['Doorway'], microwave: ['Microwave'], floor: ['Floor'],
  groceries: GROCERIES,
  food: [...GROCERIES, 'Egg'],
  'school supplies': ['Pencil', 'Pen', 'Book', 'Laptop'],
  tableware: ['Bowl', 'Plate', 'Mug', 'Cup'],
  kitchenware: ['Bowl', 'Plate', 'Mug', 'Cup', 'Pot', 'Pan'],
  silverware: ['Fork', 'Spoon', 'Knife', 'ButterKnife'],
  electronics: ['Laptop', 'CellPhone', 'RemoteControl'],
  'readable objects': ['Book', 'Newspaper'],
  fruits: ['Apple', 'Tomato'],
  shakers: ['SaltShaker', 'PepperShaker'],
  'sliceable objects': SLICEABLE,
};

/** Receptacles you open before putting something in, and close after. */
export const OPENABLE = new Set(['Fridge', 'Cabinet', 'Drawer', 'Microwave']);

/** Receptacles that hold one thing at a time (a pot per burner, a mug per coffee machine, a slice per toaster). */
export const HOLDS_ONE = new Set(['StoveBurner', 'CoffeeMachine', 'Toaster']);

/** Where a thing belongs (first choice first) when a task says "appropriate positions". */
const HOME: Record<string, string[]> = {
  Apple: ['Fridge'], Tomato: ['Fridge'], Bread: ['Fridge'], Lettuce: ['Fridge'], Potato: ['Fridge'], Egg: ['Fridge'],
  Mug: ['Sink', 'Cabinet'], Bowl: ['Sink', 'Cabinet', 'Shelf'], Plate: ['Sink', 'Cabinet', 'Shelf'], Cup: ['Sink', 'Cabinet'],
  Fork: ['Drawer', 'Sink'], Spoon: ['Drawer', 'Sink'], Knife: ['Drawer', 'Sink'], ButterKnife: ['Drawer', 'Sink'], PaperTowelRoll: ['Cabinet', 'Shelf'],
  Pillow: ['Bed', 'ArmChair', 'Sofa'], TeddyBear: ['Bed', 'ArmChair', 'Sofa'], Book: ['Shelf', 'Desk', 'SideTable', 'CoffeeTable'],
  RemoteControl: ['TVStand', 'CoffeeTable', 'SideTable', 'Sofa'], Laptop: ['Desk', 'CoffeeTable', 'Sofa', 'Bed'], Statue: ['Shelf', 'SideTable', 'TVStand'],
  Watch: ['SideTable', 'Dresser', 'Shelf'], CreditCard: ['Desk', 'SideTable', 'Dresser'], Newspaper: ['SideTable', 'Sofa', 'Shelf'],
  Pen: ['Desk', 'Shelf', 'SideTable'], Pencil: ['Desk', 'Shelf', 'SideTable'], KeyChain: ['SideTable', 'Dresser', 'Shelf'], CellPhone: ['SideTable', 'Desk'],
  DeskLamp: ['Desk', 'SideTable'],
};

export function homeOf(type: string): string[] {
  return HOME[type] ?? [];
}

function typesOfPhrase(phrase: string): string[] {
  const p = phrase
    .toLowerCase()
    .replace(/^(?:all of the|all the|all|the|a|an|every)\s+/, '')
    .replace(/^(?:the|a|an)\s+/, '')
    .replace(/^(?:kitchen|living room)\s+/, '')
    .trim();
  return WORD_TYPES[p] ?? WORD_TYPES[p.replace(/s$/, '')] ?? WORD_TYPES[p.replace(/es$/, '')] ?? [];
}

const VERB = /^(put|move|slice|crack|cut|trash|throw away|switch off|switch on|turn off|turn on|wash|clean|open)\b\s*(.*)$/i;
const DEST = /^(.*?)\s+(?:in|on|into|onto|inside|to)\s+(?:the\s+)?(.+)$/i;

/** Splits a sentence into clauses that each start with a verb; the parts between commas and "and" stay with their verb. */
function clauses(t: string): { verb: string; parts: string[] }[] {
  const out: { verb: string; parts: string[] }[] = [];
  for (const seg of t.split(/,\s*(?:and\s+)?|\s+and\s+/i).map((s) => s.trim()).filter(Boolean)) {
    const m = VERB.exec(seg);
    if (m) out.push({ verb: m[1]!.toLowerCase(), parts: [m[2]!] });
    else if (out.length > 0) out[out.length - 1]!.parts.push(seg);
    else return [];
  }
  return out;
}

/** The goals of a task sentence, or undefined when the policy does not understand it. */
export function goalsOf(task: string): Goal[] | undefined {
  const t = task.trim().replace(/\.$/, '');
  let m: RegExpExecArray | null;
  if ((m = /^clear the (.+?) by placing\b/i.exec(t))) {
    // "The table" to clear is the dining or coffee table, not a side table.
    const from = m[1]!.toLowerCase() === 'floor' ? ['Floor'] : typesOfPhrase(m[1]!).filter((x) => x !== 'SideTable');
    return from.length ? [{ kind: 'clear', from }] : undefined;
  }
  if ((m = /^move everything on the (.+?) to the (.+)$/i.exec(t))) {
    const from = typesOfPhrase(m[1]!).filter((x) => x !== 'SideTable');
    const dest = typesOfPhrase(m[2]!);
    return from.length && dest.length ? [{ kind: 'clear', from, dest }] : undefined;
  }
  if (/make a mug of coffee and toast the bread/i.test(t)) return [{ kind: 'coffee_toast' }];
  if ((m = /^make a dish by microwaving (.+)$/i.exec(t))) {
    const types = m[1]!.split(/,\s*(?:and\s+)?|\s+and\s+/).flatMap(typesOfPhrase);
    return types.length ? [{ kind: 'microwave', types }] : undefined;
  }
  if (/^make the living room dark/i.test(t)) return [{ kind: 'act', verb: 'ToggleOff', types: ['LightSwitch', 'FloorLamp', 'DeskLamp', 'Television'], all: true, ifOn: true }];
  if ((m = /^move all (.+?) next to the (.+)$/i.exec(t))) {
    const types = typesOfPhrase(m[1]!);
    const near = typesOfPhrase(m[2]!)[0];
    return types.length && near ? [{ kind: 'transport', types, all: true, dest: ['Floor'], near }] : undefined;
  }
  const goals: Goal[] = [];
  for (const c of clauses(t)) {
    const all = c.parts.some((p) => /^all\b/i.test(p));
    const conditional = /\bif\b/i.test(t);
    const items = (parts: string[]) => parts.map((p) => p.replace(/\s+if\b.*$/i, '')).flatMap(typesOfPhrase);
    switch (c.verb) {
      case 'put':
      case 'move': {
        // Items up to a part that names a destination share it ("bread, lettuce, and a tomato in the fridge").
        let pending: string[] = [];
        for (const part of c.parts) {
          const d = DEST.exec(part);
          if (!d) {
            pending.push(part);
            continue;
          }
          const types = items([...pending, d[1]!]);
          const dest = typesOfPhrase(d[2]!);
          if (!types.length || !dest.length) return undefined;
          goals.push({ kind: 'transport', types, all: all || /\ball\b/i.test(d[1]!), dest });
          pending = [];
        }
        if (pending.length) return undefined;
        break;
      }
      case 'trash':
      case 'throw away': {
        const types = items(c.parts);
        if (!types.length) return undefined;
        goals.push({ kind: 'transport', types, all, dest: ['GarbageCan'] });
        break;
      }
      case 'slice':
      case 'crack':
      case 'cut':
      case 'wash':
      case 'clean':
      case 'open':
      case 'switch off':
      case 'turn off':
      case 'switch on':
      case 'turn on': {
        const verb = ({ slice: 'Slice', crack: 'Slice', cut: 'Slice', wash: 'Clean', clean: 'Clean', open: 'Open', 'switch off': 'ToggleOff', 'turn off': 'ToggleOff', 'switch on': 'ToggleOn', 'turn on': 'ToggleOn' } as const)[c.verb];
        const types = items(c.parts);
        if (!types.length) return undefined;
        if (all) goals.push({ kind: 'act', verb, types, all: true });
        else for (const type of types) goals.push({ kind: 'act', verb, types: [type], all: false, ...(conditional ? { ifOn: true } : {}) });
        break;
      }
      default:
        return undefined;
    }
  }
  return goals.length > 0 ? goals : undefined;
}

/** A short phrase for a type in subtask texts ("CounterTop" -> "countertop"). */
export function word(type: string): string {
  return type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

export function plural(type: string): string {
  const w = word(type);
  return w.endsWith('h') || w.endsWith('s') || w.endsWith('x') ? `${w}es` : w.endsWith('y') ? `${w.slice(0, -1)}ies` : `${w}s`;
}

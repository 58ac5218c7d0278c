// AI2-THOR-like object types: what each can do (pick up, hold things, open, slice, toggle, get dirty, cook), its
// vertical extent (which decides whether a camera pitched up or down sees it, and what furniture hides behind it),
// its size and what a receptacle holds. Types and abilities follow AI2-THOR's object list (slicing an Apple leaves
// AppleSliced pieces, cracking an Egg an EggCracked); the numbers are ours (there is no physics here).

export interface TypeSpec {
  pickupable?: boolean;
  receptacle?: boolean;
  openable?: boolean;
  sliceable?: boolean;
  toggleable?: boolean;
  dirtyable?: boolean;
  cookable?: boolean;
  /** Furniture and fixtures: [bottom, top] height in metres. Small objects: their own height. */
  extentM: [number, number] | number;
  /** Height of the surface things rest on (receptacles). */
  surfaceM?: number;
  /** Receptacles: which small objects it takes ('any' = any pickupable object). */
  accepts?: 'any' | readonly string[];
  /** Receptacles: how much fits, in size units (a pen is 1, a mug 2, a pot 3). */
  capacity?: number;
  /** Small objects: size units taken in a receptacle (default 1). */
  size?: number;
  /** What slicing is called for this type in action texts ("crack" for an egg). */
  sliceVerb?: string;
  /** Sliceable objects: what slicing turns the whole into (AI2-THOR replaces the object by its pieces). */
  sliceInto?: { type: string; count: number };
  /**
   * Furniture as an occluder: solid from the floor to its top (default), only its top slab (tables), up to its seat
   * (sofas, beds: what lies on the seat shows over the rest of it), or nothing.
   */
  occludes?: 'solid' | 'slab' | 'seat' | 'none';
  /** Openable furniture and fixtures whose door or drawer swings into the floor cells in front of it. */
  swings?: boolean;
}

const FOOD = ['Apple', 'Tomato', 'Bread', 'Lettuce', 'Potato', 'Egg'];
const SLICES = ['AppleSliced', 'TomatoSliced', 'BreadSliced', 'LettuceSliced', 'PotatoSliced', 'EggCracked'];
const DISHES = ['Bowl', 'Plate', 'Mug', 'Cup', 'Pot', 'Pan', 'Kettle'];
const SILVERWARE = ['Fork', 'Spoon', 'Knife', 'ButterKnife', 'Spatula', 'Ladle'];

export const OBJECT_TYPES: Record<string, TypeSpec> = {
  // Furniture and fixtures (not pickupable).
  Fridge: { receptacle: true, openable: true, swings: true, extentM: [0, 1.8], surfaceM: 0.9, accepts: [...FOOD, ...SLICES, ...DISHES, 'SaltShaker', 'PepperShaker', 'Bottle'], capacity: 24 },
  CounterTop: { receptacle: true, extentM: [0.85, 0.95], surfaceM: 0.9, accepts: 'any', capacity: 40 },
  Sink: { receptacle: true, extentM: [0.78, 0.9], surfaceM: 0.85, accepts: [...FOOD, ...SLICES, ...DISHES, ...SILVERWARE, 'DishSponge', 'SoapBar', 'Cloth'], capacity: 14 },
  Faucet: { toggleable: true, extentM: [0.95, 1.1] },
  StoveBurner: { receptacle: true, extentM: [0.9, 0.96], surfaceM: 0.93, accepts: ['Pot', 'Pan', 'Kettle'], capacity: 3 },
  StoveKnob: { toggleable: true, extentM: [0.82, 0.9] },
  Cabinet: { receptacle: true, openable: true, swings: true, extentM: [0.1, 0.8], surfaceM: 0.3, accepts: 'any', capacity: 8 },
  Drawer: { receptacle: true, openable: true, swings: true, extentM: [0.6, 0.82], surfaceM: 0.7, accepts: 'any', capacity: 4 },
  Microwave: { receptacle: true, openable: true, toggleable: true, extentM: [0.95, 1.3], surfaceM: 1.0, accepts: [...FOOD, ...SLICES, 'Mug', 'Cup', 'Bowl', 'Plate'], capacity: 3 },
  Toaster: { receptacle: true, toggleable: true, extentM: [0.92, 1.1], surfaceM: 1.0, accepts: ['BreadSliced'], capacity: 1 },
  CoffeeMachine: { receptacle: true, toggleable: true, extentM: [0.92, 1.25], surfaceM: 0.95, accepts: ['Mug', 'Cup'], capacity: 2 },
  GarbageCan: { receptacle: true, extentM: [0, 0.4], surfaceM: 0.3, accepts: 'any', capacity: 14 },
  DiningTable: { receptacle: true, occludes: 'slab', extentM: [0.7, 0.78], surfaceM: 0.75, accepts: 'any', capacity: 40 },
  Sofa: { receptacle: true, occludes: 'seat', extentM: [0.3, 0.8], surfaceM: 0.45, accepts: 'any', capacity: 20 },
  ArmChair: { receptacle: true, occludes: 'seat', extentM: [0.3, 0.8], surfaceM: 0.45, accepts: 'any', capacity: 6 },
  CoffeeTable: { receptacle: true, occludes: 'slab', extentM: [0.4, 0.48], surfaceM: 0.45, accepts: 'any', capacity: 20 },
  SideTable: { receptacle: true, occludes: 'slab', extentM: [0.5, 0.6], surfaceM: 0.6, accepts: 'any', capacity: 8 },
  TVStand: { receptacle: true, extentM: [0.3, 0.55], surfaceM: 0.55, accepts: 'any', capacity: 10 },
  Television: { toggleable: true, extentM: [0.6, 1.2] },
  Shelf: { receptacle: true, extentM: [0.3, 1.6], surfaceM: 1.0, accepts: 'any', capacity: 16 },
  Desk: { receptacle: true, occludes: 'slab', extentM: [0.7, 0.78], surfaceM: 0.75, accepts: 'any', capacity: 24 },
  Dresser: { receptacle: true, extentM: [0.2, 0.9], surfaceM: 0.9, accepts: 'any', capacity: 14 },
  Bed: { receptacle: true, occludes: 'seat', extentM: [0.3, 0.6], surfaceM: 0.55, accepts: 'any', capacity: 16 },
  Toilet: { receptacle: true, extentM: [0.3, 0.5], surfaceM: 0.45, accepts: ['SoapBar', 'ToiletPaper', 'SprayBottle', 'Cloth', 'Candle'], capacity: 6 },
  Bathtub: { receptacle: true, extentM: [0.2, 0.55], surfaceM: 0.3, accepts: 'any', capacity: 10 },
  TowelHolder: { receptacle: true, extentM: [1.0, 1.2], surfaceM: 1.1, accepts: ['Towel', 'Cloth'], capacity: 2 },
  // The room's floor (a receptacle: things can be put down on it) and its doorways (somewhere to walk to).
  Floor: { receptacle: true, occludes: 'none', extentM: [0, 0], surfaceM: 0, accepts: 'any', capacity: 1000 },
  Doorway: { occludes: 'none', extentM: [0, 2.0] },
  LightSwitch: { toggleable: true, extentM: [1.2, 1.3] },
  FloorLamp: { toggleable: true, occludes: 'none', extentM: [0, 1.7] },
  // Small objects.
  Apple: { pickupable: true, sliceable: true, cookable: true, dirtyable: true, extentM: 0.1, sliceInto: { type: 'AppleSliced', count: 3 } },
  Tomato: { pickupable: true, sliceable: true, cookable: true, dirtyable: true, extentM: 0.1, sliceInto: { type: 'TomatoSliced', count: 3 } },
  Bread: { pickupable: true, sliceable: true, extentM: 0.15, size: 2, sliceInto: { type: 'BreadSliced', count: 3 } },
  Lettuce: { pickupable: true, sliceable: true, extentM: 0.15, size: 2, sliceInto: { type: 'LettuceSliced', count: 3 } },
  Potato: { pickupable: true, sliceable: true, cookable: true, extentM: 0.1, sliceInto: { type: 'PotatoSliced', count: 3 } },
  Egg: { pickupable: true, sliceable: true, cookable: true, extentM: 0.06, sliceVerb: 'crack', sliceInto: { type: 'EggCracked', count: 1 } },
  AppleSliced: { pickupable: true, cookable: true, extentM: 0.08 },
  TomatoSliced: { pickupable: true, extentM: 0.07 },
  BreadSliced: { pickupable: true, cookable: true, extentM: 0.12 },
  LettuceSliced: { pickupable: true, extentM: 0.1 },
  PotatoSliced: { pickupable: true, cookable: true, extentM: 0.07 },
  EggCracked: { pickupable: true, cookable: true, extentM: 0.04 },
  Bowl: { pickupable: true, receptacle: true, dirtyable: true, extentM: 0.08, size: 2, surfaceM: 0.03, accepts: [...FOOD, ...SLICES, 'Spoon'], capacity: 4 },
  Plate: { pickupable: true, receptacle: true, dirtyable: true, extentM: 0.03, size: 2, surfaceM: 0.02, accepts: [...FOOD, ...SLICES, 'Fork', 'Knife', 'ButterKnife'], capacity: 3 },
  Mug: { pickupable: true, dirtyable: true, extentM: 0.1, size: 2 },
  Cup: { pickupable: true, dirtyable: true, extentM: 0.1, size: 2 },
  Pot: { pickupable: true, receptacle: true, dirtyable: true, extentM: 0.15, size: 3, surfaceM: 0.05, accepts: [...FOOD, ...SLICES], capacity: 4 },
  Pan: { pickupable: true, receptacle: true, dirtyable: true, extentM: 0.06, size: 3, surfaceM: 0.03, accepts: [...FOOD, ...SLICES], capacity: 3 },
  Kettle: { pickupable: true, extentM: 0.2, size: 3 },
  Fork: { pickupable: true, extentM: 0.02 },
  Spoon: { pickupable: true, extentM: 0.02 },
  Knife: { pickupable: true, extentM: 0.02 },
  ButterKnife: { pickupable: true, extentM: 0.02 },
  Spatula: { pickupable: true, extentM: 0.03 },
  Ladle: { pickupable: true, extentM: 0.05 },
  SaltShaker: { pickupable: true, extentM: 0.1 },
  PepperShaker: { pickupable: true, extentM: 0.1 },
  DishSponge: { pickupable: true, extentM: 0.04 },
  SoapBottle: { pickupable: true, extentM: 0.18, size: 2 },
  PaperTowelRoll: { pickupable: true, extentM: 0.25, size: 2 },
  Bottle: { pickupable: true, extentM: 0.25, size: 2 },
  Laptop: { pickupable: true, toggleable: true, extentM: 0.04, size: 2 },
  Book: { pickupable: true, extentM: 0.05, size: 2 },
  Newspaper: { pickupable: true, extentM: 0.02, size: 2 },
  Pen: { pickupable: true, extentM: 0.02 },
  Pencil: { pickupable: true, extentM: 0.02 },
  RemoteControl: { pickupable: true, extentM: 0.03 },
  KeyChain: { pickupable: true, extentM: 0.02 },
  Watch: { pickupable: true, extentM: 0.02 },
  CreditCard: { pickupable: true, extentM: 0.01 },
  CellPhone: { pickupable: true, extentM: 0.02 },
  TissueBox: { pickupable: true, extentM: 0.12, size: 2 },
  Vase: { pickupable: true, extentM: 0.3, size: 2 },
  Statue: { pickupable: true, extentM: 0.25, size: 2 },
  Pillow: { pickupable: true, extentM: 0.2, size: 3 },
  Box: { pickupable: true, receptacle: true, extentM: 0.3, size: 3, surfaceM: 0.05, accepts: 'any', capacity: 6 },
  // AI2-THOR's desk lamp is moveable but not pickupable; here it can be carried (MAP-THOR's "move all lamps").
  DeskLamp: { pickupable: true, toggleable: true, extentM: 0.35, size: 3 },
  AlarmClock: { pickupable: true, extentM: 0.12, size: 2 },
  Basketball: { pickupable: true, extentM: 0.25, size: 3 },
  TeddyBear: { pickupable: true, extentM: 0.3, size: 3 },
  SoapBar: { pickupable: true, extentM: 0.04 },
  Towel: { pickupable: true, extentM: 0.1, size: 2 },
  ToiletPaper: { pickupable: true, extentM: 0.12 },
  SprayBottle: { pickupable: true, extentM: 0.25, size: 2 },
  Cloth: { pickupable: true, extentM: 0.02 },
  Candle: { pickupable: true, extentM: 0.12 },
};

export function typeSpec(type: string): TypeSpec {
  const s = OBJECT_TYPES[type];
  if (!s) throw new Error(`unknown household object type '${type}'`);
  return s;
}

/** Whether receptacle type `r` takes an object of type `o`. */
export function accepts(r: string, o: string): boolean {
  const a = typeSpec(r).accepts;
  if (a === undefined) return false;
  return a === 'any' ? o !== r && typeSpec(o).pickupable === true : a.includes(o);
}

/** Size units an object takes in a receptacle. */
export function sizeOf(type: string): number {
  return typeSpec(type).size ?? 1;
}

/** Light sources a "make the room dark" task turns off. */
export const LIGHT_SOURCES = ['LightSwitch', 'FloorLamp', 'DeskLamp', 'Television'] as const;

// AI2-THOR-like object types: what each can do (pick up, hold things, open, slice, toggle, get dirty, cook) and
// its vertical extent, which decides whether a camera pitched up or down sees it. Types and abilities follow
// AI2-THOR's object list; the numbers are ours (there is no physics here).

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
  /** Receptacles: how many objects fit. */
  capacity?: number;
  /** What slicing is called for this type in action texts ("crack" for an egg). */
  sliceVerb?: string;
}

const FOOD = ['Apple', 'Tomato', 'Bread', 'Lettuce', 'Potato', 'Egg'];
const DISHES = ['Bowl', 'Plate', 'Mug', 'Cup', 'Pot', 'Pan', 'Kettle'];
const SILVERWARE = ['Fork', 'Spoon', 'Knife', 'ButterKnife', 'Spatula', 'Ladle'];

export const OBJECT_TYPES: Record<string, TypeSpec> = {
  // Furniture and fixtures (not pickupable).
  Fridge: { receptacle: true, openable: true, extentM: [0, 1.8], surfaceM: 0.9, accepts: [...FOOD, ...DISHES, 'SaltShaker', 'PepperShaker', 'Bottle'], capacity: 12 },
  CounterTop: { receptacle: true, extentM: [0.85, 0.95], surfaceM: 0.9, accepts: 'any', capacity: 30 },
  Sink: { receptacle: true, extentM: [0.78, 0.9], surfaceM: 0.85, accepts: [...FOOD, ...DISHES, ...SILVERWARE, 'DishSponge', 'SoapBar', 'Cloth'], capacity: 10 },
  Faucet: { toggleable: true, extentM: [0.95, 1.1] },
  StoveBurner: { receptacle: true, extentM: [0.9, 0.96], surfaceM: 0.93, accepts: ['Pot', 'Pan', 'Kettle'], capacity: 1 },
  StoveKnob: { toggleable: true, extentM: [0.82, 0.9] },
  Cabinet: { receptacle: true, openable: true, extentM: [0.1, 0.8], surfaceM: 0.3, accepts: 'any', capacity: 6 },
  Drawer: { receptacle: true, openable: true, extentM: [0.6, 0.82], surfaceM: 0.7, accepts: 'any', capacity: 6 },
  Microwave: { receptacle: true, openable: true, toggleable: true, extentM: [0.95, 1.3], surfaceM: 1.0, accepts: [...FOOD, 'Mug', 'Cup', 'Bowl', 'Plate'], capacity: 2 },
  Toaster: { receptacle: true, toggleable: true, extentM: [0.92, 1.1], surfaceM: 1.0, accepts: ['Bread'], capacity: 1 },
  CoffeeMachine: { receptacle: true, toggleable: true, extentM: [0.92, 1.25], surfaceM: 0.95, accepts: ['Mug', 'Cup'], capacity: 1 },
  GarbageCan: { receptacle: true, extentM: [0, 0.4], surfaceM: 0.3, accepts: 'any', capacity: 12 },
  DiningTable: { receptacle: true, extentM: [0.7, 0.78], surfaceM: 0.75, accepts: 'any', capacity: 30 },
  Sofa: { receptacle: true, extentM: [0.3, 0.8], surfaceM: 0.45, accepts: 'any', capacity: 12 },
  ArmChair: { receptacle: true, extentM: [0.3, 0.8], surfaceM: 0.45, accepts: 'any', capacity: 4 },
  CoffeeTable: { receptacle: true, extentM: [0.4, 0.48], surfaceM: 0.45, accepts: 'any', capacity: 12 },
  SideTable: { receptacle: true, extentM: [0.5, 0.6], surfaceM: 0.6, accepts: 'any', capacity: 6 },
  TVStand: { receptacle: true, extentM: [0.3, 0.55], surfaceM: 0.55, accepts: 'any', capacity: 6 },
  Television: { toggleable: true, extentM: [0.6, 1.2] },
  Shelf: { receptacle: true, extentM: [0.3, 1.6], surfaceM: 1.0, accepts: 'any', capacity: 10 },
  Desk: { receptacle: true, extentM: [0.7, 0.78], surfaceM: 0.75, accepts: 'any', capacity: 12 },
  Dresser: { receptacle: true, extentM: [0.2, 0.9], surfaceM: 0.9, accepts: 'any', capacity: 10 },
  Bed: { receptacle: true, extentM: [0.3, 0.6], surfaceM: 0.55, accepts: 'any', capacity: 10 },
  Toilet: { receptacle: true, extentM: [0.3, 0.5], surfaceM: 0.45, accepts: ['SoapBar', 'ToiletPaper', 'SprayBottle', 'Cloth', 'Candle'], capacity: 4 },
  Bathtub: { receptacle: true, extentM: [0.2, 0.55], surfaceM: 0.3, accepts: 'any', capacity: 6 },
  TowelHolder: { receptacle: true, extentM: [1.0, 1.2], surfaceM: 1.1, accepts: ['Towel', 'Cloth'], capacity: 1 },
  LightSwitch: { toggleable: true, extentM: [1.2, 1.3] },
  FloorLamp: { toggleable: true, extentM: [0, 1.7] },
  DeskLamp: { toggleable: true, extentM: [0.75, 1.1] },
  // Small objects.
  Apple: { pickupable: true, sliceable: true, cookable: true, extentM: 0.1 },
  Tomato: { pickupable: true, sliceable: true, cookable: true, extentM: 0.1 },
  Bread: { pickupable: true, sliceable: true, cookable: true, extentM: 0.15 },
  Lettuce: { pickupable: true, sliceable: true, extentM: 0.15 },
  Potato: { pickupable: true, sliceable: true, cookable: true, extentM: 0.1 },
  Egg: { pickupable: true, sliceable: true, cookable: true, extentM: 0.06, sliceVerb: 'crack' },
  Bowl: { pickupable: true, receptacle: true, dirtyable: true, extentM: 0.08, surfaceM: 0.03, accepts: [...FOOD, 'Spoon'], capacity: 4 },
  Plate: { pickupable: true, receptacle: true, dirtyable: true, extentM: 0.03, surfaceM: 0.02, accepts: [...FOOD, 'Fork', 'Knife', 'ButterKnife'], capacity: 3 },
  Mug: { pickupable: true, dirtyable: true, extentM: 0.1 },
  Cup: { pickupable: true, dirtyable: true, extentM: 0.1 },
  Pot: { pickupable: true, receptacle: true, dirtyable: true, extentM: 0.15, surfaceM: 0.05, accepts: FOOD, capacity: 3 },
  Pan: { pickupable: true, receptacle: true, dirtyable: true, extentM: 0.06, surfaceM: 0.03, accepts: FOOD, capacity: 2 },
  Kettle: { pickupable: true, extentM: 0.2 },
  Fork: { pickupable: true, extentM: 0.02 },
  Spoon: { pickupable: true, extentM: 0.02 },
  Knife: { pickupable: true, extentM: 0.02 },
  ButterKnife: { pickupable: true, extentM: 0.02 },
  Spatula: { pickupable: true, extentM: 0.03 },
  Ladle: { pickupable: true, extentM: 0.05 },
  SaltShaker: { pickupable: true, extentM: 0.1 },
  PepperShaker: { pickupable: true, extentM: 0.1 },
  DishSponge: { pickupable: true, extentM: 0.04 },
  SoapBottle: { pickupable: true, extentM: 0.18 },
  PaperTowelRoll: { pickupable: true, extentM: 0.25 },
  Bottle: { pickupable: true, extentM: 0.25 },
  Laptop: { pickupable: true, toggleable: true, extentM: 0.04 },
  Book: { pickupable: true, extentM: 0.05 },
  Newspaper: { pickupable: true, extentM: 0.02 },
  Pen: { pickupable: true, extentM: 0.02 },
  Pencil: { pickupable: true, extentM: 0.02 },
  RemoteControl: { pickupable: true, extentM: 0.03 },
  KeyChain: { pickupable: true, extentM: 0.02 },
  Watch: { pickupable: true, extentM: 0.02 },
  CreditCard: { pickupable: true, extentM: 0.01 },
  CellPhone: { pickupable: true, extentM: 0.02 },
  TissueBox: { pickupable: true, extentM: 0.12 },
  Vase: { pickupable: true, extentM: 0.3 },
  Statue: { pickupable: true, extentM: 0.25 },
  Pillow: { pickupable: true, extentM: 0.2 },
  Box: { pickupable: true, receptacle: true, extentM: 0.3, surfaceM: 0.05, accepts: 'any', capacity: 6 },
  AlarmClock: { pickupable: true, extentM: 0.12 },
  Basketball: { pickupable: true, extentM: 0.25 },
  TeddyBear: { pickupable: true, extentM: 0.3 },
  SoapBar: { pickupable: true, extentM: 0.04 },
  Towel: { pickupable: true, extentM: 0.1 },
  ToiletPaper: { pickupable: true, extentM: 0.12 },
  SprayBottle: { pickupable: true, extentM: 0.25 },
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

/** Light sources a "make the room dark" task turns off. */
export const LIGHT_SOURCES = ['LightSwitch', 'FloorLamp', 'DeskLamp', 'Television'] as const;

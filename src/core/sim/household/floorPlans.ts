// Floor plans of the embedded household: one character per 0.25 m grid cell (AI2-THOR's gridSize in LLaMAR).
// Letters are furniture footprints (each connected group of one letter is one object), fixtures (cabinets,
// drawers, burners, knobs, switches, appliances) sit on given cells, and rooms are rectangles. Row 0 is the north
// wall; x grows east (columns), y grows north.

export type RoomKind = 'kitchen' | 'living' | 'bedroom' | 'bathroom' | 'hall';

export interface RoomSpec {
  name: string;
  kind: RoomKind;
  /** Inclusive [row0, col0, row1, col1]. */
  rect: [number, number, number, number];
}

export interface FixtureSpec {
  type: string;
  at: [number, number];
  /** Upper cabinets hang above the counter (seen when looking up, out of reach of nothing: 1.5-2.1 m). */
  upper?: boolean;
  /** The room a wall fixture (a light switch) belongs to, when its cell is a wall. */
  room?: string;
}

export interface PlanSpec {
  id: string;
  label: string;
  rows: string[];
  rooms: RoomSpec[];
  fixtures: FixtureSpec[];
}

/** Cell letters: '#' wall, '.' floor, 'D' door; furniture letters name AI2-THOR types; 'O' is the stove body. */
export const LEGEND: Record<string, { type?: string; structure?: string; walkable: boolean }> = {
  '#': { structure: 'wall', walkable: false },
  '.': { structure: 'floor', walkable: true },
  D: { structure: 'door', walkable: true },
  O: { structure: 'stove', walkable: false },
  F: { type: 'Fridge', walkable: false },
  C: { type: 'CounterTop', walkable: false },
  S: { type: 'Sink', walkable: false },
  T: { type: 'DiningTable', walkable: false },
  G: { type: 'GarbageCan', walkable: false },
  A: { type: 'Sofa', walkable: false },
  H: { type: 'ArmChair', walkable: false },
  K: { type: 'CoffeeTable', walkable: false },
  E: { type: 'SideTable', walkable: false },
  V: { type: 'TVStand', walkable: false },
  W: { type: 'Shelf', walkable: false },
  X: { type: 'Desk', walkable: false },
  R: { type: 'Dresser', walkable: false },
  B: { type: 'Bed', walkable: false },
  Q: { type: 'Toilet', walkable: false },
  U: { type: 'Bathtub', walkable: false },
  L: { type: 'FloorLamp', walkable: false },
};

const KITCHEN_ROWS = [
  '####################',
  '#FFFCCCCSSSCCOOOOCC#',
  '#FFFCCCCSSSCCOOOOCC#',
  '#.................C#',
  '#.................C#',
  '#.................C#',
  '#.....TTTTT.......C#',
  '#.....TTTTT.......C#',
  '#.....TTTTT.......C#',
  '#.................C#',
  '#.................C#',
  '#G................C#',
  '#..................#',
  '#..................#',
  '########DD##########',
];

/** The kitchen's fixtures relative to its north-west interior corner (row 1, col 1). */
function kitchenFixtures(dr: number, dc: number, switchAt: [number, number], room: string): FixtureSpec[] {
  const at = (r: number, c: number): [number, number] => [r + dr, c + dc];
  return [
    { type: 'Faucet', at: at(1, 9) },
    { type: 'StoveBurner', at: at(1, 13) },
    { type: 'StoveBurner', at: at(1, 15) },
    { type: 'StoveBurner', at: at(2, 14) },
    { type: 'StoveBurner', at: at(2, 16) },
    { type: 'StoveKnob', at: at(2, 13) },
    { type: 'StoveKnob', at: at(2, 14) },
    { type: 'StoveKnob', at: at(2, 15) },
    { type: 'StoveKnob', at: at(2, 16) },
    { type: 'Cabinet', at: at(2, 5) },
    { type: 'Cabinet', at: at(2, 11) },
    { type: 'Cabinet', at: at(5, 18) },
    { type: 'Cabinet', at: at(9, 18) },
    { type: 'Cabinet', at: at(1, 5), upper: true },
    { type: 'Cabinet', at: at(1, 12), upper: true },
    { type: 'Drawer', at: at(2, 4) },
    { type: 'Drawer', at: at(2, 7) },
    { type: 'Drawer', at: at(7, 18) },
    { type: 'Microwave', at: at(4, 18) },
    { type: 'Toaster', at: at(1, 17) },
    { type: 'CoffeeMachine', at: at(1, 11) },
    { type: 'LightSwitch', at: switchAt, room },
  ];
}

const KITCHEN: PlanSpec = {
  id: 'kitchen',
  label: 'Kitchen (single room, 4.5 × 3.25 m)',
  rows: KITCHEN_ROWS,
  rooms: [{ name: 'kitchen', kind: 'kitchen', rect: [1, 1, 13, 18] }],
  fixtures: kitchenFixtures(0, 0, [14, 7], 'kitchen'),
};

const GALLEY: PlanSpec = {
  id: 'galley_kitchen',
  label: 'Galley kitchen (narrow, 2 × 3.75 m)',
  rows: [
    '##########',
    '#FF....CC#',
    '#FF....CC#',
    '#CC....CC#',
    '#CC....OO#',
    '#CC....OO#',
    '#SS....OO#',
    '#SS....CC#',
    '#CC....CC#',
    '#CC....CC#',
    '#CC....CC#',
    '#CC.....G#',
    '#........#',
    '#..TTT...#',
    '#..TTT...#',
    '#........#',
    '####DD####',
  ],
  rooms: [{ name: 'kitchen', kind: 'kitchen', rect: [1, 1, 15, 8] }],
  fixtures: [
    { type: 'Faucet', at: [6, 1] },
    { type: 'StoveBurner', at: [4, 7] },
    { type: 'StoveBurner', at: [4, 8] },
    { type: 'StoveBurner', at: [6, 7] },
    { type: 'StoveBurner', at: [6, 8] },
    { type: 'StoveKnob', at: [4, 7] },
    { type: 'StoveKnob', at: [5, 7] },
    { type: 'StoveKnob', at: [6, 7] },
    { type: 'Cabinet', at: [3, 1] },
    { type: 'Cabinet', at: [9, 1] },
    { type: 'Cabinet', at: [8, 8] },
    { type: 'Cabinet', at: [1, 8], upper: true },
    { type: 'Drawer', at: [3, 2] },
    { type: 'Drawer', at: [10, 2] },
    { type: 'Drawer', at: [9, 7] },
    { type: 'Microwave', at: [8, 7] },
    { type: 'Toaster', at: [10, 7] },
    { type: 'CoffeeMachine', at: [3, 7] },
    { type: 'LightSwitch', at: [16, 3], room: 'kitchen' },
  ],
};

const LIVING_ROOM: PlanSpec = {
  id: 'living_room',
  label: 'Living room (single room, 5 × 4 m)',
  rows: [
    '######################',
    '#WWW....VVVVVV......L#',
    '#....................#',
    '#....................#',
    '#....................#',
    '#.HH.....KKKK........#',
    '#.HH.....KKKK........#',
    '#....................#',
    '#....................#',
    '#......AAAAAAAAE.....#',
    '#......AAAAAAAA......#',
    '#....................#',
    '#....................#',
    '#....................#',
    '#...............XXXX.#',
    '#...............XXXX.#',
    '#....................#',
    '###DD#################',
  ],
  rooms: [{ name: 'living room', kind: 'living', rect: [1, 1, 16, 20] }],
  fixtures: [
    { type: 'Television', at: [1, 10] },
    { type: 'Drawer', at: [1, 8] },
    { type: 'Drawer', at: [1, 13] },
    { type: 'DeskLamp', at: [14, 19] },
    { type: 'LightSwitch', at: [17, 5], room: 'living room' },
  ],
};

const BEDROOM: PlanSpec = {
  id: 'bedroom',
  label: 'Bedroom (single room, 4 × 3.5 m)',
  rows: [
    '##################',
    '#BBBBBE...RRRR...#',
    '#BBBBB....RRRR...#',
    '#BBBBB..........W#',
    '#BBBBB..........W#',
    '#BBBBB..........W#',
    '#BBBBB...........#',
    '#................#',
    '#................#',
    '#................#',
    '#................#',
    '#G...............#',
    '#...........XXXX.#',
    '#...........XXXX.#',
    '#................#',
    '##DD##############',
  ],
  rooms: [{ name: 'bedroom', kind: 'bedroom', rect: [1, 1, 14, 16] }],
  fixtures: [
    { type: 'Drawer', at: [2, 10] },
    { type: 'Drawer', at: [2, 11] },
    { type: 'Drawer', at: [2, 12] },
    { type: 'Drawer', at: [2, 13] },
    { type: 'Drawer', at: [1, 6] },
    { type: 'DeskLamp', at: [12, 15] },
    { type: 'LightSwitch', at: [15, 4], room: 'bedroom' },
  ],
};

const BATHROOM: PlanSpec = {
  id: 'bathroom',
  label: 'Bathroom (single room, 2.5 × 2.5 m)',
  rows: [
    '############',
    '#UUUUUU..QQ#',
    '#UUUUUU..QQ#',
    '#..........#',
    '#..........#',
    '#..........#',
    '#CCSSCC....#',
    '#CCSSCC....#',
    '#..........#',
    '#........G.#',
    '#..........#',
    '#####DD#####',
  ],
  rooms: [{ name: 'bathroom', kind: 'bathroom', rect: [1, 1, 10, 10] }],
  fixtures: [
    { type: 'Faucet', at: [6, 3] },
    { type: 'Cabinet', at: [7, 1] },
    { type: 'Cabinet', at: [7, 5] },
    { type: 'TowelHolder', at: [3, 11], room: 'bathroom' },
    { type: 'LightSwitch', at: [11, 4], room: 'bathroom' },
  ],
};

const APARTMENT: PlanSpec = {
  id: 'apartment',
  label: 'Apartment (kitchen, living room, hallway, bedroom, bathroom; 9.5 × 6.5 m)',
  rows: [
    '########################################',
    '#FFFCCCCSSSCCOOOOCC#WWW....VVVVVV.....L#',
    '#FFFCCCCSSSCCOOOOCC#...................#',
    '#.................C#...................#',
    '#.................C#.HH.....KKKK.......#',
    '#.....TTTTT.......C#.HH.....KKKK.......#',
    '#.....TTTTT.......C#...................#',
    '#.................C#.......AAAAAAAAE...#',
    '#.................C#.......AAAAAAAA....#',
    '#G.................#...................#',
    '#..................#...............XXX.#',
    '########DD##########DD##################',
    '#......................................#',
    '#......................................#',
    '########DD#####################DD#######',
    '#BBBBBE....RRRR........#UUUUUU.......QQ#',
    '#BBBBB.....RRRR........#UUUUUU.......QQ#',
    '#BBBBB................W#...............#',
    '#BBBBB................W#...............#',
    '#BBBBB................W#CCSSCC.........#',
    '#BBBBB.................#CCSSCC.........#',
    '#......................#...............#',
    '#......................#...........G...#',
    '#G.....................#...............#',
    '#...............XXXX...#...............#',
    '#...............XXXX...#...............#',
    '#......................#...............#',
    '########################################',
  ],
  rooms: [
    { name: 'kitchen', kind: 'kitchen', rect: [1, 1, 10, 18] },
    { name: 'living room', kind: 'living', rect: [1, 20, 10, 38] },
    { name: 'hallway', kind: 'hall', rect: [12, 1, 13, 38] },
    { name: 'bedroom', kind: 'bedroom', rect: [15, 1, 26, 22] },
    { name: 'bathroom', kind: 'bathroom', rect: [15, 24, 26, 38] },
  ],
  fixtures: [
    // Kitchen (same layout as the single kitchen, two rows shorter).
    ...kitchenFixtures(0, 0, [11, 7], 'kitchen').filter((f) => !(f.type === 'Cabinet' && f.at[0] === 9)),
    // Living room.
    { type: 'Television', at: [1, 29] },
    { type: 'Drawer', at: [1, 27] },
    { type: 'Drawer', at: [1, 32] },
    { type: 'DeskLamp', at: [10, 36] },
    { type: 'LightSwitch', at: [11, 27], room: 'living room' },
    // Bedroom.
    { type: 'Drawer', at: [16, 11] },
    { type: 'Drawer', at: [16, 12] },
    { type: 'Drawer', at: [16, 13] },
    { type: 'Drawer', at: [16, 14] },
    { type: 'Drawer', at: [15, 6] },
    { type: 'DeskLamp', at: [24, 17] },
    { type: 'LightSwitch', at: [14, 4], room: 'bedroom' },
    // Bathroom.
    { type: 'Faucet', at: [19, 26] },
    { type: 'Cabinet', at: [20, 24] },
    { type: 'Cabinet', at: [20, 28] },
    { type: 'TowelHolder', at: [17, 39], room: 'bathroom' },
    { type: 'LightSwitch', at: [14, 33], room: 'bathroom' },
  ],
};

const STUDIO: PlanSpec = {
  id: 'studio',
  label: 'Studio (open-plan kitchen and living room, 7 × 3.75 m)',
  rows: [
    '##############################',
    '#FFFCCSSSCOOOOC..WW..VVVVV..L#',
    '#FFFCCSSSCOOOOC..............#',
    '#............................#',
    '#............................#',
    '#....CCCCC.........KKKK......#',
    '#....CCCCC.........KKKK......#',
    '#............................#',
    '#............................#',
    '#.TTTT...........AAAAAAAE....#',
    '#.TTTT...........AAAAAAA.....#',
    '#............................#',
    '#G..........................H#',
    '#............................#',
    '#..................XXXX......#',
    '#............................#',
    '######DD######################',
  ],
  rooms: [
    { name: 'kitchen', kind: 'kitchen', rect: [1, 1, 15, 14] },
    { name: 'living room', kind: 'living', rect: [1, 15, 15, 28] },
  ],
  fixtures: [
    { type: 'Faucet', at: [1, 7] },
    { type: 'StoveBurner', at: [1, 10] },
    { type: 'StoveBurner', at: [1, 12] },
    { type: 'StoveBurner', at: [2, 11] },
    { type: 'StoveBurner', at: [2, 13] },
    { type: 'StoveKnob', at: [2, 10] },
    { type: 'StoveKnob', at: [2, 11] },
    { type: 'StoveKnob', at: [2, 12] },
    { type: 'StoveKnob', at: [2, 13] },
    { type: 'Cabinet', at: [2, 4] },
    { type: 'Cabinet', at: [2, 9] },
    { type: 'Cabinet', at: [6, 5] },
    { type: 'Cabinet', at: [6, 9] },
    { type: 'Cabinet', at: [1, 5], upper: true },
    { type: 'Drawer', at: [2, 5] },
    { type: 'Drawer', at: [2, 14] },
    { type: 'Drawer', at: [6, 7] },
    { type: 'Microwave', at: [1, 14] },
    { type: 'Toaster', at: [5, 6] },
    { type: 'CoffeeMachine', at: [5, 8] },
    { type: 'Television', at: [1, 23] },
    { type: 'Drawer', at: [1, 21] },
    { type: 'Drawer', at: [1, 25] },
    { type: 'DeskLamp', at: [14, 22] },
    { type: 'LightSwitch', at: [16, 3], room: 'kitchen' },
    { type: 'LightSwitch', at: [16, 20], room: 'living room' },
  ],
};

export const FLOOR_PLANS: readonly PlanSpec[] = [KITCHEN, GALLEY, LIVING_ROOM, BEDROOM, BATHROOM, APARTMENT, STUDIO];

export function planById(id: string): PlanSpec {
  const p = FLOOR_PLANS.find((x) => x.id === id);
  if (!p) throw new Error(`unknown floor plan '${id}'; known: ${FLOOR_PLANS.map((x) => x.id).join(', ')}`);
  return p;
}

export const CELL_M = 0.25;

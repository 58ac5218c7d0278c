// Reading MALMM's environment-state text ("**name** :" blocks, then the end-effector block) the way a model
// would: from the words in the chat. Deliberately its own parser, tolerant of spacing, commas and missing fields;
// it shares no code with the simulator that printed the text.

export type Vec3 = [number, number, number];

export interface SceneObject {
  name: string;
  pos: Vec3;
  /** Rotation about +z (the third orientation value), radians. */
  yaw: number;
  /** Largest of |roll| and |pitch|: a toppled object is tilted. */
  tilt: number;
  /** z extent. */
  height: number;
  /** y extent. */
  width: number;
  /** x extent. */
  length: number;
  color: string;
}

export interface Scene {
  objects: SceneObject[];
  ee: Vec3;
  eeYaw: number;
  gripperOpen: boolean;
  /** The state text printed the gripper line (the paper's dump does not: then gripperOpen is a guess). */
  gripperStated?: boolean;
  grasped: string | null;
}

const NUM_RE = /-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi;
const nums = (s: string): number[] => (s.match(NUM_RE) ?? []).map(Number);

function fieldOf(block: string, label: RegExp): string | undefined {
  const m = new RegExp(`^\\s*(?:${label.source})\\s*:?\\s*(.*)$`, 'im').exec(block);
  return m?.[1]?.trim();
}

function vec3(text: string | undefined): Vec3 | undefined {
  if (text === undefined) return undefined;
  const v = nums(text);
  return v.length >= 3 ? [v[0]!, v[1]!, v[2]!] : undefined;
}

function num(text: string | undefined, fallback: number): number {
  const v = text === undefined ? [] : nums(text);
  return v.length > 0 && Number.isFinite(v[0]) ? v[0]! : fallback;
}

/** Parses one state text; undefined when it has no end-effector block with a position. */
export function parseStateText(text: string): Scene | undefined {
  const eeAt = text.search(/\*\*\s*End[- ]effector\s*\*\*/i);
  if (eeAt < 0) return undefined;
  const eeBlock = text.slice(eeAt);
  const ee = vec3(fieldOf(eeBlock, /(?:robot arm )?end[- ]effector position/));
  if (!ee) return undefined;
  const objects: SceneObject[] = [];
  const head = text.slice(0, eeAt);
  const headers = [...head.matchAll(/\*\*([^*\n]+)\*\*\s*:?/g)];
  for (let i = 0; i < headers.length; i++) {
    const h = headers[i]!;
    const body = head.slice(h.index! + h[0].length, headers[i + 1]?.index ?? head.length);
    const pos = vec3(fieldOf(body, /center position|centre position|position/));
    if (!pos) continue;
    const euler = vec3(fieldOf(body, /orientation/)) ?? [0, 0, 0];
    objects.push({
      name: h[1]!.trim(),
      pos,
      yaw: euler[2],
      tilt: Math.max(Math.abs(euler[0]), Math.abs(euler[1])),
      height: num(fieldOf(body, /height/), 0.05),
      width: num(fieldOf(body, /width/), 0.05),
      length: num(fieldOf(body, /length/), 0.05),
      color: (fieldOf(body, /colou?r/) ?? '').toLowerCase(),
    });
  }
  const grasp = /Grasped Object\s*:\s*([^\n]+)/i.exec(eeBlock)?.[1]?.trim();
  const gripper = /Gripper\s*:\s*(open|closed)/i.exec(eeBlock)?.[1]?.toLowerCase();
  return {
    objects,
    ee,
    eeYaw: num(fieldOf(eeBlock, /end[- ]effector orientation(?: \(yaw\))?/), 0),
    gripperOpen: gripper ? gripper === 'open' : !grasp,
    gripperStated: gripper !== undefined,
    grasped: grasp && !/^(none|nothing)$/i.test(grasp) ? grasp : null,
  };
}

export function cloneScene(s: Scene): Scene {
  return { ...s, ee: [...s.ee] as Vec3, objects: s.objects.map((o) => ({ ...o, pos: [...o.pos] as Vec3 })) };
}

/** Lower case, underscores and hyphens as spaces, no articles: "the Red_Block" -> "red block". */
export function normalName(s: string): string {
  return s
    .toLowerCase()
    .replace(/[_\-]+/g, ' ')
    .replace(/\b(the|a|an)\b/g, ' ')
    .replace(/[^a-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const SYNONYMS: Record<string, string> = { cube: 'block', blocks: 'block', cubes: 'block', colour: 'color', zone: 'area', region: 'area', trash: 'rubbish', garbage: 'rubbish' };
const canon = (w: string): string => SYNONYMS[w] ?? w.replace(/s$/, '');
const words = (s: string): string[] => normalName(s).split(' ').filter(Boolean).map(canon);

/**
 * The object a phrase names, as a reader would match it: the exact name first ("red block" = "red_block"), then
 * the object whose name holds every word of the phrase (synonyms: cube = block, zone = area) with the fewest extra
 * words. Undefined when nothing matches or two objects match equally well.
 */
export function findObject(scene: Scene, phrase: string): SceneObject | undefined {
  const want = normalName(phrase);
  const exact = scene.objects.filter((o) => normalName(o.name) === want);
  if (exact.length === 1) return exact[0];
  const ws = words(phrase);
  if (ws.length === 0) return undefined;
  let best: SceneObject[] = [];
  let bestExtra = Infinity;
  for (const o of scene.objects) {
    const ow = words(o.name);
    // Words of the phrase that are the object's colour count as matched ("the red one" for a red object).
    if (!ws.every((w) => ow.includes(w) || w === o.color)) continue;
    const extra = ow.length - ws.filter((w) => ow.includes(w)).length;
    if (extra < bestExtra) {
      best = [o];
      bestExtra = extra;
    } else if (extra === bestExtra) best.push(o);
  }
  return best.length === 1 ? best[0] : undefined;
}

export const top = (o: SceneObject): number => o.pos[2] + o.height / 2;
export const bottom = (o: SceneObject): number => o.pos[2] - o.height / 2;
export const dxy = (a: readonly number[], b: readonly number[]): number => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!);

/** Whether a point lies inside the object's footprint (its length x width rectangle turned by its yaw), with a margin. */
export function insideFootprint(o: SceneObject, p: readonly number[], margin = 0): boolean {
  const c = Math.cos(-o.yaw);
  const s = Math.sin(-o.yaw);
  const dx = p[0]! - o.pos[0];
  const dy = p[1]! - o.pos[1];
  const lx = c * dx - s * dy;
  const ly = s * dx + c * dy;
  return Math.abs(lx) <= o.length / 2 + margin && Math.abs(ly) <= o.width / 2 + margin;
}

/** Names that mean an open container: things are dropped into them. */
export function isContainer(o: SceneObject): boolean {
  return /\b(container|bin|basket|bowl|box|tray|cup|mug|bucket|pot|drawer|sink)\b/.test(normalName(o.name)) && !/\bblock\b/.test(normalName(o.name));
}

/** Names that mean a hollow vessel that must be held by its wall (a cup), not squeezed at its centre. */
export function isHollow(o: SceneObject): boolean {
  return /\b(cup|mug|bowl|glass)\b/.test(normalName(o.name));
}

/** Flat markings on the table (target areas, zones): placed on, never grasped. */
export function isFlat(o: SceneObject): boolean {
  return o.height <= 0.01;
}

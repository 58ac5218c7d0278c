// Action Contextualization's context (Sec. III-A): a description of the scene and the label lists `objects` and
// `locations` that every action and check must use. The paper has an LLM describe a photograph once, before the
// experiments; here the description is rendered from the simulator's structured state, in words and without
// coordinates (the paper gives the planner "no explicit spatial information"). By default it says what the paper's
// description of the photo says (App. E): the things, roughly where each lies, the glass's liquid, the locations.
// The spatial relations (what stands next to what, what lies behind what as the robot sees it, what hangs over
// what) are Waypoint's addition, the `scene.spatial_relations` ablation: §V-A has the LLM find the glass-first order
// from collision feedback, which relations in the description would give away.
import type { ObjectState, WorldState } from '../../protocol/trace.js';

export interface SceneContext {
  description: string;
  objects: string[];
  locations: string[];
}

/** The robot's base on the tabletop (x to the right, y away from the robot). */
const BASE: [number, number] = [0, -0.35];

function isLocation(o: ObjectState): boolean {
  return typeof o.props?.location === 'string';
}
function isFixed(o: ObjectState): boolean {
  return o.props?.fixed === true;
}

function radius(o: ObjectState): number {
  return Math.max(o.size[0], o.size[1]) / 2;
}

function where(o: ObjectState): string {
  const [x, y] = o.pos;
  const side = x < -0.12 ? 'on the left' : x > 0.12 ? 'on the right' : 'in the middle';
  const d = Math.hypot(x - BASE[0], y - BASE[1]);
  const depth = d < 0.45 ? 'close to the robot' : d > 0.62 ? 'at the back' : 'half-way back';
  return `${side}, ${depth}`;
}

function gap(a: ObjectState, b: ObjectState): number {
  return Math.hypot(a.pos[0] - b.pos[0], a.pos[1] - b.pos[1]) - radius(a) - radius(b);
}

/** b lies between the robot and a (within 4 cm of the line from the base to a, and nearer the base). */
function inFrontOf(b: ObjectState, a: ObjectState): boolean {
  const dx = a.pos[0] - BASE[0];
  const dy = a.pos[1] - BASE[1];
  const len = Math.hypot(dx, dy);
  const bx = b.pos[0] - BASE[0];
  const by = b.pos[1] - BASE[1];
  const along = (bx * dx + by * dy) / len;
  const across = Math.abs(bx * dy - by * dx) / len;
  return along > 0.05 && along < len - 0.03 && across < 0.04;
}

/**
 * A fixture hanging over an object: reaching well above its top, its footprint over the object's centre. (A lamp's
 * bounding box runs down its pole to the table, so its bottom says nothing; its top does.)
 */
function hangsOver(f: ObjectState, o: ObjectState): boolean {
  const fixtureTop = f.pos[2] + f.size[2] / 2;
  const top = o.pos[2] + o.size[2] / 2;
  return fixtureTop > top + 0.03 && Math.abs(f.pos[0] - o.pos[0]) < f.size[0] / 2 && Math.abs(f.pos[1] - o.pos[1]) < f.size[1] / 2;
}

function the(name: string): string {
  return `the '${name}'`;
}

/** The code-level ablation that adds the spatial relations to the description (off in the paper's default). */
export const SPATIAL_RELATIONS_ABLATION = 'scene.spatial_relations';

/** Whether a variant's ablation switches turn the relations on (a code ablation: off unless turned on). */
export function spatialRelationsOn(ablations: Readonly<Record<string, boolean>> | undefined): boolean {
  return ablations?.[SPATIAL_RELATIONS_ABLATION] === true;
}

/** The scene description and label lists of the current state; `relations` adds the spatial relations. */
export function sceneContext(state: WorldState, relations = false): SceneContext {
  const objs = state.objects;
  const items = objs.filter((o) => !isLocation(o) && !isFixed(o));
  const locations = objs.filter(isLocation);
  const fixtures = objs.filter((o) => isFixed(o) && !isLocation(o));
  const lines: string[] = [];
  lines.push('A robot arm stands at the front edge of a white table and reaches over it. Everything below is described as the robot sees it.');
  for (const l of locations) {
    const kind = l.props?.location === 'container' ? 'can hold things inside it' : 'has a flat top to put things on';
    lines.push(`The ${l.name} stands ${where(l)} on the table; it ${kind}.`);
  }
  for (const f of fixtures) {
    const under = relations ? items.filter((o) => hangsOver(f, o)) : [];
    lines.push(`The ${f.name} is fixed ${where(f)}${under.length ? `; it hangs over ${under.map((o) => the(o.name)).join(' and ')}` : ''}.`);
  }
  for (const o of items) {
    const facts: string[] = [`${the(o.name)} lies ${where(o)}`];
    if (o.name.includes('liquid')) facts.push('it is filled with a yellowish liquid and stands upright');
    if (relations) facts.push(...relationsOf(o, items, fixtures));
    const s = facts.join('; ');
    lines.push(s.charAt(0).toUpperCase() + s.slice(1) + '.');
  }
  return { description: lines.join('\n'), objects: items.map((o) => o.name), locations: locations.map((o) => o.name) };
}

/** What the description adds about `o` with the relations on: neighbours, what stands in front, what hangs over. */
function relationsOf(o: ObjectState, items: readonly ObjectState[], fixtures: readonly ObjectState[]): string[] {
  const facts: string[] = [];
  const near = items.filter((b) => b !== o && gap(o, b) < 0.05).map((b) => the(b.name));
  if (near.length === 1) facts.push(`it is right next to ${near[0]}`);
  else if (near.length > 1) facts.push(`it is wedged between ${near.join(' and ')}, with little room around it`);
  const front = items.filter((b) => b !== o && inFrontOf(b, o)).map((b) => the(b.name));
  if (front.length) facts.push(`it is behind ${front.join(' and ')}, which is between it and the robot`);
  const over = fixtures.filter((f) => hangsOver(f, o)).map((f) => `the ${f.name}`);
  if (over.length) facts.push(`${over.join(' and ')} hangs right over it`);
  return facts;
}

/** A Python list literal of labels, as the prompts show them. */
export function labelList(labels: readonly string[]): string {
  return `[${labels.map((l) => `'${l.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`).join(', ')}]`;
}

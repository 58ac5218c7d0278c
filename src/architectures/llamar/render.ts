// What LLaMAR's modules read, rendered from the household's structured state (WorldState.extra.household and the
// objects' props), in the released code's format: "Alice's observation: ['Fridge_1', 'Tomato_1']", "Alice's state:
// I am at co-ordinates: (1.25, 2.5) facing north and I am holding nothing", and the input dict
// "{Task: ..., Alice's observation: ..., ..., Robots' combined memory: ...}". Any simulator that reports this
// structure (the embedded household, an AI2-THOR adapter) works with LLaMAR's prompts.
import { householdOf, type HouseholdExtra, type HouseholdObjectProps } from '../../protocol/household.js';
import type { Observation } from '../../core/sim/simulator.js';

export const labelList = (labels: readonly string[]): string => `[${labels.map((l) => `'${l}'`).join(', ')}]`;

const num = (v: number): string => {
  const r = Math.round(v * 100) / 100;
  return String(Object.is(r, -0) ? 0 : r);
};

export function household(observation: Observation): HouseholdExtra {
  const h = householdOf(observation.state.extra);
  if (!h) throw new Error('the observation has no household state (state.extra.household); LLaMAR needs a household simulator');
  return h;
}

/** "I am at co-ordinates: (x, y) facing north and I am holding nothing". */
export function stateLine(observation: Observation, agent: string): string {
  const h = household(observation);
  const a = h.agents[agent];
  const robot = observation.state.robots?.find((r) => r.name === agent);
  if (!a || !robot) throw new Error(`no agent '${agent}' in the observation (agents: ${Object.keys(h.agents).join(', ')})`);
  return `I am at co-ordinates: (${num(robot.pos[0])}, ${num(robot.pos[1])}) facing ${a.heading} and I am holding ${a.holding ?? 'nothing'}`;
}

export function observationList(observation: Observation, agent: string): string {
  const a = household(observation).agents[agent];
  if (!a) throw new Error(`no agent '${agent}' in the observation`);
  return labelList(a.visible);
}

const IN_TYPES = new Set(['Fridge', 'Cabinet', 'Drawer', 'Microwave', 'Sink', 'Bowl', 'Box', 'Pot', 'Pan', 'Toaster', 'CoffeeMachine', 'GarbageCan', 'Bathtub']);

/**
 * Words for what the agent sees, where the paper's modules get an image: what is on or in what, and the states
 * that show (open/closed, on/off, sliced, dirty, cooked, filled). Only objects in `agent`'s view (from its own
 * observation), in its order, and none inside a closed receptacle.
 */
export function viewDescription(observation: Observation, agent: string): string {
  const h = household(observation);
  const a = h.agents[agent];
  if (!a) throw new Error(`no agent '${agent}' in the observation`);
  const labelOfObject = new Map(h.known.map((k) => [k.object, k.label]));
  const typeOfObject = new Map(observation.state.objects.map((o) => [o.name, (o.props as HouseholdObjectProps | undefined)?.type]));
  const byLabel = new Map(
    observation.state.objects.flatMap((o) => {
      const p = o.props as HouseholdObjectProps | undefined;
      return p?.label ? [[p.label, p] as const] : [];
    }),
  );
  // A camera does not see into a closed fridge or drawer: whatever the simulator lists, contents of a closed
  // receptacle (at any depth: a mug in a bowl in a closed cabinet) stay out of the line.
  const propsOfObject = new Map(observation.state.objects.map((o) => [o.name, o.props as HouseholdObjectProps | undefined]));
  const enclosed = (p: HouseholdObjectProps, depth = 0): boolean => {
    const parent = propsOfObject.get(p.parent);
    if (!parent || depth > 8) return false;
    return parent.isOpen === false || enclosed(parent, depth + 1);
  };
  const parts: string[] = [];
  for (const label of a.visible) {
    const p = byLabel.get(label);
    if (!p || enclosed(p)) continue;
    const bits: string[] = [];
    if (p.pickupable) {
      if (p.parent === 'Floor') bits.push('on the floor');
      else {
        const parentLabel = labelOfObject.get(p.parent);
        const parentType = typeOfObject.get(p.parent) ?? parentLabel?.replace(/_\d+$/, '');
        if (parentLabel) bits.push(`${parentType && IN_TYPES.has(parentType) ? 'in' : 'on'} ${parentLabel}`);
      }
    }
    if (p.isOpen !== undefined) bits.push(p.isOpen ? 'open' : 'closed');
    if (p.isToggled !== undefined) bits.push(p.isToggled ? 'on' : 'off');
    if (p.isSliced) bits.push(p.type === 'Egg' ? 'cracked' : 'sliced');
    if (p.isDirty) bits.push('dirty');
    if (p.isCooked) bits.push('cooked');
    if (p.filledWith) bits.push(`filled with ${p.filledWith}`);
    if (bits.length > 0) parts.push(`${label} ${bits.join(', ')}`);
  }
  return parts.length > 0 ? `${parts.join('; ')}` : 'nothing notable';
}

/** The three lines an agent's observation renders to (the trace's `rendered` field shows these). */
export function renderAgentObservation(observation: Observation, agent: string, withView = true): string {
  const lines = [`${agent}'s observation: ${observationList(observation, agent)}`, `${agent}'s state: ${stateLine(observation, agent)}`];
  if (withView) lines.push(`${agent}'s view: ${viewDescription(observation, agent)}`);
  return lines.join('\n');
}

/** The architecture's renderObservation: one agent's lines, or every agent's for a whole-scene observation. */
export function renderHouseholdObservation(observation: Observation, agent?: string): string {
  const h = household(observation);
  if (agent !== undefined) return renderAgentObservation(observation, agent);
  return Object.keys(h.agents)
    .map((a) => renderAgentObservation(observation, a))
    .join('\n');
}

/** The released code's dict-to-string: "{Key: value,\nKey: value}". */
export function inputDict(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([k, v]) => `${k}: ${v}`).join(',\n')}}`;
}

export const listOrNone = (xs: readonly string[]): string => (xs.length === 0 ? 'None' : labelList(xs));

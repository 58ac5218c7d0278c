// The texts the agents read, in the format of LLaMAR's released code: the previous action "I picked up Tomato_1 in
// the previous step and was successful", NavigateTo's three failure kinds, and the state line "I am at
// co-ordinates: (x, y) facing north and I am holding nothing". The simulator's own reason for a failure goes to
// the trace beside these (the agents never see it: in the paper only the success flag reaches them).
import { HEADINGS } from './grid.js';

export type NavFailure = 'unknown' | 'not_interactable' | 'no_path';

export interface ActTextInput {
  name: string;
  /** Object label, direction or angle. */
  arg?: string;
  /** Label of what the agent held before the action (Put names it). */
  held?: string | null;
  navFailure?: NavFailure;
}

const PAST: Record<string, [done: string, tried: string]> = {
  Pickup: ['picked up', 'pick up'],
  Open: ['opened', 'open'],
  Close: ['closed', 'close'],
  Slice: ['sliced', 'slice'],
  Clean: ['cleaned', 'clean'],
  ToggleOn: ['turned on', 'turn on'],
  ToggleOff: ['turned off', 'turn off'],
};

export function actText(a: ActTextInput, ok: boolean): string {
  const arg = a.arg ?? '';
  switch (a.name) {
    case 'Move':
      return ok ? `I moved ${arg.toLowerCase()} in the previous step and was successful.` : `I tried to move ${arg.toLowerCase()} in the previous step but was unsuccessful.`;
    case 'Rotate':
      return ok ? `I rotated ${arg.toLowerCase()} in the previous step and was successful.` : `I tried to rotate ${arg.toLowerCase()} in the previous step but was unsuccessful.`;
    case 'LookUp':
    case 'LookDown': {
      const dir = a.name === 'LookUp' ? 'up' : 'down';
      return ok ? `I looked ${dir} ${arg} degrees in the previous step and was successful.` : `I tried to look ${dir} ${arg} degrees in the previous step but was unsuccessful.`;
    }
    case 'NavigateTo':
      if (ok) return `I navigated to ${arg} in the previous step and was successful.`;
      if (a.navFailure === 'unknown') return `I tried to navigate to ${arg} in the previous step but ${arg} doesn't exist, unsuccessful.`;
      if (a.navFailure === 'not_interactable') return `I tried to navigate to ${arg} in the previous step but due to blockage ${arg} won't be interactable, unsuccessful.`;
      if (a.navFailure === 'no_path') return `I tried to navigate to ${arg} in the previous step but there isn't a clear path to ${arg}, unsuccessful.`;
      return `I tried to navigate to ${arg} in the previous step but was unsuccessful.`;
    case 'Put': {
      const held = a.held ?? 'nothing';
      return ok ? `I put the ${held} in my hand on ${arg} in the previous step and was successful.` : `I tried to put the ${held} in my hand on ${arg} in the previous step but was unsuccessful.`;
    }
    case 'Explore':
      return ok ? 'I explored the environment in the previous step and was successful.' : 'I tried to explore the environment in the previous step but was unsuccessful.';
    case 'Idle':
      return 'I was idle in the previous step.';
    case 'Done':
      return 'I completed the task in the previous step and was successful.';
    default: {
      const p = PAST[a.name];
      if (!p) return ok ? `I did ${a.name}(${arg}) in the previous step and was successful.` : `I tried to do ${a.name}(${arg}) in the previous step but was unsuccessful.`;
      return ok ? `I ${p[0]} ${arg} in the previous step and was successful.` : `I tried to ${p[1]} ${arg} in the previous step but was unsuccessful.`;
    }
  }
}

/** Short phrase of an action for the "previous failures" line: "pick up Tomato_1", "move ahead". */
export function actPhrase(a: ActTextInput): string {
  const arg = a.arg ?? '';
  switch (a.name) {
    case 'Move':
      return `move ${arg.toLowerCase()}`;
    case 'Rotate':
      return `rotate ${arg.toLowerCase()}`;
    case 'LookUp':
      return `look up ${arg} degrees`;
    case 'LookDown':
      return `look down ${arg} degrees`;
    case 'NavigateTo':
      return `navigate to ${arg}`;
    case 'Put':
      return `put the ${a.held ?? 'nothing'} in my hand on ${arg}`;
    case 'Explore':
      return 'explore';
    default:
      return PAST[a.name] ? `${PAST[a.name]![1]} ${arg}` : `${a.name} ${arg}`.trim();
  }
}

/** "I am at co-ordinates: (1.25, 2.5) facing north and I am holding nothing". */
export function stateText(xy: readonly [number, number], heading: number | string, holding: string | null): string {
  const facing = typeof heading === 'number' ? HEADINGS[heading] : heading;
  return `I am at co-ordinates: (${num(xy[0])}, ${num(xy[1])}) facing ${facing} and I am holding ${holding ?? 'nothing'}`;
}

/** A Python-style list of labels, as the released code prints observations: ['Cabinet_1', 'Egg_1']. */
export function labelList(labels: readonly string[]): string {
  return `[${labels.map((l) => `'${l}'`).join(', ')}]`;
}

function num(v: number): string {
  const r = Math.round(v * 100) / 100;
  return String(Object.is(r, -0) ? 0 : r);
}

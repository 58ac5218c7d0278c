// LLaMAR's high-level household actions (Nayak et al., Appendix B.2): navigation, interaction and exploration,
// one per agent per step, run by the household simulator (src/core/sim/household) or an AI2-THOR adapter.
// Object arguments are the labels the team has discovered ("Tomato_1").
import type { ApiFunctionSpec } from '../sim/simulator.js';

const obj = (name: string, doc: string): ApiFunctionSpec => ({
  name,
  params: [{ name: 'object_id', type: 'str' }],
  signature: `${name}(object_id: str) -> bool`,
  doc,
});

export const LLAMAR_API: ApiFunctionSpec[] = [
  { name: 'Move', params: [{ name: 'direction', type: 'str' }], signature: 'Move(direction: str) -> bool', doc: 'Step 0.25 m Ahead, Back, Left or Right (the heading stays).' },
  { name: 'Rotate', params: [{ name: 'direction', type: 'str' }], signature: 'Rotate(direction: str) -> bool', doc: 'Turn 90 degrees Left or Right.' },
  { name: 'LookUp', params: [{ name: 'angle', type: 'int' }], signature: 'LookUp(angle: int) -> bool', doc: 'Tilt the camera up by a multiple of 30 degrees (pitch stays within -30..60).' },
  { name: 'LookDown', params: [{ name: 'angle', type: 'int' }], signature: 'LookDown(angle: int) -> bool', doc: 'Tilt the camera down by a multiple of 30 degrees.' },
  obj('NavigateTo', 'Walk (A* on the 0.25 m grid, around the other robots) next to an object the team has seen, face it and tilt the camera to it.'),
  obj('Pickup', 'Pick up an object within 1.5 m and in view; one object at a time.'),
  obj('Put', 'Put the held object in or on a receptacle within 1.5 m and in view (open it first if it opens).'),
  obj('Open', 'Open a fridge, cabinet, drawer or microwave within reach.'),
  obj('Close', 'Close an open receptacle within reach.'),
  obj('Slice', 'Slice (or crack, for an egg) an object within reach that nobody holds.'),
  obj('Clean', 'Clean a dirty object within reach.'),
  obj('ToggleOn', 'Turn on a switch, lamp, faucet, knob or appliance within reach.'),
  obj('ToggleOff', 'Turn off a switch, lamp, faucet, knob or appliance within reach.'),
  {
    name: 'Explore',
    params: [
      { name: 'rounds', type: 'int', optional: true },
      { name: 'moves', type: 'int', optional: true },
      { name: 'hint', type: 'str', optional: true },
    ],
    signature: 'Explore(rounds: int = 3, moves: int = 2, hint: str = "") -> bool',
    doc: 'Look around in four directions and move toward unexplored space or toward what the hint (the open subtasks) names, `rounds` times, `moves` cells each time.',
  },
  { name: 'Idle', params: [], signature: 'Idle() -> bool', doc: 'Stay in place for one step.' },
  { name: 'Done', params: [], signature: 'Done() -> bool', doc: 'Declare that the task is complete.' },
];

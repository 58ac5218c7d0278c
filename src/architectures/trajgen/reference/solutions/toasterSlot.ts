// toaster_slot: grasp the standing slice near its top across its thickness, lift it clear of the toaster, turn it
// along the slot, lower it until its bottom is 5 mm above the slot's floor, release. Flaw: closing before lowering.
import { nearestYaw, PyTrajectory } from './pyTrajectory.js';
import type { TrajgenSolution } from './types.js';

export const toasterSlot: TrajgenSolution = {
  task: 'toaster_slot',
  matches: (i) => /toaster/i.test(i) && /bread/i.test(i),
  detect: () => ['bread', 'toaster slot'],
  code(_instruction, seen, flaw) {
    const bread = seen.one('bread');
    const slot = seen.one('toaster slot');
    const grip = 0.012;
    const yaw = nearestYaw(bread.yawWidth);
    const py = new PyTrajectory().comment('Grasp the slice 1.2 cm below its top, across its thickness.');
    py.grasp([bread.pos[0], bread.pos[1], bread.pos[2] + bread.height / 2 - grip], yaw, 0.96, flaw === 'close_before_lower');
    const floor = slot.pos[2] - slot.height / 2;
    py.comment(`Over the slot, turned along it (yaw ${slot.yawWidth.toFixed(3)}), down to 5 mm above its floor.`);
    return py.place(slot.pos[0], slot.pos[1], floor + 0.005 + bread.height - grip, nearestYaw(slot.yawWidth, yaw), 0.96).toString();
  },
  flaws: ['close_before_lower'],
};

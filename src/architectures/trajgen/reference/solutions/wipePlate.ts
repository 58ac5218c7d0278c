// wipe_plate: grasp the sponge 8 mm above its centre along its longer side, press it 2 mm into the plate's top and
// sweep six rows across the plate (zig-zag, each row inside the rim), then lift.
import { StepWriter, type PyPose } from './python.js';
import type { TrajgenSolution } from './types.js';

export const wipePlateSolution: TrajgenSolution = {
  task: 'wipe_plate',
  matches: (instruction) => /\bwipe\b/i.test(instruction) && /\bplate\b/i.test(instruction),
  detect: () => ['sponge', 'plate'],
  flaws: ['hard_coded_height', 'close_before_lower'],
  code(_instruction, seen, flaw) {
    const sponge = seen.one('sponge');
    const plate = seen.one('plate');
    const grip: PyPose = [sponge.pos[0], sponge.pos[1], sponge.pos[2] + 0.008, sponge.yawWidth];
    const plateTop = plate.pos[2] + plate.height / 2;
    // A wiping height hard-coded in the step function (the paper's "function definition error"): 3 cm too high.
    const z = flaw === 'hard_coded_height' ? 0.82 : plateTop + sponge.height / 2 - 0.002 + 0.008;
    const r = plate.width / 2;
    const rows = [-0.085, -0.05, -0.017, 0.017, 0.05, 0.085];
    const wps: PyPose[] = [];
    rows.forEach((dy, i) => {
      const half = Math.sqrt(Math.max(0, r * r - dy * dy)) - 0.01;
      const xs = i % 2 === 0 ? [-half, half] : [half, -half];
      wps.push([plate.pos[0] + xs[0]!, plate.pos[1] + dy, z, 0], [plate.pos[0] + xs[1]!, plate.pos[1] + dy, z, 0]);
    });
    const w = new StepWriter();
    w.comment('The sponge is held along its longer side; wiping keeps its bottom 2 mm into the plate\'s top surface.');
    if (flaw === 'close_before_lower') w.move('above the sponge', [[grip[0], grip[1], grip[2] + 0.1, grip[3]]]).gripper('close').move('down to the sponge', [grip]);
    else w.move('above the sponge, then down to it', [[grip[0], grip[1], grip[2] + 0.1, grip[3]], grip]).gripper('close');
    const first = wps[0]!;
    w.move('carry the sponge over the plate\'s first row and lower it', [[grip[0], grip[1], 0.95, 0], [first[0], first[1], z + 0.06, 0], first]);
    w.move('zig-zag over the plate, row by row', wps.slice(1), 20);
    const last = wps[wps.length - 1]!;
    w.move('lift the sponge off the plate', [[last[0], last[1], z + 0.08, 0]]);
    return w.done();
  },
};

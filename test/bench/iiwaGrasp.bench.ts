// npm run bench:iiwa-grasp — how the iiwa's Allegro-class hand holds each Action Contextualization dining object:
// the plans of test/unit/core/sim/mujoco/iiwaFriction.test.ts (one per ac_single_* task, seed 0) under friction (the default) and weld grasps.
// Per object: whether holding() was true after the pick, what slipped, the summed normal force of the hand's
// contacts on the object after the pick against its weight, how far the lift turned and shifted it in the hand, and
// the task's check. Prints a markdown table for
// docs/actctx.md. 10-40 s of wall time per plan on a shared 2-core machine.
import { createTabletopSimulator } from '../../src/core/sim/mujoco/index.js';
import type { GraspMode } from '../../src/core/sim/mujoco/simState.js';
import { carry, IIWA_CARRIES } from '../unit/core/sim/mujoco/iiwaFrictionCarry.js';

console.log('| object (task) | grasp | holding after pick | slipped | hand contacts on it after the pick | weight | moved in the hand by the lift | task check |');
console.log('|---|---|---|---|---|---|---|---|');
for (const grasp of ['friction', 'weld'] as GraspMode[]) {
  const sim = await createTabletopSimulator({ robot: 'iiwa', grasp });
  try {
    for (const { object, task, steps } of IIWA_CARRIES) {
      const c = await carry(sim, task, steps);
      const grip = c.grip ? `${c.grip.contacts}, ${c.grip.normalN.toFixed(1)} N normal` : '-';
      const moved = c.inHandAfterPick ? `${c.inHandAfterPick.turnDeg.toFixed(1)} deg, ${(c.inHandAfterPick.shiftM * 1000).toFixed(0)} mm` : '-';
      console.log(`| ${object} (\`${task}\`) | ${grasp} | ${c.holdingAfterPick.join(', ')} | ${c.slipped.join(', ') || 'none'} | ${grip} | ${c.grip ? `${c.grip.weightN.toFixed(2)} N` : '-'} | ${moved} | ${c.success ? 'passes' : c.detail} |`);
    }
  } finally {
    await sim.close();
  }
}

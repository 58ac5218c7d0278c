// Scripted solutions of the single-arm suite through the MALMM API (one per task). They read only the
// observation (positions, sizes, yaws) and the instruction, as an agent would.
import assert from 'node:assert/strict';
import type { Simulator } from '../../../../../../src/core/sim/simulator.js';
import { call, move, obj, pick, placeAt, squareYaw, world } from './malmmScript.js';

const TABLE_Z = 0.75;

async function putBlock(sim: Simulator): Promise<void> {
  await pick(sim, 'red block');
  const area = await obj(sim, 'target area');
  await placeAt(sim, [area.pos[0], area.pos[1], TABLE_Z + 0.025 + 0.02], squareYaw(area.euler[2]));
}

async function emptyContainer(sim: Simulator): Promise<void> {
  const box = await obj(sim, 'blue container');
  const rim = box.pos[2] + box.size[2] / 2;
  // Side by side along the container's long (y) side.
  const offsets = [-0.06, 0, 0.06];
  for (const [i, name] of ['yellow cylinder', 'green cross', 'purple L shape'].entries()) {
    const o = await obj(sim, name);
    // The L is held by its long bar: its middle sits 1.15 cm from the frame toward the L's -y side (half the 4.5 cm
    // bounding box minus half the 2.2 cm bar), which the observation's Width and yaw let a reader work out.
    const inward = name === 'purple L shape' ? -(o.size[1] / 2 - 0.011) : 0;
    const yaw = o.euler[2];
    const at: [number, number, number] = [o.pos[0] - Math.sin(yaw) * inward, o.pos[1] + Math.cos(yaw) * inward, o.pos[2]];
    await pick(sim, name, { at, yaw });
    await placeAt(sim, [box.pos[0], box.pos[1] + offsets[i]!, rim + 0.04], 0);
  }
}

async function rubbishInBin(sim: Simulator): Promise<void> {
  await pick(sim, 'rubbish', { yaw: 0 });
  const bin = await obj(sim, 'bin');
  await placeAt(sim, [bin.pos[0], bin.pos[1], bin.pos[2] + bin.size[2] / 2 + 0.05], 0, 1.0);
}

/** The drawer named in the instruction: grasp its handle (at the -y end of its box, 3 cm above its centre), pull 15 cm toward -y. */
async function openDrawer(sim: Simulator, instruction: string): Promise<void> {
  const name = /Open the (\w+ drawer)/.exec(instruction)![1]!;
  const d = await obj(sim, name);
  const handle: [number, number, number] = [d.pos[0], d.pos[1] - d.size[1] / 2 + 0.006, d.pos[2] + 0.03];
  await move(sim, [handle[0], handle[1], handle[2] + 0.1], 0);
  await move(sim, handle, 0);
  await call(sim, 'close_gripper', [name]);
  assert.equal((await world(sim)).grasped, name);
  await move(sim, [handle[0], handle[1] - 0.15, handle[2]], 0);
  await call(sim, 'open_gripper', []);
  await move(sim, [handle[0], handle[1] - 0.15, handle[2] + 0.1], 0);
}

async function pushButton(sim: Simulator): Promise<void> {
  const b = await obj(sim, 'button');
  const top = b.pos[2] + b.size[2] / 2;
  await call(sim, 'close_gripper', ['button']);
  // The closed pads reach 14 mm below the tool centre point: press the cap 12 mm down.
  await move(sim, [b.pos[0], b.pos[1], top + 0.014 + 0.05], 0);
  await move(sim, [b.pos[0], b.pos[1], top + 0.014 - 0.012], 0);
  await move(sim, [b.pos[0], b.pos[1], top + 0.014 + 0.05], 0);
}

async function pickAndLift(sim: Simulator): Promise<void> {
  await pick(sim, 'red block');
  const t = await obj(sim, 'target');
  await move(sim, t.pos, 0);
}

async function sortByColor(sim: Simulator): Promise<void> {
  for (const color of ['red', 'blue']) {
    const area = await obj(sim, `${color} area`);
    const yaw = area.euler[2];
    for (const [i, name] of [`${color} block 1`, `${color} block 2`].entries()) {
      await pick(sim, name);
      const dx = (i === 0 ? -1 : 1) * 0.035;
      await placeAt(sim, [area.pos[0] + dx * Math.cos(yaw), area.pos[1] + dx * Math.sin(yaw), TABLE_Z + 0.0225 + 0.02], squareYaw(yaw));
    }
  }
}

async function stackCups(sim: Simulator): Promise<void> {
  // Green cup: grip its wall at the +x side (pads tangent to the rim), drop it into the red cup from above.
  const green = await obj(sim, 'green cup');
  const rMid = green.size[0] / 2 - 0.0025;
  const gTop = green.pos[2] + green.size[2] / 2;
  await pick(sim, 'green cup', { at: [green.pos[0] + rMid, green.pos[1], gTop - 0.02], yaw: Math.PI / 2, liftZ: 1.0 });
  const red = await obj(sim, 'red cup');
  const redRim = red.pos[2] + red.size[2] / 2;
  // The green cup hangs 5 cm below the tool: release with its bottom 1 cm above the red rim.
  await placeAt(sim, [red.pos[0] + rMid, red.pos[1], redRim + green.size[2] - 0.02 + 0.01], Math.PI / 2, 1.0);
  // Blue cup: narrow enough to grip from the outside.
  const blue = await obj(sim, 'blue cup');
  const bTop = blue.pos[2] + blue.size[2] / 2;
  await pick(sim, 'blue cup', { at: [blue.pos[0], blue.pos[1], bTop - 0.02], yaw: 0, liftZ: 1.0 });
  const nestedGreen = await obj(sim, 'green cup');
  await placeAt(sim, [nestedGreen.pos[0], nestedGreen.pos[1], redRim + blue.size[2] - 0.02 + 0.01], 0, 1.0);
}

export const SINGLE_ARM_SOLUTIONS: Record<string, (sim: Simulator, instruction: string) => Promise<void>> = {
  put_block: putBlock,
  empty_container: emptyContainer,
  rubbish_in_bin: rubbishInBin,
  open_drawer: openDrawer,
  push_button: pushButton,
  pick_and_lift: pickAndLift,
  sort_by_color: sortByColor,
  stack_cups: stackCups,
};

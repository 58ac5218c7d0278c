// Scripted solutions of the LM Trajectory Generators tasks added for issue 12, through the public LMTG API
// (detect_object print-outs parsed back, dense straight-line trajectories), one per task.
import assert from 'node:assert/strict';
import type { Simulator } from '../../../../../../src/core/sim/simulator.js';
import { starOutline } from '../../../../../../src/core/sim/mujoco/tasks/trajectory/drawStar.js';
import { detect, eePose, grasp, lcall, run, through, type Detected, type Pose } from './lmtgScript.js';

const TABLE_Z = 0.75;

/** Every block detect_object printed for a query. */
async function detectAll(sim: Simulator, query: string): Promise<(Detected & { label: string })[]> {
  const r = await lcall(sim, 'detect_object', [query]);
  const text = r.ok ? (r.output ?? '') : '';
  const out: (Detected & { label: string })[] = [];
  for (const block of text.split(/(?=Position of )/)) {
    const m = /Position of ([^:]+): \[([^\]]+)\]/.exec(block);
    if (!m) continue;
    const num = (re: RegExp) => Number(re.exec(block)![1]);
    out.push({
      label: m[1]!,
      pos: m[2]!.split(',').map(Number) as [number, number, number],
      width: num(/Width: (-?[\d.]+)/),
      length: num(/Length: (-?[\d.]+)/),
      height: num(/Height: (-?[\d.]+)/),
      yawWidth: num(/longer side \(width\): (-?[\d.]+)/),
      yawLength: num(/shorter side \(length\): (-?[\d.]+)/),
    });
  }
  assert.ok(out.length > 0, `detect_object(${query}) printed: ${text}`);
  return out;
}

/** `yaw` or `yaw + k*period` nearest `near`, kept inside [-pi/2 - 0.3, pi/2 + 0.3]. */
function nearestYaw(yaw: number, near: number, period = Math.PI): number {
  let best = yaw;
  for (let k = -4; k <= 4; k++) {
    const c = yaw + k * period;
    if (Math.abs(c) <= Math.PI / 2 + 0.3 && Math.abs(c - near) < Math.abs(best - near)) best = c;
  }
  return best;
}

/** Carry what is held to (x, y) at height `carryZ`, lower the tool to `z`, open, and rise. */
async function place(sim: Simulator, x: number, y: number, z: number, yaw: number, carryZ = 0.95): Promise<void> {
  const here = await eePose(sim);
  await through(sim, [
    [here[0], here[1], carryZ, here[3]],
    [x, y, carryZ, yaw],
    [x, y, z, yaw],
  ]);
  await lcall(sim, 'open_gripper', []);
  await through(sim, [[x, y, z + 0.1, yaw]]);
}

async function pickChipBag(sim: Simulator): Promise<void> {
  const can = await detect(sim, 'can');
  const bags = await detectAll(sim, 'chip bag');
  const bag = bags.find((b) => b.pos[0] > can.pos[0])!;
  await grasp(sim, bag.pos, nearestYaw(bag.yawWidth, 0), 0.9);
}

async function pickMiddleFruit(sim: Simulator): Promise<void> {
  const fruits = [await detect(sim, 'apple'), await detect(sim, 'orange'), await detect(sim, 'lemon')].sort((a, b) => a.pos[0] - b.pos[0]);
  await grasp(sim, fruits[1]!.pos, 0, 0.9);
}

/** Grasp `item` at its centre, carry it over `container` and open with its bottom `aboveRimM` over the rim. */
async function carryInto(sim: Simulator, item: string, container: string, aboveRimM: number): Promise<void> {
  const it = await detect(sim, item);
  const c = await detect(sim, container);
  await grasp(sim, it.pos, 0, 0.95);
  await place(sim, c.pos[0], c.pos[1], c.pos[2] + c.height / 2 + it.height / 2 + aboveRimM, 0);
}

const appleInBowl = (sim: Simulator) => carryInto(sim, 'apple', 'bowl', 0.01);

async function graspBowlRim(sim: Simulator): Promise<void> {
  const rim = await detect(sim, 'bowl rim');
  // The near wall (towards the robot); the fingers close along y across it.
  const r = rim.length / 2 - 0.003;
  await grasp(sim, [rim.pos[0], rim.pos[1] - r, rim.pos[2] - 0.008], 0, 0.9);
}

async function knockOverLeftBottle(sim: Simulator): Promise<void> {
  const bottles = await detectAll(sim, 'bottle');
  const b = bottles.reduce((a, c) => (a.pos[0] <= c.pos[0] ? a : c));
  await lcall(sim, 'close_gripper', []);
  const z = b.pos[2] + b.height / 2 - 0.03;
  const behind = b.pos[1] - b.width / 2 - 0.03;
  await through(sim, [
    [b.pos[0], behind, z + 0.08, 0],
    [b.pos[0], behind, z, 0],
  ]);
  await through(sim, [[b.pos[0], behind + 0.14, z, 0]], 60);
  await through(sim, [[b.pos[0], behind + 0.14, z + 0.15, 0]]);
}

async function moveLonelyObject(sim: Simulator): Promise<void> {
  const blocks = await detectAll(sim, 'block');
  const spread = (b: Detected) => blocks.reduce((s, c) => s + Math.hypot(c.pos[0] - b.pos[0], c.pos[1] - b.pos[1]), 0);
  const lonely = blocks.reduce((a, c) => (spread(a) >= spread(c) ? a : c));
  const others = blocks.filter((b) => b !== lonely);
  const cx = others.reduce((s, b) => s + b.pos[0], 0) / others.length;
  const cy = others.reduce((s, b) => s + b.pos[1], 0) / others.length;
  const dir = Math.atan2(lonely.pos[1] - cy, lonely.pos[0] - cx);
  // Fingers along the way in, so they open sideways, away from the others.
  const yaw = nearestYaw(lonely.yawWidth, nearestYaw(dir, 0), Math.PI / 2);
  await grasp(sim, lonely.pos, yaw, 0.92);
  await place(sim, cx + 0.11 * Math.cos(dir), cy + 0.11 * Math.sin(dir), TABLE_Z + lonely.height / 2 + 0.004, yaw, 0.92);
}

async function movePanLeft(sim: Simulator): Promise<void> {
  const h = await detect(sim, 'pan handle');
  const yaw = nearestYaw(h.yawWidth, 0);
  await grasp(sim, h.pos, yaw, h.pos[2] + 0.02);
  await through(sim, [[h.pos[0] - 0.15, h.pos[1], h.pos[2] + 0.02, yaw]], 100);
  await through(sim, [[h.pos[0] - 0.15, h.pos[1], h.pos[2] + 0.002, yaw]]);
  await lcall(sim, 'open_gripper', []);
  await through(sim, [[h.pos[0] - 0.15, h.pos[1], h.pos[2] + 0.1, yaw]]);
}

async function alignBottle(sim: Simulator): Promise<void> {
  const b = await detect(sim, 'bottle');
  const yaw = nearestYaw(b.yawWidth, 0);
  await grasp(sim, b.pos, yaw, b.pos[2] + 0.05);
  const target = nearestYaw(Math.PI / 2, yaw);
  await through(sim, [[b.pos[0], b.pos[1], b.pos[2] + 0.05, target]], 100);
  await through(sim, [[b.pos[0], b.pos[1], b.pos[2] + 0.003, target]]);
  await lcall(sim, 'open_gripper', []);
  await through(sim, [[b.pos[0], b.pos[1], b.pos[2] + 0.1, target]]);
}

async function drawStar(sim: Simulator, instruction: string): Promise<void> {
  const m = /centred at \[(-?[\d.]+), (-?[\d.]+)\]/.exec(instruction)!;
  const marker = await detect(sim, 'marker');
  const top = marker.pos[2] + marker.height / 2;
  // The marker's top against the palm (see drawShape): friction cannot push it up the pads.
  await grasp(sim, [marker.pos[0], marker.pos[1], top - 0.043], 0, top + 0.1);
  const drawZ = TABLE_Z + (marker.height - 0.0434) + 0.001;
  const pts = starOutline([Number(m[1]), Number(m[2])]);
  const first = pts[0]!;
  await through(sim, [
    [first[0], first[1], drawZ + 0.05, 0],
    [first[0], first[1], drawZ, 0],
  ]);
  await run(sim, [...pts.slice(1), first].map((p) => [p[0], p[1], drawZ, 0] as Pose));
  await through(sim, [[first[0], first[1], drawZ + 0.08, 0]]);
}

async function openBottleCap(sim: Simulator): Promise<void> {
  const cap = await detect(sim, 'bottle cap');
  const at: Pose = [cap.pos[0], cap.pos[1], cap.pos[2] + 0.008, -0.7];
  await through(sim, [
    [at[0], at[1], at[2] + 0.1, at[3]],
    at,
  ]);
  const r = await lcall(sim, 'close_gripper', []);
  assert.match(r.ok ? (r.output ?? '') : '', /grasped bottle cap/);
  // Unscrew: a quarter turn and a half anticlockwise in place, then lift it off.
  await through(sim, [[at[0], at[1], at[2], 0.7]], 100);
  const side = at[0] > 0 ? -0.12 : 0.12;
  await place(sim, at[0] + side, at[1], TABLE_Z + cap.height / 2 + 0.008 + 0.004, 0.7, at[2] + 0.08);
}

async function toasterSlot(sim: Simulator): Promise<void> {
  const bread = await detect(sim, 'bread');
  const slot = await detect(sim, 'toaster slot');
  const grip = 0.012;
  const yaw = nearestYaw(bread.yawWidth, 0);
  await grasp(sim, [bread.pos[0], bread.pos[1], bread.pos[2] + bread.height / 2 - grip], yaw, 0.96);
  const floor = slot.pos[2] - slot.height / 2;
  const target = nearestYaw(slot.yawWidth, yaw);
  await place(sim, slot.pos[0], slot.pos[1], floor + 0.005 + bread.height - grip, target, 0.96);
}

async function pickRightmostCan(sim: Simulator): Promise<void> {
  const cans = (await detectAll(sim, 'can')).sort((a, b) => a.pos[0] - b.pos[0]);
  assert.equal(cans.length, 3);
  const c = cans[2]!;
  await grasp(sim, [c.pos[0], c.pos[1], c.pos[2] + 0.02], 0, 0.95);
}

const dropBallIntoCup = (sim: Simulator) => carryInto(sim, 'ball', 'cup', 0.03);

async function moveBananaNearPear(sim: Simulator): Promise<void> {
  const banana = await detect(sim, 'banana');
  const pear = await detect(sim, 'pear');
  const grip = nearestYaw(banana.yawWidth, 0);
  await grasp(sim, banana.pos, grip, 0.9);
  const dx = banana.pos[0] - pear.pos[0];
  const dy = banana.pos[1] - pear.pos[1];
  const d = Math.hypot(dx, dy);
  // Put down side-on to the pear, 8 cm from its centre on the side the banana came from.
  await place(sim, pear.pos[0] + (0.08 * dx) / d, pear.pos[1] + (0.08 * dy) / d, banana.pos[2] + 0.004, nearestYaw(Math.atan2(dy, dx) + Math.PI / 2, grip), 0.9);
}

export const LMTG_TASK_SOLUTIONS: Record<string, (sim: Simulator, instruction: string) => Promise<void>> = {
  pick_chip_bag: pickChipBag,
  pick_middle_fruit: pickMiddleFruit,
  apple_in_bowl: appleInBowl,
  grasp_bowl_rim: graspBowlRim,
  knock_over_left_bottle: knockOverLeftBottle,
  move_lonely_object: moveLonelyObject,
  move_pan_left: movePanLeft,
  align_bottle: alignBottle,
  draw_star: drawStar,
  open_bottle_cap: openBottleCap,
  toaster_slot: toasterSlot,
  pick_rightmost_can: pickRightmostCan,
  drop_ball_into_cup: dropBallIntoCup,
  move_banana_near_pear: moveBananaNearPear,
};

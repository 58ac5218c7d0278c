// Scripted solutions of the trajectory suite through the LMTG API (dense poses), one per task.
import type { Simulator } from '../../../../../../src/core/sim/simulator.js';
import { outline, type ShapeName } from '../../../../../../src/core/sim/mujoco/tasks/trajectory/drawShape.js';
import { detect, eePose, grasp, lcall, line, run, through, type Pose } from './lmtgScript.js';

const TABLE_Z = 0.75;

async function drawShape(sim: Simulator, instruction: string): Promise<void> {
  const m = /Draw an? (\w+) 10 cm wide centred at \[(-?[\d.]+), (-?[\d.]+)\]/.exec(instruction)!;
  const shape = m[1] as ShapeName;
  const c: [number, number] = [Number(m[2]), Number(m[3])];
  const marker = await detect(sim, 'marker');
  const top = marker.pos[2] + marker.height / 2;
  // Grip with the marker's top against the palm (4.3 cm above the tool centre), so a friction grasp cannot let it
  // creep up the pads: the tip is then height - 0.0434 m below the tool.
  await grasp(sim, [marker.pos[0], marker.pos[1], top - 0.043], 0, top + 0.1);
  // The tip 1 mm above the table: pressing it in would make it drag.
  const drawZ = TABLE_Z + (marker.height - 0.0434) + 0.001;
  const pts = outline(shape, c);
  const first = pts[0]!;
  await through(sim, [
    [first[0], first[1], drawZ + 0.05, 0],
    [first[0], first[1], drawZ, 0],
  ]);
  await run(sim, [...pts.slice(1), first].map((p) => [p[0], p[1], drawZ, 0] as Pose));
  await through(sim, [[first[0], first[1], drawZ + 0.08, 0]]);
}

async function wipePlate(sim: Simulator): Promise<void> {
  const sponge = await detect(sim, 'sponge');
  const plate = await detect(sim, 'plate');
  await grasp(sim, [sponge.pos[0], sponge.pos[1], sponge.pos[2] + 0.008], sponge.yawWidth, 0.95);
  const plateTop = plate.pos[2] + plate.height / 2;
  // Sponge bottom 2 mm into the plate's top; the tool grips 8 mm above the sponge's centre.
  const z = plateTop + sponge.height / 2 - 0.002 + 0.008;
  const r = plate.width / 2;
  const rows = [-0.085, -0.05, -0.017, 0.017, 0.05, 0.085];
  const poses: Pose[] = [];
  rows.forEach((dy, i) => {
    const half = Math.sqrt(Math.max(0, r * r - dy * dy)) - 0.01;
    const xs = i % 2 === 0 ? [-half, half] : [half, -half];
    const a: Pose = [plate.pos[0] + xs[0]!, plate.pos[1] + dy, z, 0];
    const b: Pose = [plate.pos[0] + xs[1]!, plate.pos[1] + dy, z, 0];
    if (poses.length === 0) poses.push(a);
    else poses.push(...line(poses[poses.length - 1]!, a, 10));
    poses.push(...line(a, b, 30));
  });
  const start = poses[0]!;
  await through(sim, [
    [start[0], start[1], z + 0.06, 0],
    [start[0], start[1], z, 0],
  ]);
  await run(sim, poses);
  const end = poses[poses.length - 1]!;
  await through(sim, [[end[0], end[1], z + 0.08, 0]]);
}

async function shakeBottle(sim: Simulator): Promise<void> {
  const b = await detect(sim, 'bottle');
  const grip: [number, number, number] = [b.pos[0], b.pos[1], b.pos[2] + b.height / 2 - 0.04];
  await grasp(sim, grip, 0, 0.95);
  // Two 100-point sinusoids of 5 cm amplitude, two cycles each (the paper's shake code).
  const shake: Pose[] = [];
  for (let rep = 0; rep < 2; rep++) for (let i = 0; i < 100; i++) shake.push([grip[0], grip[1], 0.95 + 0.05 * Math.sin((2 * Math.PI * 2 * i) / 99), 0]);
  await run(sim, shake);
  await through(sim, [[grip[0], grip[1], grip[2] + 0.004, 0]]);
  await lcall(sim, 'open_gripper', []);
  await through(sim, [[grip[0], grip[1], grip[2] + 0.12, 0]]);
}

async function drawCircle(sim: Simulator, instruction: string): Promise<void> {
  const m = /with its centre at \[(-?[\d.]+),(-?[\d.]+),(-?[\d.]+)\] with the gripper closed/.exec(instruction)!;
  const [cx, cy, cz] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // The closed fingertips reach 1.2 cm below the tool centre: 3 mm above the table.
  const z = cz + 0.015;
  await lcall(sim, 'close_gripper', []);
  await through(sim, [
    [cx + 0.05, cy, z + 0.08, 0],
    [cx + 0.05, cy, z, 0],
  ]);
  await run(sim, Array.from({ length: 100 }, (_, i): Pose => [cx + 0.05 * Math.cos((2 * Math.PI * (i + 1)) / 100), cy + 0.05 * Math.sin((2 * Math.PI * (i + 1)) / 100), z, 0]));
  await through(sim, [[cx + 0.05, cy, z + 0.08, 0]]);
}

async function pushCan(sim: Simulator): Promise<void> {
  const can = await detect(sim, 'can');
  await lcall(sim, 'close_gripper', []);
  // Low on the can (pad tips 6 mm above the table) so it slides rather than tips; yaw 0 puts the pads' ends
  // (11 mm ahead of the tool) towards +x, the push's direction.
  const z = TABLE_Z + 0.02;
  const left = can.pos[0] - can.width / 2 - 0.011 - 0.02;
  await through(sim, [
    [left, can.pos[1], z + 0.1, 0],
    [left, can.pos[1], z, 0],
  ]);
  await through(sim, [[left + 0.15, can.pos[1], z, 0]], 100);
  const here = await eePose(sim);
  await through(sim, [
    [here[0] - 0.04, here[1], z, 0],
    [here[0] - 0.04, here[1], z + 0.1, 0],
  ]);
}

async function knockOverCan(sim: Simulator, instruction: string): Promise<void> {
  const name = /Knock over the (\w+ can)/.exec(instruction)![1]!;
  const can = await detect(sim, name);
  await lcall(sim, 'close_gripper', []);
  const z = can.pos[2] + can.height / 2 - 0.03;
  const behind = can.pos[1] - can.width / 2 - 0.03;
  await through(sim, [
    [can.pos[0], behind, z + 0.08, 0],
    [can.pos[0], behind, z, 0],
  ]);
  await through(sim, [[can.pos[0], behind + 0.14, z, 0]], 60);
  await through(sim, [[can.pos[0], behind + 0.14, z + 0.15, 0]]);
}

export const TRAJECTORY_SOLUTIONS: Record<string, (sim: Simulator, instruction: string) => Promise<void>> = {
  draw_shape: drawShape,
  wipe_plate: wipePlate,
  shake_bottle: shakeBottle,
  push_can: pushCan,
  knock_over_can: knockOverCan,
  draw_circle: drawCircle,
};

// Scripted (non-LLM) solutions of the MALMM tasks added for the paper's nine (meat_off_grill, close_jar,
// insert_in_peg, basketball_in_hoop, open_bottle), through
// the MALMM API. They read only the observation and the instruction, as an agent would.
import type { Simulator } from '../../../../../../src/core/sim/simulator.js';
import { obj, pick, placeAt, squareYaw } from './malmmScript.js';

const TABLE_Z = 0.75;

async function meatOffGrill(sim: Simulator, instruction: string): Promise<void> {
  const meat = /Take the (\w+) off the grill/.exec(instruction)![1]!;
  const m = await obj(sim, meat);
  await pick(sim, meat, { yaw: squareYaw(m.euler[2]) });
  const area = await obj(sim, 'serving area');
  await placeAt(sim, [area.pos[0], area.pos[1], TABLE_Z + m.size[2] / 2 + 0.02], squareYaw(area.euler[2]));
}

async function closeJar(sim: Simulator, instruction: string): Promise<void> {
  const jar = /Close the (\w+ jar) with a lid/.exec(instruction)![1]!;
  await pick(sim, 'lid', { yaw: 0 });
  const j = await obj(sim, jar);
  const lid = await obj(sim, 'lid');
  await placeAt(sim, [j.pos[0], j.pos[1], j.pos[2] + j.size[2] / 2 + lid.size[2] / 2 + 0.02], 0);
}

async function insertInPeg(sim: Simulator, instruction: string): Promise<void> {
  const peg = /Insert the square ring into the (\w+ peg)/.exec(instruction)![1]!;
  const ring = await obj(sim, 'square ring');
  await pick(sim, 'square ring', { yaw: squareYaw(ring.euler[2]) });
  const p = await obj(sim, peg);
  await placeAt(sim, [p.pos[0], p.pos[1], p.pos[2] + p.size[2] / 2 + ring.size[2] / 2 + 0.02], squareYaw(ring.euler[2]));
}

/** Carries the ball over the ring (its bottom 2 cm above the rim) and lets go: it drops through. */
async function basketballInHoop(sim: Simulator): Promise<void> {
  await pick(sim, 'basketball', { yaw: 0, liftZ: 1.08 });
  const hoop = await obj(sim, 'hoop');
  const ball = await obj(sim, 'basketball');
  await placeAt(sim, [hoop.pos[0], hoop.pos[1], hoop.pos[2] + hoop.size[2] / 2 + ball.size[2] / 2 + 0.02], 0, 1.08);
}

/** Lifts the cap straight off the neck, then sets it down 12 cm beside the bottle, toward the table's middle. */
async function openBottle(sim: Simulator): Promise<void> {
  const cap = await obj(sim, 'cap');
  await pick(sim, 'cap', { yaw: squareYaw(cap.euler[2]), liftZ: 1.06 });
  const b = await obj(sim, 'wine bottle');
  await placeAt(sim, [b.pos[0] + (b.pos[0] > 0 ? -0.12 : 0.12), b.pos[1], TABLE_Z + cap.size[2] / 2 + 0.02], squareYaw(cap.euler[2]), 1.06);
}

export const MALMM_TASK_SOLUTIONS: Record<string, (sim: Simulator, instruction: string) => Promise<void>> = {
  meat_off_grill: meatOffGrill,
  close_jar: closeJar,
  insert_in_peg: insertInPeg,
  basketball_in_hoop: basketballInHoop,
  open_bottle: openBottle,
};

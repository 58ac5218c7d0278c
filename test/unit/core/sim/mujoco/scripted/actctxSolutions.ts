// Scripted (non-LLM) plans for the table-clearing scenes through the Action Contextualization API: the kind
// of plan the paper's task planner writes, with parameters that suit each scene.
import assert from 'node:assert/strict';
import type { ApiCallResult, Simulator } from '../../../../../../src/core/sim/simulator.js';

export async function act(sim: Simulator, fn: string, ...args: unknown[]): Promise<ApiCallResult> {
  const r = await sim.call(fn, args);
  assert.equal(r.ok, true, `${fn}(${JSON.stringify(args)}): ${r.ok ? '' : r.error}`);
  return r;
}

export async function value(sim: Simulator, fn: string, ...args: unknown[]): Promise<unknown> {
  return ((await act(sim, fn, ...args)) as { value?: unknown }).value;
}

const BIN = 'large red trash can';
const SINK = 'large white sink';
const SHELF = 'storage shelf';

async function clearBin(sim: Simulator): Promise<void> {
  // A clearance of 1 cm from the table lets the fingers down around the small ball (at 2 cm the approach locked
  // 2.5 cm above the grasp pose at seed 1 and closed on its top, which a friction grasp does not hold).
  await act(sim, 'approach', 'crumpled paper ball 1', 0.5, 0.01, 'top');
  await act(sim, 'pick', 'crumpled paper ball 1', 0.5, 0.01, 'top');
  await act(sim, 'drop', BIN, 0.5, 0.02);
  // Wedged between the tuna can and the soap: only a small clearance gets the fingers in.
  await act(sim, 'approach', 'crumpled paper ball 2', 0.5, 0.005, 'top');
  await act(sim, 'pick', 'crumpled paper ball 2', 0.5, 0.005, 'top');
  assert.equal(await value(sim, 'holding'), true);
  await act(sim, 'drop', BIN, 0.5, 0.02);
}

async function clearSink(sim: Simulator): Promise<void> {
  // Approached first: the pick's fine approach does not avoid its target, and from the home pose it pushed the
  // glass 2.5 cm aside and closed on its wall, which a friction grasp does not hold.
  await act(sim, 'approach', 'empty glass', 0.5, 0.02, 'top');
  await act(sim, 'pick', 'empty glass', 0.5, 0.02, 'top');
  await act(sim, 'place', SINK, 1.0, 0.5, 0.02);
  // The full glass: slower, placed (never dropped), orientation kept. Approached first: a pick's fine approach does
  // not avoid its target, and from where the arm ends after the first place it tipped the glass over at seed 1.
  await act(sim, 'approach', 'glass with yellowish liquid', 0.3, 0.02, 'top');
  await act(sim, 'pick', 'glass with yellowish liquid', 0.3, 0.02, 'top');
  await act(sim, 'place', SINK, 1.0, 0.3, 0.02);
}

async function clearShelf(sim: Simulator): Promise<void> {
  // Under the lamp first, from the side, slowly and with small clearances (the shade leaves little room above
  // the hand); then the whole apple from the top.
  await act(sim, 'approach', 'half-eaten apple', 0.3, 0.01, 'side');
  await act(sim, 'pick', 'half-eaten apple', 0.3, 0.005, 'side');
  assert.equal(await value(sim, 'holding'), true);
  await act(sim, 'place', SHELF, 0.0, 0.3, 0.02);
  await act(sim, 'pick', 'whole apple', 0.5, 0.02, 'top');
  await act(sim, 'place', SHELF, 1.0, 0.5, 0.02);
}

export const CLEARING_SOLUTIONS: Record<string, (sim: Simulator) => Promise<void>> = {
  clear_table_bin: clearBin,
  clear_table_sink: clearSink,
  clear_table_shelf: clearShelf,
};

const EATEN = 'half-eaten apple';
const FULL = 'glass with yellowish liquid';
type Step = [fn: 'approach' | 'pick', object: string, speed: number, clearance: number, grasp: 'top' | 'side'] | ['place', location: string, orientation: number, speed: number, clearance: number] | ['drop', location: string, speed: number, clearance: number];

/** approach + pick one object with the same settings (the paper's Reply 1 pattern). */
const take = (object: string, speed: number, clearance: number, grasp: 'top' | 'side' = 'top'): Step[] => [
  ['approach', object, speed, clearance, grasp],
  ['pick', object, speed, clearance, grasp],
];
/** The full glass: slowly, upright (orientation 0.9), placed in the sink, never dropped (IV-C case b). */
const fullGlass: Step[] = [...take(FULL, 0.4, 0.02), ['place', SINK, 0.9, 0.4, 0.02]];

/**
 * Scripted plans for the paper's scenes (acScenes.ts), seed 0, with the parameters the scenes ask for: a small
 * clearance for the objects that stand next to others, the full glass slow and upright, the glass before the apple
 * it stands beside or in front of (Fig. 7), the apple under the lamp taken from the side.
 */
export const AC_SOLUTIONS: Record<string, Step[]> = {
  ac_single_whole_apple: [...take('whole apple', 0.5, 0.01), ['place', SHELF, 0.0, 0.5, 0.02]],
  ac_single_half_eaten_apple: [...take(EATEN, 0.5, 0.01), ['drop', BIN, 0.5, 0.02]],
  ac_single_empty_glass: [...take('empty glass 1', 0.5, 0.02), ['place', SINK, 0.5, 0.5, 0.02]],
  ac_single_full_glass: fullGlass,
  ac_single_paper_ball_1: [...take('crumpled paper ball 1', 0.5, 0.02), ['drop', BIN, 0.5, 0.02]],
  ac_single_paper_ball_2: [...take('crumpled paper ball 2', 0.5, 0.005), ['drop', BIN, 0.5, 0.02]],
  ac_sequential: [...fullGlass, ...take(EATEN, 0.5, 0.01), ['drop', BIN, 0.5, 0.02]],
  ac_robust_random: [...fullGlass, ...take(EATEN, 0.5, 0.02), ['drop', BIN, 0.5, 0.02]],
  ac_robust_lamp: [...fullGlass, ...take(EATEN, 0.5, 0.01, 'side'), ['drop', BIN, 0.5, 0.02]],
};

/** Seeds each plan is tested at besides 0 (the lamp scene's side grasp is the least forgiving). */
export const AC_EXTRA_SEEDS: Record<string, number[]> = { ac_robust_lamp: [1, 2] };

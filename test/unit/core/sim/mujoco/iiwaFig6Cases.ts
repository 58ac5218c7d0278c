// The four Fig. 6 cases of Action Contextualization (IV-C) and Appendix E's first plan, as plans with the checks a
// careful evaluation plan gives them (the three mandatory ones, can_grasp after an approach, holding after a pick,
// at_location after a place or drop), executed on the embedded tabletop action by action, stopping at the first
// check that disagrees, as the loop does. The tuned parameters are the paper's (Fig. 6 I); the initial ones are not
// published except for (d) (Fig. 4: a top grasp first), so each initial plan is the tuned one with the tuned
// parameter at the reference model's first guess (clearance 0.02, the middle of the prompt's "typical" range).
import type { Simulator } from '../../../../../src/core/sim/simulator.js';

export const BIN = 'large red trash can';
export const SINK = 'large white sink';
const EMPTY = 'empty glass 1';
const FULL = 'glass with yellowish liquid';
const BALL1 = 'crumpled paper ball 1';
const BALL2 = 'crumpled paper ball 2';
const EATEN = 'half-eaten apple';

export type Step = [action: 'approach' | 'pick' | 'place' | 'drop', ...args: (string | number)[]];
export interface Fig6Case {
  id: string;
  task: string;
  initial: Step[];
  tuned: Step[];
}

export const FIG6_CASES: Fig6Case[] = [
  {
    id: '(a) empty glass: side grasp, clearance 0.07',
    task: 'ac_single_empty_glass',
    initial: [['approach', EMPTY, 0.65, 0.02, 'side'], ['pick', EMPTY, 0.65, 0.02, 'side'], ['drop', BIN, 0.65, 0.075]],
    tuned: [['approach', EMPTY, 0.65, 0.07, 'side'], ['pick', EMPTY, 0.65, 0.07, 'side'], ['drop', BIN, 0.65, 0.075]],
  },
  {
    id: '(b) full glass: side grasp, clearance 0.05, placed with orientation 0.55',
    task: 'ac_single_full_glass',
    initial: [['approach', FULL, 0.7, 0.02, 'side'], ['pick', FULL, 0.7, 0.02, 'side'], ['place', SINK, 0.55, 0.4, 0.06]],
    tuned: [['approach', FULL, 0.7, 0.05, 'side'], ['pick', FULL, 0.7, 0.05, 'side'], ['place', SINK, 0.55, 0.4, 0.06]],
  },
  {
    id: '(c) paper ball 1: top grasp, clearance 0.04',
    task: 'ac_single_paper_ball_1',
    initial: [['approach', BALL1, 0.4, 0.02, 'top'], ['pick', BALL1, 0.4, 0.02, 'top'], ['drop', BIN, 0.4, 0.04]],
    tuned: [['approach', BALL1, 0.4, 0.04, 'top'], ['pick', BALL1, 0.4, 0.04, 'top'], ['drop', BIN, 0.4, 0.04]],
  },
  {
    id: '(d) paper ball 2: side grasp, clearance 0.005 (a top grasp first, Fig. 4)',
    task: 'ac_single_paper_ball_2',
    initial: [['approach', BALL2, 0.9, 0.005, 'top'], ['pick', BALL2, 0.9, 0.005, 'top'], ['drop', BIN, 0.9, 0.02]],
    tuned: [['approach', BALL2, 0.9, 0.005, 'side'], ['pick', BALL2, 0.9, 0.005, 'side'], ['drop', BIN, 0.9, 0.02]],
  },
];

/** Appendix E, Reply 1, the apple's part (the glass's steps never ran: the place failed). */
export const APP_E_FIRST_PLAN: Step[] = [['approach', EATEN, 0.5, 0.03, 'side'], ['pick', EATEN, 0.5, 0.03, 'side'], ['place', BIN, 0.2, 0.5, 0.03]];

export interface PlanOutcome {
  /** Every check as expected and the task's own check passed. */
  passed: boolean;
  /** Index of the first action whose checks disagreed (null: none did). */
  failedAt: number | null;
  /** The checks that disagreed there, as `name=observed`. */
  failedChecks: string[];
  /** What each action printed. */
  outputs: string[];
  taskDetail: string;
}

async function value(sim: Simulator, name: string, args: unknown[]): Promise<unknown> {
  const r = await sim.call(name, args);
  if (!r.ok) throw new Error(`${name}: ${r.error}`);
  return (r as { value?: unknown }).value;
}

/** Runs a plan from the task's seed-0 start, as the ActCtx loop executes it. */
export async function executePlan(sim: Simulator, task: string, steps: Step[]): Promise<PlanOutcome> {
  await sim.reset(task, 0, { api: 'actctx' });
  const outputs: string[] = [];
  let held = '';
  for (const [i, [action, ...args]] of steps.entries()) {
    const r = await sim.call(action, args);
    outputs.push(r.ok ? (r.output ?? '') : `ERR ${r.error}`);
    const expect: [string, unknown[], unknown][] = [
      ['collision_free', [], ''],
      ['timeout', [], true],
      ['check_motion_health', [], true],
    ];
    if (action === 'approach') expect.push(['can_grasp', [args[0], args[3]], true]);
    if (action === 'pick') {
      expect.push(['holding', [], true]);
      held = String(args[0]);
    }
    if (action === 'place' || action === 'drop') expect.push(['at_location', [held, args[0]], true]);
    const failedChecks: string[] = [];
    for (const [name, a, want] of expect) {
      const got = await value(sim, name, a);
      if (got !== want) failedChecks.push(`${name}=${JSON.stringify(got)}`);
    }
    if (failedChecks.length > 0) return { passed: false, failedAt: i, failedChecks, outputs, taskDetail: '' };
  }
  const c = await sim.check();
  return { passed: c.success, failedAt: null, failedChecks: [], outputs, taskDetail: c.detail ?? '' };
}

// A paper's reported numbers beside a sweep's (the sweep file's `paper:` block, examples/papers/): the schema, and
// the comparison of one cell: the paper's rate and n against this run's Wilson 95 % interval. Only numbers printed
// in a paper's text go here; a result shown only in a figure is a note, never a guessed number.
import * as z from 'zod';

/** A paper's reported result for one cell: a rate (fraction 0..1), or the rate with its n, interval and source. */
const PaperCell = z.union([
  z.number().min(0, 'a rate is a fraction from 0 to 1').max(1, 'a rate is a fraction from 0 to 1 (56% is 0.56)'),
  z
    .object({
      rate: z.number().min(0, 'a rate is a fraction from 0 to 1').max(1, 'a rate is a fraction from 0 to 1 (56% is 0.56)'),
      /** Episodes the paper ran for this cell, where it says (overrides the block's n). */
      n: z.number().int().positive().optional(),
      /** The paper's own interval, when it prints one (LLaMAR's Clopper-Pearson). */
      ci: z.tuple([z.number().min(0).max(1), z.number().min(0).max(1)]).optional(),
      /** Table or figure of this number, when it is not the block's citation. */
      source: z.string().optional(),
      note: z.string().optional(),
    })
    .strict(),
]);

/** The row key of a paper's number pooled over every task of the sweep (LLaMAR's tables average over all tasks). */
export const ALL_TASKS = 'all_tasks';

/**
 * The paper's reported numbers beside the sweep's (`paper:`): per task (or all_tasks, pooled) and column, the
 * success rate and, where the paper says, n. Only numbers printed in the paper's text; a figure-only result is a note.
 */
export const Paper = z
  .object({
    /** Who, which paper, which table or figure: "Singh et al., MALMM, Table II". */
    citation: z.string().min(1),
    /** Episodes per cell the paper ran, where it says (a cell's own n overrides it). */
    n: z.number().int().positive().optional(),
    /** What the paper's rate counts, when it is not this sweep's episode success (IV-B scores trials). */
    metric: z.string().optional(),
    /**
     * Count this run's rate as the paper does when it is not per episode: two of the architecture's metrics, summed
     * over the cell's episodes (IV-B: executionsPassed of executions, every plan execution a trial).
     */
    rateOf: z.object({ successes: z.string().min(1), of: z.string().min(1) }).strict().optional(),
    note: z.string().optional(),
    /** task (or all_tasks) -> column -> reported rate. */
    cells: z.record(z.string(), z.record(z.string(), PaperCell)).default({}),
  })
  .strict();
export type PaperBlock = z.infer<typeof Paper>;
export type PaperCellInput = z.infer<typeof PaperCell>;

/** The paper's reported number for a cell beside this run's: its rate and n, and whether our interval holds it. */
export interface PaperComparison {
  rate: number;
  /** Episodes the paper ran, where it says. */
  n?: number;
  /** The paper's own interval, where it prints one. */
  ci?: [number, number];
  /** The table or figure. */
  source: string;
  note?: string;
  /** Whether the paper's rate lies inside this run's Wilson 95 % interval; null before any episode finished. */
  inside: boolean | null;
  /** This run counted as the paper counts (the block's rateOf): units passed of units run, with the interval. */
  ours?: CountedRate;
}

/** A rate counted over units other than episodes (IV-B's trials), summed from each episode's metrics. */
export interface CountedRate {
  /** The metric that counts the units (its name is the unit's: "executions"). */
  unit: string;
  successes: number;
  n: number;
  rate: number | null;
  ci95: { low: number; high: number };
}

/** The paper's number for (task, cell) beside this run's interval. */
export function paperComparison(p: PaperBlock, task: string, cell: string, episodes: { n: number; ci95: { low: number; high: number } }, counted?: CountedRate): PaperComparison | undefined {
  const c = p.cells[task]?.[cell];
  if (c === undefined) return undefined;
  const x = typeof c === 'number' ? { rate: c } : c;
  const n = x.n ?? p.n;
  const ours = counted ?? episodes;
  // A small tolerance: a printed 0.56 against an interval computed in floating point.
  const inside = ours.n === 0 ? null : x.rate >= ours.ci95.low - 1e-9 && x.rate <= ours.ci95.high + 1e-9;
  return { rate: x.rate, ...(n !== undefined ? { n } : {}), ...(x.ci ? { ci: x.ci } : {}), source: x.source ?? p.citation, ...(x.note ? { note: x.note } : {}), inside, ...(counted ? { ours: counted } : {}) };
}

/** "this run" as the paper counts it: successes/n, rate and interval, with the unit when it is not the episode. */
export function oursText(c: { n: number; successes: number; rate: number | null; ci95: { low: number; high: number }; paper?: { ours?: CountedRate } }, sep = ' '): string {
  const o = c.paper?.ours ?? c;
  if (o.n === 0) return '–';
  const pct = (x: number) => `${Math.round(100 * x)}%`;
  return `${o.successes}/${o.n}${c.paper?.ours ? ` ${c.paper.ours.unit}` : ''}${sep}${pct(o.rate!)} [${pct(o.ci95.low)}, ${pct(o.ci95.high)}]`;
}


/**
 * The heading of "this run"'s column beside the paper's. A reference model's rates are a fixture of a scripted
 * policy: named so in every view, never presented as a reproduction of the paper.
 */
export function thisRunLabel(fixture: boolean): string {
  return fixture ? 'this run — fixture (scripted reference model, not a reproduction)' : 'this run';
}

/** Whether the paper's rate lies inside this run's interval, in words. */
export function insideText(inside: boolean | null): string {
  return inside === null ? 'no episodes yet' : inside ? 'inside' : 'outside';
}

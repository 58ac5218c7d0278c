// Statistics of a paired on/off sweep: success rate with a Wilson score interval (honest at small n and at 0 %
// or 100 %, where the normal approximation collapses to a zero-width interval), means, and the per-seed pairing.
import type { SweepComparison, SweepOutcome, SweepPair, SweepSideStats } from '../../protocol/sweep.js';
import { clopperPearson } from '../metrics/clopperPearson.js';

const Z95 = 1.959963984540054;

/** Wilson score interval for `successes` out of `n` at 95 %; n = 0 gives the uninformative [0, 1]. */
export function wilson95(successes: number, n: number): { low: number; high: number } {
  if (n <= 0) return { low: 0, high: 1 };
  if (successes < 0 || successes > n) throw new Error(`wilson95: successes ${successes} outside 0..${n}`);
  const p = successes / n;
  const z2 = Z95 * Z95;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // Clamp rounding at the ends (the exact bounds at p = 0 or 1 are 0 or 1).
  return { low: successes === 0 ? 0 : Math.max(0, centre - half), high: successes === n ? 1 : Math.min(1, centre + half) };
}

const mean = (xs: number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

export function sideStats(outcomes: SweepOutcome[], ablations: Record<string, boolean>): SweepSideStats {
  const n = outcomes.length;
  const successes = outcomes.filter((o) => o.success).length;
  return {
    ablations,
    n,
    successes,
    rate: n === 0 ? null : successes / n,
    ci95: wilson95(successes, n),
    exact95: clopperPearson(successes, n),
    meanTurns: mean(outcomes.map((o) => o.turns)),
    meanModelCalls: mean(outcomes.map((o) => o.modelCalls)),
  };
}

/** Pairs are sorted by seed; a side that did not run for a seed (cancelled sweep) is null and not counted. */
export function compareSides(pairs: SweepPair[], ablation: string): SweepComparison {
  const sorted = [...pairs].sort((a, b) => a.seed - b.seed);
  const side = (k: 'on' | 'off') => sorted.map((p) => p[k]).filter((o): o is SweepOutcome => o !== null);
  return {
    on: sideStats(side('on'), { [ablation]: true }),
    off: sideStats(side('off'), { [ablation]: false }),
    pairs: sorted,
    differing: sorted.filter((p) => p.on && p.off && p.on.success !== p.off.success).length,
  };
}

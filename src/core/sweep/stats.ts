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

// ---- tests of two proportions (exact, so they stay honest at the small n of prompt sweeps) ----

/** log(n!) by summation (n here is at most a few thousand episodes). */
const logFactorials: number[] = [0];
function logFact(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials[i] = logFactorials[i - 1]! + Math.log(i);
  return logFactorials[n]!;
}
const logChoose = (n: number, k: number) => logFact(n) - logFact(k) - logFact(n - k);

/**
 * Exact McNemar test for paired binary outcomes: of the discordant pairs, b went only A's way and c only B's. Under
 * no difference each discordant pair is a fair coin, so p = two-sided binomial(b + c, 1/2) tail at min(b, c).
 */
export function mcnemarExact(b: number, c: number): { b: number; c: number; discordant: number; p: number } {
  const n = b + c;
  if (n === 0) return { b, c, discordant: 0, p: 1 };
  const k = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return { b, c, discordant: n, p: Math.min(1, 2 * tail) };
}

/**
 * Fisher's exact test (two-sided) for unpaired outcomes: successes a of n1 against c of n2. The p-value sums the
 * hypergeometric probabilities of every table with the same margins that is no more likely than the observed one.
 */
export function fisherExact(a: number, n1: number, c: number, n2: number): number {
  const k = a + c; // successes in total
  const n = n1 + n2;
  const lo = Math.max(0, k - n2);
  const hi = Math.min(k, n1);
  const logP = (x: number) => logChoose(n1, x) + logChoose(n2, k - x) - logChoose(n, k);
  const observed = logP(a);
  let p = 0;
  // The relative tolerance treats tables equal to the observed one in floating point as equal.
  for (let x = lo; x <= hi; x++) if (logP(x) <= observed + 1e-7) p += Math.exp(logP(x));
  return Math.min(1, p);
}

export interface Spread {
  n: number;
  mean: number | null;
  /** Sample standard deviation (n - 1); null below two values. */
  sd: number | null;
  min: number | null;
  max: number | null;
}

export function spread(xs: number[]): Spread {
  const n = xs.length;
  if (n === 0) return { n, mean: null, sd: null, min: null, max: null };
  const m = xs.reduce((a, b) => a + b, 0) / n;
  const sd = n < 2 ? null : Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (n - 1));
  return { n, mean: m, sd, min: Math.min(...xs), max: Math.max(...xs) };
}

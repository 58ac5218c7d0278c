// The Clopper-Pearson ("exact") binomial interval, which LLaMAR reports for success rates: the set of p whose
// two-sided binomial test does not reject k successes in n trials at level alpha. Found by bisection on the binomial
// tail probabilities (log-space sums), exact to ~1e-12 for the n a sweep has.

function logChoose(n: number, k: number): number {
  return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1);
}

/** log Γ(x) (Lanczos, g = 7), accurate to ~1e-15 relative for x > 0. */
function lgamma(x: number): number {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lgamma(1 - x);
  x -= 1;
  let a = c[0]!;
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** P(X <= k) for X ~ Binomial(n, p). */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  let sum = 0;
  for (let i = 0; i <= k; i++) sum += Math.exp(logChoose(n, i) + i * Math.log(p) + (n - i) * Math.log1p(-p));
  return Math.min(1, sum);
}

function bisect(f: (p: number) => number, target: number, increasing: boolean): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    const v = f(mid);
    if (increasing ? v < target : v > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Clopper-Pearson interval for k successes out of n at confidence 1 - alpha (default 95 %); n = 0 gives [0, 1]. */
export function clopperPearson(k: number, n: number, alpha = 0.05): { low: number; high: number } {
  if (!Number.isInteger(k) || !Number.isInteger(n) || n < 0 || k < 0 || k > n) throw new Error(`clopperPearson: need integers 0 <= k <= n, got k=${k}, n=${n}`);
  if (n === 0) return { low: 0, high: 1 };
  // low: P(X >= k | p) = alpha/2, i.e. 1 - cdf(k-1) = alpha/2 (increasing in p); high: cdf(k) = alpha/2 (decreasing).
  const low = k === 0 ? 0 : bisect((p) => 1 - binomialCdf(k - 1, n, p), alpha / 2, true);
  const high = k === n ? 1 : bisect((p) => binomialCdf(k, n, p), alpha / 2, false);
  return { low, high };
}

/** Mean and a normal-approximation 95 % interval (mean ± 1.96 s/√n), for the paper's non-binomial metrics; `bounds`
 * clips the interval to the metric's range (a transport rate's interval never passes 1). */
export function meanInterval(xs: readonly number[], bounds: readonly [number, number] = [-Infinity, Infinity]): { mean: number; low: number; high: number; n: number } | undefined {
  const n = xs.length;
  if (n === 0) return undefined;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : 0;
  const half = 1.959963984540054 * (sd / Math.sqrt(n));
  return { mean, low: Math.max(bounds[0], mean - half), high: Math.min(bounds[1], mean + half), n };
}

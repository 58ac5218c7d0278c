// Readable value axes for Chart.js. Two things go wrong with Chart.js's defaults on recorded data: a series that is
// flat up to float noise (a yaw of 0 and -6e-9, positions rounded to 10 µm) gets an axis spanning the noise with
// labels like "-2.000000000E-9", and tick labels carry more digits than their step can tell apart. Here a nearly
// flat series gets the axis Chart.js gives an exactly flat one (its value ± 5 %, or ± 1 around 0), and each tick
// is printed with the decimals its step needs (no exponent below a million).

/** A span below this fraction of the values' magnitude (at least 1) is noise around one value: the series is flat. */
export const FLAT_RELATIVE_SPAN = 1e-6;

/** The axis range for data in [min, max]: unchanged unless the data is flat up to noise. */
export function readableRange(min: number, max: number): { min: number; max: number } {
  if (!Number.isFinite(min) || !Number.isFinite(max) || max < min) return { min, max };
  const mid = (min + max) / 2;
  if (max - min > FLAT_RELATIVE_SPAN * Math.max(1, Math.abs(mid))) return { min, max };
  // As Chart.js treats an exactly flat series; a value that is 0 up to noise is 0.
  const centre = Math.abs(mid) < FLAT_RELATIVE_SPAN ? 0 : mid;
  const pad = centre === 0 ? 1 : Math.abs(centre) * 0.05;
  return { min: centre - pad, max: centre + pad };
}

/** Decimals that print every multiple of the step exactly (0.025 needs 3), at most 6; 2 without a step. */
function stepDecimals(step: number): number {
  if (!(step > 0) || !Number.isFinite(step)) return 2;
  let d = Math.max(0, -Math.floor(Math.log10(step)));
  while (d < 6 && Math.abs(step * 10 ** d - Math.round(step * 10 ** d)) > 1e-6 * step * 10 ** d) d++;
  return Math.min(6, d);
}

/** A tick label with as many decimals as the ticks' step needs (at most 6), without an exponent. */
export function tickLabel(value: number, stepAbs: number): string {
  if (Math.abs(value) >= 1e6) return value.toExponential(2);
  const s = value.toFixed(stepDecimals(stepAbs));
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

type Tick = { value: number };

/** The ticks' usual spacing: the median gap (the axis bounds, when shown, sit closer to their neighbour). */
function typicalStep(ticks: Tick[]): number {
  const gaps = ticks.slice(1).map((t, i) => Math.abs(t.value - ticks[i]!.value)).sort((a, b) => a - b);
  return gaps.length ? gaps[Math.floor(gaps.length / 2)]! : 0;
}
type ScaleLike = { min: number; max: number; ticks: Tick[] };

/**
 * Options to spread into a linear value axis: `afterDataLimits` widens a flat series' range, the tick callback
 * prints readable labels. `ticks` extends the axis's own tick options (colour, limits).
 */
export function readableValueAxis(ticks: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    afterDataLimits: (scale: ScaleLike) => {
      const r = readableRange(scale.min, scale.max);
      scale.min = r.min;
      scale.max = r.max;
    },
    ticks: {
      ...ticks,
      callback: (value: number | string, _index: number, all: Tick[]) => tickLabel(Number(value), typicalStep(all)),
    },
  };
}

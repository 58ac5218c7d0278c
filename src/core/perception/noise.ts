// Draws shared by the two perception models (MALMM's state estimator and LMTG's object detector), so both use the
// same normal deviate and angle wrapping from one seeded stream.
import type { Rng } from '../host.js';

/** A standard normal deviate (Box-Muller) from the seeded stream. */
export function gauss(rng: Rng): number {
  const u = Math.max(rng.next(), 1e-12);
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** An angle wrapped into (-pi, pi]. */
export function wrap(a: number): number {
  return Math.atan2(Math.sin(a), Math.cos(a));
}

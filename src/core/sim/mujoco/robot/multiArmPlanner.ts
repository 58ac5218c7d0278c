// Centralized motion planning for several arms at once (RoCo's multi-arm planner): one configuration is the
// joint vector of every arm, so arm-arm collisions are part of the search. First the polyline through the seeds
// (configurations solved from the agents' waypoints) to the goal, then the straight joint line, then
// RRT-Connect over the joint space of all arms with a sampler biased toward the seeds (the mechanism by which
// waypoints "reduce the sample complexity"), shortcut afterwards. Seeded RNG: the same call plans the same path.
// A start already in collision (arms left touching, a held object pressed into something) is planned out of:
// edges leaving the start may keep the contacts it has, no deeper, until they are out of them; any other contact
// fails the edge as usual. RoCo's planner refuses such a start (CollisionAtStart), which no plan could then fix.
import { seededRng, type Rng } from '../../../host.js';
import type { SimState } from '../simState.js';
import type { ConfigChecker, ConfigCollision } from './configChecker.js';

/** Joint steps between collision checks along an edge (max over all joints of all arms). */
const CHECK_STEP_RAD = 0.05;
const EXTEND_RAD = 0.3;
const MAX_ITERATIONS = 2500;
const SHORTCUTS = 80;
/** Share of samples drawn around a seed configuration when there are seeds. */
const SEED_BIAS = 0.35;
const SEED_NOISE_RAD = 0.3;
/** Uniform samples stay within this margin around the start and goal of each joint (a box, not the whole range). */
const BOX_MARGIN_RAD = 1.2;
/** Leaving a colliding start, a contact it has may get this much deeper (the edge's sampling) but no more. */
const START_DEPTH_TOL_M = 0.002;

export interface MultiArmContext {
  checker: ConfigChecker;
  state: SimState;
  /** Joint limits per arm (every arm of the scene, in order). */
  ranges: [number, number][][];
  /** Objects each arm may touch (the one it grasps or releases). */
  allowed: Set<number>[];
}

export type MultiArmPlan =
  | {
      ok: true;
      /** Configurations of every arm, in order, from start to goal (both included). */
      knots: number[][][];
      /** 'straight': the joint line; 'waypoints': the polyline through the agents' waypoints; 'rrt': searched. */
      kind: 'straight' | 'waypoints' | 'rrt';
      iterations: number;
      /** Configurations checked for collisions (the planner's cost). */
      checks: number;
      /** Contacts the start already had; the path only moves out of them. */
      startCollisions?: ConfigCollision[];
    }
  | { ok: false; reason: string; collisions?: ConfigCollision[]; checks: number };

type Flat = number[];

class Space {
  readonly sizes: number[];
  readonly lo: number[] = [];
  readonly hi: number[] = [];
  checks = 0;
  /** The start as a flat configuration, and the contacts it has (pair -> depth): edges from it may leave them. */
  readonly start: Flat;
  startHits = new Map<string, number>();

  constructor(
    readonly ctx: MultiArmContext,
    start: number[][],
    goal: number[][],
  ) {
    this.start = flat(start);
    this.sizes = start.map((q) => q.length);
    ctx.ranges.forEach((rs, a) =>
      rs.forEach(([lo, hi], j) => {
        const s = start[a]![j]!;
        const g = goal[a]![j]!;
        this.lo.push(Math.max(lo, Math.min(s, g) - BOX_MARGIN_RAD));
        this.hi.push(Math.min(hi, Math.max(s, g) + BOX_MARGIN_RAD));
      }),
    );
  }

  split(x: Flat): number[][] {
    const out: number[][] = [];
    let k = 0;
    for (const n of this.sizes) {
      out.push(x.slice(k, k + n));
      k += n;
    }
    return out;
  }

  collisions(x: Flat): ConfigCollision[] {
    this.checks++;
    return this.ctx.checker.collisions(this.ctx.state, this.split(x), this.ctx.allowed);
  }

  /**
   * First collision along the straight line a -> b (null if free); `a` itself is not checked. From a colliding
   * start, its own contacts (no deeper) are no collision until the line is out of them; `b` must be free.
   */
  edge(a: Flat, b: Flat): ConfigCollision[] | null {
    let leaving = this.startHits.size > 0 && a === this.start;
    let last: ConfigCollision[] = [];
    const n = Math.max(1, Math.ceil(dist(a, b) / CHECK_STEP_RAD));
    for (let k = 1; k <= n; k++) {
      const c = this.collisions(lerp(a, b, k / n));
      if (c.length === 0) leaving = false;
      else if (!leaving || !c.every((h) => h.depthM <= (this.startHits.get(pairKey(h)) ?? -Infinity) + START_DEPTH_TOL_M)) return c;
      last = c;
    }
    return last.length > 0 ? last : null;
  }
}

const flat = (q: number[][]): Flat => q.flat();
const pairKey = (h: ConfigCollision) => `${h.a}\u0000${h.b}`;

function dist(a: Flat, b: Flat): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

function lerp(a: Flat, b: Flat, t: number): Flat {
  return a.map((v, i) => v + t * (b[i]! - v));
}

interface Node {
  q: Flat;
  parent: number;
}

function nearest(tree: Node[], q: Flat): number {
  let best = 0;
  let bd = Infinity;
  for (let i = 0; i < tree.length; i++) {
    const n = tree[i]!.q;
    let d = 0;
    for (let j = 0; j < q.length; j++) d += (n[j]! - q[j]!) ** 2;
    if (d < bd) {
      bd = d;
      best = i;
    }
  }
  return best;
}

function extend(space: Space, tree: Node[], q: Flat): number {
  const i = nearest(tree, q);
  const from = tree[i]!.q;
  const d = dist(from, q);
  const to = d <= EXTEND_RAD ? q : lerp(from, q, EXTEND_RAD / d);
  if (space.edge(from, to)) return -1;
  tree.push({ q: to, parent: i });
  return tree.length - 1;
}

function connect(space: Space, tree: Node[], q: Flat): { index: number; reached: boolean } {
  let last = -1;
  for (let guard = 0; guard < 200; guard++) {
    const k = extend(space, tree, q);
    if (k < 0) return { index: last, reached: false };
    last = k;
    if (dist(tree[k]!.q, q) < 1e-9) return { index: k, reached: true };
  }
  return { index: last, reached: false };
}

function branch(tree: Node[], i: number): Flat[] {
  const out: Flat[] = [];
  for (let k = i; k >= 0; k = tree[k]!.parent) out.push(tree[k]!.q);
  return out;
}

function shortcut(space: Space, path: Flat[], rng: Rng): Flat[] {
  let p = path;
  for (let it = 0; it < SHORTCUTS && p.length > 2; it++) {
    const i = Math.floor(rng.next() * (p.length - 2));
    const j = i + 2 + Math.floor(rng.next() * (p.length - i - 2));
    if (j >= p.length) continue;
    if (!space.edge(p[i]!, p[j]!)) p = [...p.slice(0, i + 1), ...p.slice(j)];
  }
  return p;
}

function sample(space: Space, seeds: Flat[], rng: Rng): Flat {
  if (seeds.length > 0 && rng.next() < SEED_BIAS) {
    const s = seeds[Math.floor(rng.next() * seeds.length)]!;
    return s.map((v, i) => Math.min(space.hi[i]!, Math.max(space.lo[i]!, v + (2 * rng.next() - 1) * SEED_NOISE_RAD)));
  }
  return space.lo.map((lo, i) => lo + rng.next() * (space.hi[i]! - lo));
}

/**
 * A collision-free path of all arms from `start` to `goal` (per arm, in scene order), through `seeds` when that
 * is free. Arms that should stay put have start = goal; the search may still move them aside and back.
 */
export function planMultiArm(ctx: MultiArmContext, start: number[][], goal: number[][], seeds: number[][][] = [], rngSeed = 1): MultiArmPlan {
  const space = new Space(ctx, start, goal);
  const s = space.start;
  const g = flat(goal);
  const atGoal = space.collisions(g);
  if (atGoal.length > 0) return { ok: false, reason: 'the goal configuration collides', collisions: atGoal, checks: space.checks };
  const atStart = space.collisions(s);
  for (const h of atStart) space.startHits.set(pairKey(h), h.depthM);
  const seedFlats = seeds.map(flat);
  const done = (knots: Flat[], kind: 'straight' | 'waypoints' | 'rrt', iterations: number): MultiArmPlan => ({ ok: true, knots: knots.map((k) => space.split(k)), kind, iterations, checks: space.checks, ...(atStart.length > 0 ? { startCollisions: atStart } : {}) });
  if (seedFlats.length > 0) {
    const poly = [s, ...seedFlats, g];
    let free = true;
    for (let i = 1; i < poly.length && free; i++) if (space.edge(poly[i - 1]!, poly[i]!)) free = false;
    if (free) return done(poly, 'waypoints', 0);
  }
  if (!space.edge(s, g)) return done([s, g], 'straight', 0);
  const rng = seededRng(rngSeed);
  const a: Node[] = [{ q: s, parent: -1 }];
  const b: Node[] = [{ q: g, parent: -1 }];
  for (let it = 1; it <= MAX_ITERATIONS; it++) {
    const [grow, other] = it % 2 === 1 ? [a, b] : [b, a];
    const k = extend(space, grow, sample(space, seedFlats, rng));
    if (k < 0) continue;
    const c = connect(space, other, grow[k]!.q);
    if (c.reached) {
      const fromStart = grow === a ? branch(a, k).reverse() : branch(a, c.index).reverse();
      const toGoal = grow === a ? branch(b, c.index) : branch(b, k);
      const path = [...fromStart, ...toGoal.slice(dist(fromStart[fromStart.length - 1]!, toGoal[0]!) < 1e-9 ? 1 : 0)];
      return done(shortcut(space, path, rng), 'rrt', it);
    }
  }
  if (atStart.length > 0) return { ok: false, reason: `the start configuration collides and no path out of it was found in ${MAX_ITERATIONS} RRT-Connect iterations`, collisions: atStart, checks: space.checks };
  return { ok: false, reason: `no collision-free joint path for all arms in ${MAX_ITERATIONS} RRT-Connect iterations`, checks: space.checks };
}

// Joint-space motion planning for one arm among static obstacles (the scene, the other arms where they are):
// first the straight joint line; if it collides, RRT-Connect (Kuffner & LaValle 2000) with a seeded RNG so a
// plan is reproducible, then shortcut smoothing. Collision checks go through ConfigChecker (scratch data).
import { seededRng, type Rng } from '../../../host.js';
import type { SimState } from '../simState.js';
import type { ConfigChecker, ConfigCollision } from './configChecker.js';

/** Joint steps between collision checks along an edge. */
const CHECK_STEP_RAD = 0.05;
const EXTEND_RAD = 0.25;
const MAX_ITERATIONS = 1500;
const SHORTCUTS = 60;

export interface PlanContext {
  checker: ConfigChecker;
  state: SimState;
  arm: number;
  ranges: [number, number][];
  /** Objects the arm may touch (e.g. the one it is about to grasp). */
  allowed: Set<number>[];
}

export type JointPlan = { ok: true; knots: number[][]; kind: 'straight' | 'rrt'; iterations: number } | { ok: false; reason: string; collisions?: ConfigCollision[] };

function collides(ctx: PlanContext, q: number[]): ConfigCollision[] {
  const qs = ctx.state.scene.arms.map((_, a) => (a === ctx.arm ? q : null));
  return ctx.checker.collisions(ctx.state, qs, ctx.allowed);
}

function dist(a: number[], b: number[]): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

function lerp(a: number[], b: number[], t: number): number[] {
  return a.map((v, i) => v + t * (b[i]! - v));
}

/** First collision along the straight joint line a -> b (null if free). */
export function edgeCollision(ctx: PlanContext, a: number[], b: number[]): ConfigCollision[] | null {
  const n = Math.max(1, Math.ceil(dist(a, b) / CHECK_STEP_RAD));
  for (let k = 1; k <= n; k++) {
    const c = collides(ctx, lerp(a, b, k / n));
    if (c.length > 0) return c;
  }
  return null;
}

interface Node {
  q: number[];
  parent: number;
}

function nearest(tree: Node[], q: number[]): number {
  let best = 0;
  let bd = Infinity;
  tree.forEach((n, i) => {
    let d = 0;
    for (let j = 0; j < q.length; j++) d += (n.q[j]! - q[j]!) ** 2;
    if (d < bd) {
      bd = d;
      best = i;
    }
  });
  return best;
}

/** Extends `tree` toward q by one step; returns the new node index, or -1 if blocked. */
function extend(ctx: PlanContext, tree: Node[], q: number[]): number {
  const i = nearest(tree, q);
  const from = tree[i]!.q;
  const d = dist(from, q);
  const to = d <= EXTEND_RAD ? q : lerp(from, q, EXTEND_RAD / d);
  if (edgeCollision(ctx, from, to)) return -1;
  tree.push({ q: to, parent: i });
  return tree.length - 1;
}

/** Extends toward q until reached or blocked; returns the last node index and whether it reached q. */
function connect(ctx: PlanContext, tree: Node[], q: number[]): { index: number; reached: boolean } {
  let last = -1;
  for (let guard = 0; guard < 200; guard++) {
    const k = extend(ctx, tree, q);
    if (k < 0) return { index: last, reached: false };
    last = k;
    if (dist(tree[k]!.q, q) < 1e-9) return { index: k, reached: true };
  }
  return { index: last, reached: false };
}

function branch(tree: Node[], i: number): number[][] {
  const out: number[][] = [];
  for (let k = i; k >= 0; k = tree[k]!.parent) out.push(tree[k]!.q);
  return out;
}

function shortcut(ctx: PlanContext, path: number[][], rng: Rng): number[][] {
  let p = path;
  for (let it = 0; it < SHORTCUTS && p.length > 2; it++) {
    const i = Math.floor(rng.next() * (p.length - 2));
    const j = i + 2 + Math.floor(rng.next() * (p.length - i - 2));
    if (j >= p.length) continue;
    if (!edgeCollision(ctx, p[i]!, p[j]!)) p = [...p.slice(0, i + 1), ...p.slice(j)];
  }
  return p;
}

/** A collision-free joint path from `start` to `goal` (both included), or why not. */
export function planJointPath(ctx: PlanContext, start: number[], goal: number[], seed = 1): JointPlan {
  const atGoal = collides(ctx, goal);
  if (atGoal.length > 0) return { ok: false, reason: 'the goal configuration collides', collisions: atGoal };
  if (!edgeCollision(ctx, start, goal)) return { ok: true, knots: [start, goal], kind: 'straight', iterations: 0 };
  const rng = seededRng(seed);
  const a: Node[] = [{ q: start, parent: -1 }];
  const b: Node[] = [{ q: goal, parent: -1 }];
  for (let it = 1; it <= MAX_ITERATIONS; it++) {
    const [grow, other] = it % 2 === 1 ? [a, b] : [b, a];
    const sample = ctx.ranges.map(([lo, hi]) => lo + rng.next() * (hi - lo));
    const k = extend(ctx, grow, sample);
    if (k < 0) continue;
    const c = connect(ctx, other, grow[k]!.q);
    if (c.reached) {
      const fromStart = grow === a ? branch(a, k).reverse() : branch(a, c.index).reverse();
      const toGoal = grow === a ? branch(b, c.index) : branch(b, k);
      const path = [...fromStart, ...toGoal.slice(dist(fromStart[fromStart.length - 1]!, toGoal[0]!) < 1e-9 ? 1 : 0)];
      return { ok: true, knots: shortcut(ctx, path, rng), kind: 'rrt', iterations: it };
    }
  }
  return { ok: false, reason: `no collision-free path found in ${MAX_ITERATIONS} RRT-Connect iterations` };
}

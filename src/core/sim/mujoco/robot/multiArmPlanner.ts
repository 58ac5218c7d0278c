// Joint-space motion planning for one or several arms at once: one configuration is the joint vector of every
// arm, so arm-arm collisions are part of the search. Two presets:
//   ROCO_BIRRT    RoCo's multi-arm planner as the authors' code runs it (MandiZhao/robot-collab:rocobench/rrt.py,
//                 rrt_multi_arm.py): the direct joint line if it is free, else a bidirectional RRT-Connect of 800
//                 iterations whose sampler first returns the agents' waypoints (IK-solved) one by one, then draws
//                 uniformly within 5% of each joint's range around the start or the goal; shortcut smoothing (200
//                 tries).
//   MALMM_PLANNER RLBench-style planning for one top-down waypoint: the straight tool line (the seeds are its
//                 knots) if it is free, else the joint line, else RRT-Connect over a box around start and goal.
// Seeded RNG: the same call plans the same path. A start already in collision (arms left touching, a held object
// pressed into something) is planned out of: edges leaving the start may keep the contacts it has, no deeper,
// until they are out of them; any other contact fails the edge as usual. RoCo's planner refuses such a start
// (CollisionAtStart), which no plan could then fix.
import { seededRng, type Rng } from '../../../host.js';
import type { GraspState, SimState } from '../simState.js';
import type { ConfigChecker, ConfigCollision } from './configChecker.js';

/** How a planner searches (see the presets below). */
export interface PlannerSettings {
  /** Named in reasons and reports. */
  name: string;
  /** Try the polyline through the seeds before anything else (MALMM: the straight tool line's knots). */
  seedPolylineFirst: boolean;
  maxIterations: number;
  /**
   * 'waypoints-then-near': each seed once, in order, then uniform within `bias` x the joint's range around the start
   * or the goal (even odds); 'box': `seedBias` of samples near a seed (+- seedNoiseRad), the rest uniform in a box of
   * +- marginRad around start and goal.
   */
  sampler: { kind: 'waypoints-then-near'; bias: number } | { kind: 'box'; seedBias: number; seedNoiseRad: number; marginRad: number };
  smoothIterations: number;
  /** Joint steps between collision checks along an edge (largest joint change). */
  checkStepRad: number;
  /** Longest step of one extension (RRT-Connect extends greedily in such steps until blocked). */
  extendRad: number;
}

/** RoCo's BiRRT with the authors' parameters (iterations 800, sampler bias 0.05, smoothing 200). */
export const ROCO_BIRRT: PlannerSettings = {
  name: 'BiRRT',
  seedPolylineFirst: false,
  maxIterations: 800,
  sampler: { kind: 'waypoints-then-near', bias: 0.05 },
  smoothIterations: 200,
  checkStepRad: 0.05,
  extendRad: 0.3,
};

/** MALMM's execute_trajectory (RLBench: a linear path first, else a sampling planner). Finer checks: one arm, short edges. */
export const MALMM_PLANNER: PlannerSettings = {
  name: 'RRT-Connect',
  seedPolylineFirst: true,
  maxIterations: 1500,
  sampler: { kind: 'box', seedBias: 0, seedNoiseRad: 0, marginRad: 1.2 },
  smoothIterations: 80,
  checkStepRad: 0.02,
  extendRad: 0.25,
};

/** Leaving a colliding start, a contact it has may get this much deeper (the edge's sampling) but no more. */
const START_DEPTH_TOL_M = 0.002;

export interface MultiArmContext {
  checker: ConfigChecker;
  state: SimState;
  /** Joint limits per arm (every arm of the scene, in order). */
  ranges: [number, number][][];
  /** Objects each arm may touch (the one it grasps or releases). */
  allowed: Set<number>[];
  /** What the arms hold during the motion, when not what they hold now (a later stage of a plan). */
  grasps?: readonly (GraspState | null)[];
  /** Objects put elsewhere for the checks (an object released earlier in the plan). */
  placed?: readonly PlacedObject[];
}

export interface PlacedObject {
  object: number;
  pos: [number, number, number];
  quat: [number, number, number, number];
}

export type MultiArmPlan =
  | {
      ok: true;
      /** Configurations of every arm, in order, from start to goal (both included). */
      knots: number[][][];
      /** 'straight': the joint line; 'waypoints': the polyline through the seeds; 'rrt': searched. */
      kind: 'straight' | 'waypoints' | 'rrt';
      iterations: number;
      /** Configurations checked for collisions (the planner's cost). */
      checks: number;
      /** Contacts the start already had; the path only moves out of them. */
      startCollisions?: ConfigCollision[];
      /** What blocked the first choice (the seed polyline or the joint line) when the search was needed. */
      blockedBy?: ConfigCollision[];
    }
  | { ok: false; reason: string; collisions?: ConfigCollision[]; checks: number };

type Flat = number[];

class Space {
  readonly sizes: number[];
  readonly lo: number[] = [];
  readonly hi: number[] = [];
  /** Each joint's whole range (the waypoints-then-near sampler scales by it). */
  readonly span: number[] = [];
  readonly limLo: number[] = [];
  readonly limHi: number[] = [];
  checks = 0;
  /** The start as a flat configuration, and the contacts it has (pair -> depth): edges from it may leave them. */
  readonly start: Flat;
  startHits = new Map<string, number>();

  constructor(
    readonly ctx: MultiArmContext,
    readonly settings: PlannerSettings,
    start: number[][],
    goal: number[][],
  ) {
    this.start = flat(start);
    this.sizes = start.map((q) => q.length);
    const margin = settings.sampler.kind === 'box' ? settings.sampler.marginRad : Infinity;
    ctx.ranges.forEach((rs, a) =>
      rs.forEach(([lo, hi], j) => {
        const s = start[a]![j]!;
        const g = goal[a]![j]!;
        this.lo.push(Math.max(lo, Math.min(s, g) - margin));
        this.hi.push(Math.min(hi, Math.max(s, g) + margin));
        this.limLo.push(lo);
        this.limHi.push(hi);
        this.span.push(hi - lo);
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
    return this.ctx.checker.collisions(this.ctx.state, this.split(x), this.ctx.allowed, this.ctx.grasps, this.ctx.placed);
  }

  /**
   * First collision along the straight line a -> b (null if free); `a` itself is not checked. From a colliding
   * start, its own contacts (no deeper) are no collision until the line is out of them; `b` must be free.
   */
  edge(a: Flat, b: Flat): ConfigCollision[] | null {
    let leaving = this.startHits.size > 0 && a === this.start;
    let last: ConfigCollision[] = [];
    const n = Math.max(1, Math.ceil(dist(a, b) / this.settings.checkStepRad));
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

/** Extends the tree's nearest node toward q in steps until q is reached or a step collides (greedy, as RoCo's code). */
function connect(space: Space, tree: Node[], q: Flat): { index: number; reached: boolean } {
  let last = nearest(tree, q);
  for (let guard = 0; guard < 400; guard++) {
    const from = tree[last]!.q;
    const d = dist(from, q);
    if (d < 1e-9) return { index: last, reached: true };
    const to = d <= space.settings.extendRad ? q : lerp(from, q, space.settings.extendRad / d);
    if (space.edge(from, to)) return { index: last, reached: false };
    tree.push({ q: to, parent: last });
    last = tree.length - 1;
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
  for (let it = 0; it < space.settings.smoothIterations && p.length > 2; it++) {
    const i = Math.floor(rng.next() * (p.length - 2));
    const j = i + 2 + Math.floor(rng.next() * (p.length - i - 2));
    if (j >= p.length) continue;
    if (!space.edge(p[i]!, p[j]!)) p = [...p.slice(0, i + 1), ...p.slice(j)];
  }
  return p;
}

/** Draws the next configuration to grow toward (see PlannerSettings.sampler). */
function sampler(space: Space, start: Flat, goal: Flat, seeds: Flat[], rng: Rng): () => Flat {
  const s = space.settings.sampler;
  let next = 0;
  if (s.kind === 'waypoints-then-near') {
    return () => {
      if (next < seeds.length) return seeds[next++]!;
      // Around the start or the goal, as RoCo's CenterWaypointsUniformSampler names it (its code adds the centre a
      // second time, which puts samples outside the joint limits; we draw around the centre).
      const c = rng.next() < 0.5 ? goal : start;
      return c.map((v, i) => {
        const centre = Math.min(space.limHi[i]!, Math.max(space.limLo[i]!, v));
        const lo = Math.max(space.limLo[i]!, centre - s.bias * space.span[i]!);
        const hi = Math.min(space.limHi[i]!, centre + s.bias * space.span[i]!);
        return lo + rng.next() * (hi - lo);
      });
    };
  }
  return () => {
    if (seeds.length > 0 && rng.next() < s.seedBias) {
      const c = seeds[Math.floor(rng.next() * seeds.length)]!;
      return c.map((v, i) => Math.min(space.hi[i]!, Math.max(space.lo[i]!, v + (2 * rng.next() - 1) * s.seedNoiseRad)));
    }
    return space.lo.map((lo, i) => lo + rng.next() * (space.hi[i]! - lo));
  };
}

/**
 * A collision-free path of all arms from `start` to `goal` (per arm, in scene order), planned as `settings` say,
 * with `seeds` the configurations of intermediate waypoints (the agents' PATH steps; MALMM: the straight tool
 * line's knots). Arms that should stay put have start = goal; the search may still move them aside and back.
 */
export function planMultiArm(ctx: MultiArmContext, start: number[][], goal: number[][], seeds: number[][][] = [], rngSeed = 1, settings: PlannerSettings = ROCO_BIRRT): MultiArmPlan {
  const space = new Space(ctx, settings, start, goal);
  const s = space.start;
  const g = flat(goal);
  const atGoal = space.collisions(g);
  if (atGoal.length > 0) return { ok: false, reason: 'the goal configuration collides', collisions: atGoal, checks: space.checks };
  const atStart = space.collisions(s);
  for (const h of atStart) space.startHits.set(pairKey(h), h.depthM);
  const seedFlats = seeds.map(flat);
  let blockedBy: ConfigCollision[] | undefined;
  const done = (knots: Flat[], kind: 'straight' | 'waypoints' | 'rrt', iterations: number): MultiArmPlan => ({
    ok: true,
    knots: knots.map((k) => space.split(k)),
    kind,
    iterations,
    checks: space.checks,
    ...(atStart.length > 0 ? { startCollisions: atStart } : {}),
    ...(blockedBy ? { blockedBy } : {}),
  });
  if (settings.seedPolylineFirst && seedFlats.length > 0) {
    const poly = [s, ...seedFlats, g];
    for (let i = 1; i < poly.length && !blockedBy; i++) blockedBy = space.edge(poly[i - 1]!, poly[i]!) ?? undefined;
    if (!blockedBy) return done(poly, 'waypoints', 0);
  }
  const direct = space.edge(s, g);
  if (!direct) return done([s, g], 'straight', 0);
  blockedBy ??= direct;
  const rng = seededRng(rngSeed);
  const draw = sampler(space, s, g, seedFlats, rng);
  let a: Node[] = [{ q: s, parent: -1 }];
  let b: Node[] = [{ q: g, parent: -1 }];
  const fromStart = (t: Node[]) => t[0]!.q === s;
  for (let it = 1; it <= settings.maxIterations; it++) {
    // Grow the smaller tree toward the sample, then the other toward where the first got (RoCo's rrt_connect).
    if (a.length > b.length) [a, b] = [b, a];
    const r1 = connect(space, a, draw());
    const r2 = connect(space, b, a[r1.index]!.q);
    if (r2.reached) {
      const [sTree, sIdx, gTree, gIdx] = fromStart(a) ? [a, r1.index, b, r2.index] : [b, r2.index, a, r1.index];
      const path = [...branch(sTree, sIdx).reverse(), ...branch(gTree, gIdx).slice(1)];
      return done(shortcut(space, path, rng), 'rrt', it);
    }
  }
  if (atStart.length > 0) return { ok: false, reason: `the start configuration collides and no path out of it was found in ${settings.maxIterations} ${settings.name} iterations`, collisions: atStart, checks: space.checks };
  return { ok: false, reason: `no collision-free joint path ${ctx.ranges.length > 1 ? 'for all arms ' : ''}in ${settings.maxIterations} ${settings.name} iterations`, collisions: blockedBy, checks: space.checks };
}

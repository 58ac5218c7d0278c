// Top-down reach-zone view model (multi-arm runs, RoCo): each robot's reachable x interval and base (from the
// observation's structured state, `state.extra.multiArm.robots`), the objects where they last were, and every
// robot's executed gripper path in the table plane. The paths follow each robot's hand body in the recorded
// samples' body poses (`scene` + `trajectory` events), so every arm is drawn, not only the first; the hand sits
// above the tool centre point, which for RoCo's top-down tools shares its x and y.
import type { TraceEvent } from '../../../protocol/trace.js';
import type { ViewEvent } from '../../../protocol/webview.js';
import { Scene3dBuilder } from './scene3d.js';

export interface ReachRobot {
  name: string;
  reachX: [number, number];
  base?: [number, number];
  /** How the task tells the robot its reach ("panel1, panel2, panel3"). */
  reach?: string;
}

export interface ReachZonesView {
  robots: ReachRobot[];
  objects: { name: string; x: number; y: number; sizeX: number; sizeY: number }[];
  /** Executed path per robot: x, y pairs in sample order (strided to at most `maxPoints`). */
  paths: { robot: string; points: [number, number][] }[];
  /** Workspace bounds to draw (the union of zones, bases, objects and paths, with a margin). */
  bounds: { x: [number, number]; y: [number, number] };
}

type Event = TraceEvent | ViewEvent;

function robotsOf(extra: unknown): ReachRobot[] | undefined {
  const robots = (extra as { multiArm?: { robots?: unknown } } | undefined)?.multiArm?.robots;
  if (!Array.isArray(robots)) return undefined;
  const out: ReachRobot[] = [];
  for (const r of robots as Record<string, unknown>[]) {
    const rx = r['reachX'];
    if (typeof r['name'] !== 'string' || !Array.isArray(rx) || rx.length !== 2) continue;
    const base = Array.isArray(r['base']) && r['base'].length >= 2 ? ([Number(r['base'][0]), Number(r['base'][1])] as [number, number]) : undefined;
    out.push({ name: r['name'], reachX: [Number(rx[0]), Number(rx[1])], ...(base ? { base } : {}), ...(typeof r['reach'] === 'string' ? { reach: r['reach'] } : {}) });
  }
  return out;
}

export class ReachZonesBuilder {
  private robots: ReachRobot[] = [];
  private objects: ReachZonesView['objects'] = [];
  private readonly scene = new Scene3dBuilder();
  version = 0;

  /** Whether the run has reach zones to draw (a multi-arm observation was seen). */
  get active(): boolean {
    return this.robots.length > 0;
  }

  add(e: Event): void {
    if (e.type === 'observation') {
      // The whole scene's observation (no agent) names every robot; an agent's own names only itself.
      const robots = robotsOf(e.state.extra);
      if (robots && (robots.length > this.robots.length || (e.agent === undefined && robots.length >= this.robots.length))) this.robots = robots;
      if (e.agent === undefined || this.objects.length === 0) this.objects = e.state.objects.map((o) => ({ name: o.name, x: o.pos[0], y: o.pos[1], sizeX: o.size[0], sizeY: o.size[1] }));
      this.version++;
      return;
    }
    if (e.type === 'scene' || e.type === 'trajectory' || e.type === 'trajectory_packed') {
      this.scene.add(e);
      this.version++;
    }
  }

  result(maxPoints = 600): ReachZonesView {
    const n = this.scene.length;
    const stride = Math.max(1, Math.ceil(n / maxPoints));
    const pose = new Float64Array(7);
    const paths = this.robots.map((r) => {
      const b = [`${r.name} hand`, `${r.name} suction cup`].map((l) => this.scene.body(l)).find((i) => i >= 0) ?? -1;
      const points: [number, number][] = [];
      if (b >= 0) {
        for (let i = 0; i < n; i += stride) if (this.scene.pose(i, b, pose)) points.push([pose[0], pose[1]]);
        if (n > 0 && (n - 1) % stride !== 0 && this.scene.pose(n - 1, b, pose)) points.push([pose[0], pose[1]]);
      }
      return { robot: r.name, points };
    });
    const xs: number[] = [];
    const ys: number[] = [];
    for (const r of this.robots) {
      xs.push(...r.reachX.filter((v) => Number.isFinite(v)));
      if (r.base) {
        xs.push(r.base[0]);
        ys.push(r.base[1]);
      }
    }
    for (const o of this.objects) {
      xs.push(o.x - o.sizeX / 2, o.x + o.sizeX / 2);
      ys.push(o.y - o.sizeY / 2, o.y + o.sizeY / 2);
    }
    for (const p of paths) for (const [x, y] of p.points) xs.push(x), ys.push(y);
    const span = (v: number[], fallback: [number, number]): [number, number] => (v.length ? [Math.min(...v) - 0.05, Math.max(...v) + 0.05] : fallback);
    return { robots: this.robots, objects: this.objects, paths, bounds: { x: span(xs, [-0.6, 0.6]), y: span(ys, [-0.4, 0.5]) } };
  }
}

export function projectReachZones(events: readonly Event[]): ReachZonesView {
  const b = new ReachZonesBuilder();
  for (const e of events) b.add(e);
  return b.result();
}

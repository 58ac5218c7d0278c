// draw_shape (LM Trajectory Generators: "draw a five-pointed star 10cm wide on the table with a pen"): take the
// marker out of its holder and draw the seeded shape (circle, square or triangle, 10 cm wide) at the seeded
// centre. A monitor records the marker tip's trace while the tip touches the table. Success: the trace covers
// >= 85% of the ideal outline and >= 80% of the trace lies on it (both within 1.5 cm).
import type { Vec3 } from '../../scene/sceneSpec.js';
import { quatRotate } from '../../math3.js';
import { cup, cylinder, tool } from '../sceneObjects.js';
import { find, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, TABLE_TOP_Z, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition, TaskMonitor, TaskView } from '../taskDefinition.js';

const SHAPES = ['circle', 'square', 'triangle'] as const;
export type ShapeName = (typeof SHAPES)[number];
const WIDTH_M = 0.1;
export const TOL_M = 0.015;
/** The tip counts as drawing within this of the table top (a felt tip leaves a mark when it touches). */
const CONTACT_M = 0.003;
export const MARKER_H = 0.14;

/** Points along the outline of a shape `width` wide centred at c (every ~5 mm). */
export function outline(shape: ShapeName, c: [number, number], width = WIDTH_M): [number, number][] {
  const r = width / 2;
  const corners =
    shape === 'square'
      ? [[-r, -r], [r, -r], [r, r], [-r, r]]
      : shape === 'triangle'
        ? [0, 1, 2].map((k) => [r * Math.cos(Math.PI / 2 + (2 * Math.PI * k) / 3), r * Math.sin(Math.PI / 2 + (2 * Math.PI * k) / 3)])
        : null;
  const pts: [number, number][] = [];
  if (!corners) {
    for (let k = 0; k < 64; k++) pts.push([c[0] + r * Math.cos((2 * Math.PI * k) / 64), c[1] + r * Math.sin((2 * Math.PI * k) / 64)]);
    return pts;
  }
  for (let i = 0; i < corners.length; i++) {
    const a = corners[i]!;
    const b = corners[(i + 1) % corners.length]!;
    const n = Math.ceil(Math.hypot(b[0]! - a[0]!, b[1]! - a[1]!) / 0.005);
    for (let k = 0; k < n; k++) pts.push([c[0] + a[0]! + ((b[0]! - a[0]!) * k) / n, c[1] + a[1]! + ((b[1]! - a[1]!) * k) / n]);
  }
  return pts;
}

export function markerTip(view: TaskView): Vec3 {
  const m = find(view, 'marker');
  const down = quatRotate(m.quat, [0, 0, -MARKER_H / 2]);
  return [m.pos[0] + down[0], m.pos[1] + down[1], m.pos[2] + down[2]];
}

export function traceMonitor(): TaskMonitor {
  let trace: [number, number][] = [];
  return {
    sample(view) {
      const tip = markerTip(view);
      if (tip[2] - view.tableTopZ > CONTACT_M) return;
      const last = trace[trace.length - 1];
      if (!last || Math.hypot(tip[0] - last[0], tip[1] - last[1]) >= 0.003) trace.push([Math.round(tip[0] * 1e4) / 1e4, Math.round(tip[1] * 1e4) / 1e4]);
    },
    state: () => ({ trace }),
    load(s) {
      trace = ((s as { trace?: [number, number][] }).trace ?? []).map((p) => [p[0], p[1]]);
    },
  };
}

export function drawShapeTask(): TaskDefinition {
  const holder = { ...cup('pen holder', 'grey', 0.03, 0.06, 1, 0.006), mount: { kind: 'fixed' as const } };
  const marker = tool(cylinder('marker', 'black', 0.009, MARKER_H, 0.03));
  const objects = [holder, marker];
  return {
    info: {
      id: 'draw_shape',
      description: 'Take a marker out of its holder and draw a 10 cm circle, square or triangle at a given point on the table (tip trace scored).',
      instruction: 'Draw a circle 10 cm wide centred at [0.0, 0.15] on the table with the marker.',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: draw a star with the pen',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg', 'malmm'],
    scene: singleArmScene('draw-shape', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const side = l.pick([-1, 1]);
      const xy: [number, number] = [side * l.uniform(0.18, 0.24), l.uniform(0.0, 0.1)];
      l.at(holder, xy);
      // The marker stands in the holder, its tip on the holder's floor.
      l.at(marker, xy, 0, { z: TABLE_TOP_Z + 0.006 + MARKER_H / 2 });
      return l.placements(objects);
    },
    goal(rng) {
      const shape = SHAPES[Math.floor(rng.next() * SHAPES.length)]!;
      const c: [number, number] = [Math.round((rng.next() * 0.16 - 0.08) * 100) / 100, Math.round((0.14 + rng.next() * 0.1) * 100) / 100];
      return { instruction: `Draw a ${shape} 10 cm wide centred at [${c[0].toFixed(2)}, ${c[1].toFixed(2)}] on the table with the marker.`, params: { shape, center: c } };
    },
    monitor: traceMonitor,
    check(view) {
      const shape = (view.goal?.params['shape'] ?? 'circle') as ShapeName;
      const c = (view.goal?.params['center'] ?? [0, 0.15]) as [number, number];
      const trace = ((view.monitor as { trace?: [number, number][] } | undefined)?.trace ?? []) as [number, number][];
      const ideal = outline(shape, c);
      const near = (p: [number, number], set: [number, number][]) => set.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) <= TOL_M);
      const coverage = trace.length === 0 ? 0 : ideal.filter((p) => near(p, trace)).length / ideal.length;
      const precision = trace.length === 0 ? 0 : trace.filter((p) => near(p, ideal)).length / trace.length;
      const problems: string[] = [];
      if (trace.length === 0) problems.push('the marker never touched the table');
      else {
        if (coverage < 0.85) problems.push(`the trace covers ${(coverage * 100).toFixed(0)}% of the ${shape} (needs 85%)`);
        if (precision < 0.8) problems.push(`${((1 - precision) * 100).toFixed(0)}% of the trace is off the ${shape} (at most 20%)`);
      }
      return verdict('draw_shape', problems, `drew the ${shape}: ${(coverage * 100).toFixed(0)}% of the outline covered, ${(precision * 100).toFixed(0)}% of the ${trace.length}-point trace on it`);
    },
  };
}

// draw_star (LM Trajectory Generators: "draw a five-pointed star 10cm wide on the table with a pen"): take the
// marker out of its holder and draw a pentagram (points on a 10 cm circle, joined 1-3-5-2-4-1 as in the paper's
// Appendix F) at a seeded centre. The marker tip's trace is recorded as in draw_shape. Success: the trace covers
// >= 85% of the star's outline and >= 80% of the trace lies on it (both within 1.5 cm).
import { cup, cylinder, tool } from '../sceneObjects.js';
import { verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, TABLE_TOP_Z, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { MARKER_H, TOL_M, traceMonitor } from './drawShape.js';

/** The star's five points, the first pointing away from the robot (+y). */
export function starPoints(c: [number, number], width = 0.1): [number, number][] {
  return [0, 1, 2, 3, 4].map((k) => [c[0] + (width / 2) * Math.cos(Math.PI / 2 + (2 * Math.PI * k) / 5), c[1] + (width / 2) * Math.sin(Math.PI / 2 + (2 * Math.PI * k) / 5)]);
}

/** Points every ~5 mm along the pentagram's five strokes. */
export function starOutline(c: [number, number], width = 0.1): [number, number][] {
  const p = starPoints(c, width);
  const order = [0, 2, 4, 1, 3, 0];
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < order.length; i++) {
    const a = p[order[i]!]!;
    const b = p[order[i + 1]!]!;
    const n = Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / 0.005);
    for (let k = 0; k < n; k++) out.push([a[0] + ((b[0] - a[0]) * k) / n, a[1] + ((b[1] - a[1]) * k) / n]);
  }
  return out;
}

export function drawStarTask(): TaskDefinition {
  const holder = { ...cup('pen holder', 'grey', 0.03, 0.06, 1, 0.006), mount: { kind: 'fixed' as const } };
  const marker = tool(cylinder('marker', 'black', 0.009, MARKER_H, 0.03));
  const objects = [holder, marker];
  return {
    info: {
      id: 'draw_star',
      description: 'Take a marker out of its holder and draw a five-pointed star 10 cm wide at a given point (tip trace scored).',
      instruction: 'Draw a five-pointed star 10 cm wide centred at [0.00, 0.15] on the table with the marker.',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: draw a five-pointed star 10cm wide on the table with a pen',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg'],
    scene: singleArmScene('draw-star', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      const side = l.pick([-1, 1]);
      const xy: [number, number] = [side * l.uniform(0.18, 0.24), l.uniform(0.0, 0.1)];
      l.at(holder, xy);
      l.at(marker, xy, 0, { z: TABLE_TOP_Z + 0.006 + MARKER_H / 2 });
      return l.placements(objects);
    },
    goal(rng) {
      const c: [number, number] = [Math.round((rng.next() * 0.12 - 0.06) * 100) / 100, Math.round((0.15 + rng.next() * 0.08) * 100) / 100];
      return { instruction: `Draw a five-pointed star 10 cm wide centred at [${c[0].toFixed(2)}, ${c[1].toFixed(2)}] on the table with the marker.`, params: { center: c } };
    },
    monitor: traceMonitor,
    check(view) {
      const c = (view.goal?.params['center'] ?? [0, 0.15]) as [number, number];
      const trace = ((view.monitor as { trace?: [number, number][] } | undefined)?.trace ?? []) as [number, number][];
      const ideal = starOutline(c);
      const near = (p: [number, number], set: [number, number][]) => set.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) <= TOL_M);
      const coverage = trace.length === 0 ? 0 : ideal.filter((p) => near(p, trace)).length / ideal.length;
      const precision = trace.length === 0 ? 0 : trace.filter((p) => near(p, ideal)).length / trace.length;
      const problems: string[] = [];
      if (trace.length === 0) problems.push('the marker never touched the table');
      else {
        if (coverage < 0.85) problems.push(`the trace covers ${(coverage * 100).toFixed(0)}% of the star (needs 85%)`);
        if (precision < 0.8) problems.push(`${((1 - precision) * 100).toFixed(0)}% of the trace is off the star (at most 20%)`);
      }
      return verdict('draw_star', problems, `drew the star: ${(coverage * 100).toFixed(0)}% of the outline covered, ${(precision * 100).toFixed(0)}% of the ${trace.length}-point trace on it`);
    },
  };
}

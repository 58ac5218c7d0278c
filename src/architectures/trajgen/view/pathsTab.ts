// Paths tab (runs calling LM Trajectory Generators' API): every execute_trajectory's generated poses (dashed, the
// code's list as sent) against the end-effector path the arm really took while it ran (solid), one colour per step
// in order, in a 3D view (orthographic, seen from the front right and above) and top-down; gripper calls as rings
// (open) and dots (close) where the arm was. The step list gives each step's point count and how far the arm
// strayed from its poses; clicking a step selects its turn. View model: ./trajgenPaths.ts.
import type { PathStep, TrajgenPaths, Vec3 } from './trajgenPaths.js';
import { clear, h } from '../../../../webview/common/dom.js';
import { s, stepColor } from './svg.js';

const AZ = (-35 * Math.PI) / 180;
const EL = (30 * Math.PI) / 180;

type Project = (p: readonly number[]) => [number, number];

function oblique(p: readonly number[]): [number, number] {
  const x = p[0]!;
  const y = p[1]!;
  const z = p[2]!;
  return [Math.cos(AZ) * x - Math.sin(AZ) * y, -(Math.sin(EL) * (Math.sin(AZ) * x + Math.cos(AZ) * y) + Math.cos(EL) * z)];
}

function topDown(p: readonly number[]): [number, number] {
  return [p[0]!, -p[1]!];
}

/** Fits projected points into a width x height box with a margin; returns the mapping. */
function fit(points: [number, number][], width: number, height: number, margin = 24): (q: [number, number]) => [number, number] {
  const xs = points.map((q) => q[0]);
  const ys = points.map((q) => q[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const k = Math.min((width - 2 * margin) / Math.max(x1 - x0, 1e-6), (height - 2 * margin) / Math.max(y1 - y0, 1e-6));
  const ox = margin + (width - 2 * margin - k * (x1 - x0)) / 2;
  const oy = margin + (height - 2 * margin - k * (y1 - y0)) / 2;
  return (q) => [ox + k * (q[0] - x0), oy + k * (q[1] - y0)];
}

/** The 8 corners of a detected box (bottom face first), and its 12 edges as corner index pairs. */
function boxCorners(b: { pos: readonly number[]; size: readonly number[]; yawRad: number }): Vec3[] {
  const c = Math.cos(b.yawRad);
  const sn = Math.sin(b.yawRad);
  const [w, l, hh] = [b.size[0]! / 2, b.size[1]! / 2, b.size[2]! / 2];
  const out: Vec3[] = [];
  for (const dz of [-hh, hh]) for (const [dx, dy] of [[-w, -l], [w, -l], [w, l], [-w, l]] as const) out.push([b.pos[0]! + c * dx - sn * dy, b.pos[1]! + sn * dx + c * dy, b.pos[2]! + dz]);
  return out;
}
const EDGES = [[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4], [0, 4], [1, 5], [2, 6], [3, 7]];

const TABLE: Vec3[] = [[-0.3, -0.05, 0.75], [0.3, -0.05, 0.75], [0.3, 0.35, 0.75], [-0.3, 0.35, 0.75]];

export class PathsTab {
  readonly root = h('div', { class: 'lmtg-paths' });
  private drawnVersion = -1;
  private readonly views = h('div', { class: 'lmtg-views' });
  private readonly list = h('ol', { class: 'lmtg-steps' });

  constructor(private readonly onSelectTurn: (turn: number) => void) {
    this.root.append(
      h('p', { class: 'lmtg-note' }, 'Generated poses (dashed) against the executed end-effector path (solid), one colour per execute_trajectory step in order; ○ open_gripper, ● close_gripper; grey boxes: the objects as detected (true boxes).'),
      this.views,
      this.list,
    );
  }

  update(v: TrajgenPaths, version: number): void {
    if (version === this.drawnVersion) return;
    this.drawnVersion = version;
    clear(this.views);
    clear(this.list);
    this.views.append(this.panel('3D', v, oblique, 560, 420), this.panel('top-down (x right, y away)', v, topDown, 420, 420));
    const n = v.steps.length;
    for (const st of v.steps) {
      const link = h('a', { href: '#', 'data-turn': String(st.turn) }, `turn ${st.turn}`);
      link.addEventListener('click', (e) => {
        e.preventDefault();
        this.onSelectTurn(st.turn);
      });
      this.list.append(
        h('li', { class: 'lmtg-step', 'data-step': String(st.step) },
          h('span', { class: 'lmtg-swatch', style: `background:${stepColor(st.step - 1, n)}` }),
          `step ${st.step}: ${st.poses.length} poses, ${st.executed.length} executed samples, strayed ≤ ${(st.maxDeviationM * 1000).toFixed(1)} mm · `,
          link),
      );
    }
  }

  private panel(title: string, v: TrajgenPaths, project: Project, width: number, height: number): HTMLElement {
    const all: [number, number][] = [...TABLE.map(project), ...v.steps.flatMap((st) => [...st.poses.map(project), ...st.executed.map(project)]), ...v.detections.flatMap((d) => boxCorners(d.truth).map(project))];
    const map = fit(all, width, height);
    const pt = (p: readonly number[]) => map(project(p));
    const line = (pts: readonly (readonly number[])[]) => pts.map((p) => pt(p).map((c) => c.toFixed(1)).join(',')).join(' ');
    const svg = s('svg', { width, height, viewBox: `0 0 ${width} ${height}`, class: 'lmtg-svg', role: 'img', 'aria-label': `${title}: generated and executed paths` });
    svg.append(s('polygon', { points: line([...TABLE]), class: 'lmtg-table' }));
    // The detected objects where they truly were (the latest box per label).
    const boxes = new Map(v.detections.map((d) => [d.label, d.truth]));
    for (const [label, b] of boxes) {
      const k = boxCorners(b);
      const g = s('g', { class: 'lmtg-box', 'data-label': label });
      for (const [a, c] of EDGES) g.append(s('line', { x1: pt(k[a!]!)[0], y1: pt(k[a!]!)[1], x2: pt(k[c!]!)[0], y2: pt(k[c!]!)[1] }));
      const [lx, ly] = pt(k[6]!);
      g.append(s('text', { x: lx + 3, y: ly - 3, class: 'lmtg-label lmtg-box-label' }, label));
      svg.append(g);
    }
    const n = v.steps.length;
    v.steps.forEach((st: PathStep, i) => {
      const color = stepColor(i, n);
      svg.append(s('polyline', { points: line(st.poses), fill: 'none', stroke: color, 'stroke-width': 1.5, 'stroke-dasharray': '4 3', class: 'lmtg-generated', 'data-step': st.step }));
      if (st.executed.length > 1) svg.append(s('polyline', { points: line(st.executed), fill: 'none', stroke: color, 'stroke-width': 2.5, 'stroke-opacity': 0.75, class: 'lmtg-executed', 'data-step': st.step }));
      const [x, y] = pt(st.poses[st.poses.length - 1]!);
      svg.append(s('text', { x: x + 4, y: y - 4, class: 'lmtg-label', fill: color }, String(st.step)));
    });
    for (const g of v.gripper) {
      if (!g.at) continue;
      const [x, y] = pt(g.at);
      svg.append(s('circle', { cx: x, cy: y, r: 5, class: g.fn === 'close_gripper' ? 'lmtg-close' : 'lmtg-open' }, s('title', {}, `${g.fn} (turn ${g.turn})`)));
    }
    return h('figure', { class: 'lmtg-figure' }, h('figcaption', null, title), svg as unknown as HTMLElement);
  }
}

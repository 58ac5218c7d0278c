// Detections tab (runs calling LM Trajectory Generators' detect_object): every box detect_object printed (the
// estimate) beside the ground truth: centres, sizes, yaw, the errors and a failed part segmentation (whole object,
// wrong extent, neighbouring region), and top-down the truth (solid) under the estimate (dashed). With ground-truth
// perception the two coincide and the tab says so. View model: ./trajgenPaths.ts.
import type { DetectionRow, TrajgenPaths } from './trajgenPaths.js';
import { clear, h } from '../../../../webview/common/dom.js';
import { s, stepColor } from './svg.js';

const v3 = (p: readonly number[]) => `[${p.map((x) => x.toFixed(3)).join(', ')}]`;

function corners(b: DetectionRow['truth']): [number, number][] {
  const c = Math.cos(b.yawRad);
  const sn = Math.sin(b.yawRad);
  const [w, l] = [b.size[0] / 2, b.size[1] / 2];
  return ([[-w, -l], [w, -l], [w, l], [-w, l]] as [number, number][]).map(([x, y]) => [b.pos[0] + c * x - sn * y, b.pos[1] + sn * x + c * y]);
}

export class DetectionsTab {
  readonly root = h('div', { class: 'lmtg-detections' });
  private drawnVersion = -1;

  constructor(private readonly onSelectTurn: (turn: number) => void) {}

  update(v: TrajgenPaths, version: number): void {
    if (version === this.drawnVersion) return;
    this.drawnVersion = version;
    clear(this.root);
    this.root.append(
      h('p', { class: 'lmtg-note' }, v.estimated
        ? 'detect_object printed the detector model\'s estimates (perception: estimated); the truth is what the simulator knew.'
        : 'detect_object printed the ground truth (perception: ground-truth); estimate and truth coincide.'),
      this.table(v.detections),
      this.plot(v.detections),
    );
  }

  private table(rows: DetectionRow[]): HTMLElement {
    const body = rows.map((d) => {
      const link = h('a', { href: '#' }, String(d.turn));
      link.addEventListener('click', (e) => {
        e.preventDefault();
        this.onSelectTurn(d.turn);
      });
      return h('tr', { class: d.failure ? 'lmtg-failed' : '', 'data-call': String(d.call) },
        h('td', null, String(d.call)), h('td', null, link), h('td', null, d.query), h('td', null, d.label),
        h('td', null, v3(d.truth.pos)), h('td', null, v3(d.estimate.pos)),
        h('td', null, `${v3(d.truth.size)} → ${v3(d.estimate.size)}`),
        h('td', null, (d.centreErrM * 1000).toFixed(1)), h('td', null, (d.sizeErrM * 1000).toFixed(1)), h('td', null, ((d.yawErrRad * 180) / Math.PI).toFixed(1)),
        h('td', null, d.failure ? d.failure.replace('_', ' ') : '–'));
    });
    return h('table', { class: 'lmtg-table-rows' },
      h('thead', null, h('tr', null, ...['call', 'turn', 'query', 'label', 'true centre', 'printed centre', 'size (true → printed)', 'centre err mm', 'size err mm', 'yaw err °', 'part failure'].map((t) => h('th', null, t)))),
      h('tbody', null, body));
  }

  private plot(rows: DetectionRow[]): HTMLElement {
    const W = 520;
    const H = 420;
    const pts = rows.flatMap((d) => [...corners(d.truth), ...corners(d.estimate)]);
    if (pts.length === 0) return h('p', { class: 'plots-empty' }, 'No detect_object call in this run.');
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    // Room on the right for the labels.
    const k = Math.min((W - 180) / Math.max(x1 - x0, 0.02), (H - 40) / Math.max(y1 - y0, 0.02));
    const map = (p: [number, number]) => [20 + k * (p[0] - x0), H - 20 - k * (p[1] - y0)].map((c) => c.toFixed(1)).join(',');
    const svg = s('svg', { width: W, height: H, viewBox: `0 0 ${W} ${H}`, class: 'lmtg-svg', role: 'img', 'aria-label': 'detections top-down: truth solid, printed dashed' });
    rows.forEach((d, i) => {
      const color = stepColor(i, rows.length);
      svg.append(s('polygon', { points: corners(d.truth).map(map).join(' '), fill: 'none', stroke: color, 'stroke-width': 2, class: 'lmtg-truth' }));
      svg.append(s('polygon', { points: corners(d.estimate).map(map).join(' '), fill: 'none', stroke: color, 'stroke-width': 1.5, 'stroke-dasharray': '5 3', class: 'lmtg-estimate' }));
      const [tx, ty] = map(corners(d.estimate)[2]!).split(',').map(Number) as [number, number];
      svg.append(s('text', { x: tx + 3, y: ty - 3, fill: color, class: 'lmtg-label' }, `${d.call}: ${d.label}${d.failure ? ` (${d.failure.replace('_', ' ')})` : ''}`));
    });
    return h('figure', { class: 'lmtg-figure' }, h('figcaption', null, 'top-down: truth solid, printed dashed'), svg as unknown as HTMLElement);
  }
}

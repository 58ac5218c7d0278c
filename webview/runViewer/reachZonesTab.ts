// "Reach" tab (multi-arm runs): a top-down plot of the table with each robot's reach zone (its x interval, shaded
// in the robot's colour), its base, the objects where they last were, and every robot's executed gripper path. An
// SVG drawn from the ReachZonesBuilder projection (src/core/trace/projections/reachZones.ts).
import type { ReachZonesView } from '../../src/core/trace/projections/reachZones.js';
import { h } from '../common/dom.js';

const NS = 'http://www.w3.org/2000/svg';
/** Robot colours in speaking order (Alice, Bob, Chad, Dave), distinguishable in light and dark themes. */
const COLOURS = ['#3b82f6', '#f97316', '#10b981', '#a855f7'];

function svg(tag: string, attrs: Record<string, string | number>, ...children: Node[]): SVGElement {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(c);
  return el;
}

export function renderReachZones(v: ReachZonesView): HTMLElement {
  if (v.robots.length === 0) return h('p', { class: 'muted' }, 'This run has no reach zones (not a multi-arm run).');
  const W = 640;
  const [x0, x1] = v.bounds.x;
  const [y0, y1] = v.bounds.y;
  const scale = W / (x1 - x0);
  const H = Math.max(120, Math.round((y1 - y0) * scale));
  // World x to the right, world y up (the far side of the table at the top).
  const px = (x: number) => (Math.max(x0, Math.min(x1, x)) - x0) * scale;
  const py = (y: number) => H - (y - y0) * scale;
  const parts: Node[] = [];
  v.robots.forEach((r, k) => {
    const c = COLOURS[k % COLOURS.length]!;
    const [lo, hi] = r.reachX;
    const zone = svg('rect', { x: px(lo), y: 0, width: Math.max(1, px(hi) - px(lo)), height: H, fill: c, 'fill-opacity': 0.1, stroke: c, 'stroke-opacity': 0.5, 'stroke-dasharray': '4 3', class: 'reach-zone', 'data-robot': r.name });
    zone.appendChild(svg('title', {}, document.createTextNode(`${r.name} reaches x from ${lo.toFixed(2)} to ${hi.toFixed(2)}${r.reach ? ` (${r.reach})` : ''}`)));
    parts.push(zone);
  });
  for (const o of v.objects) {
    const w = Math.max(3, o.sizeX * scale);
    const hh = Math.max(3, o.sizeY * scale);
    const rect = svg('rect', { x: px(o.x) - w / 2, y: py(o.y) - hh / 2, width: w, height: hh, class: 'reach-object', fill: 'var(--vscode-foreground, #888)', 'fill-opacity': 0.25, stroke: 'var(--vscode-foreground, #888)', 'stroke-width': 0.8 });
    rect.appendChild(svg('title', {}, document.createTextNode(`${o.name} at (${o.x.toFixed(2)}, ${o.y.toFixed(2)})`)));
    parts.push(rect, svg('text', { x: px(o.x), y: py(o.y) - hh / 2 - 2, 'text-anchor': 'middle', 'font-size': 9, fill: 'var(--vscode-descriptionForeground, #888)' }, document.createTextNode(o.name)));
  }
  v.paths.forEach((p, k) => {
    const c = COLOURS[k % COLOURS.length]!;
    if (p.points.length > 1) parts.push(svg('polyline', { points: p.points.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' '), fill: 'none', stroke: c, 'stroke-width': 1.6, class: 'reach-path', 'data-robot': p.robot }));
  });
  v.robots.forEach((r, k) => {
    if (!r.base) return;
    const c = COLOURS[k % COLOURS.length]!;
    parts.push(svg('circle', { cx: px(r.base[0]), cy: py(r.base[1]), r: 6, fill: c, class: 'reach-base', 'data-robot': r.name }), svg('text', { x: px(r.base[0]) + 9, y: py(r.base[1]) + 4, 'font-size': 11, fill: c }, document.createTextNode(r.name)));
  });
  const plot = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': 'Top-down view: reach zones, objects and executed gripper paths' }, ...parts);
  const legend = h('div', { class: 'reach-legend' },
    ...v.robots.map((r, k) => h('div', { class: 'reach-key' }, h('span', { class: 'swatch', style: `display: inline-block; width: 10px; height: 10px; margin-right: 6px; background: ${COLOURS[k % COLOURS.length]}` }), `${r.name}: reach x ${r.reachX[0].toFixed(2)}…${r.reachX[1].toFixed(2)}${r.reach ? ` (${r.reach})` : ''}; path ${v.paths[k]?.points.length ? 'drawn' : 'none recorded'}`)));
  return h('div', { class: 'reach-pane' }, h('p', { class: 'muted' }, 'Top down (x to the right, y away from the near edge). Shaded bands: where each robot may pick and place; lines: each robot\'s executed gripper path (its hand); boxes: objects where they last were.'), legend, plot as unknown as HTMLElement);
}

export class ReachZonesTab {
  readonly root = h('div', { class: 'reach-tab' });
  update(v: ReachZonesView): void {
    this.root.replaceChildren(renderReachZones(v));
  }
}

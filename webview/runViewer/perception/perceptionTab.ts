// Perception tab (runs with --perception estimated): what the agents saw against what was there. Above, the run's
// error figures and one line per object (mean and worst centre error, yaw error, drop-outs by cause, jitter-filter
// keeps). A slider picks an observation; the table top-down shows each object's true footprint (filled) and the
// estimate the agents got (dashed outline, joined to the truth by a line), dropped objects crossed out; below, the
// numbers of that observation. Clicking "turn N" selects the turn in the timeline.
import type { PerceivedObservation, PerceptionView } from '../../../src/core/trace/projections/perception.js';
import { clear, h } from '../../common/dom.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Colour names with a swatch in perception.css (the tabletop's palette); others take a palette colour by index. */
const KNOWN_COLOURS = new Set(['red', 'green', 'blue', 'yellow', 'orange', 'purple', 'white', 'grey', 'black', 'brown', 'pink', 'cyan']);

function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, ...children: (SVGElement | string)[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

const mm = (m: number | undefined): string => (m === undefined ? '–' : `${(m * 1000).toFixed(1)} mm`);
const deg = (r: number | undefined): string => (r === undefined ? '–' : `${((r * 180) / Math.PI).toFixed(1)}°`);
const xyz = (p: readonly number[] | undefined): string => (p ? `[${p.map((v) => v.toFixed(3)).join(', ')}]` : '–');

/** What the tab drew (a test hook reads it). */
export interface PerceptionTabData {
  observations: number;
  index: number;
  turn?: number;
  objects: { name: string; dropped?: string; kept?: boolean; centreErrMm?: number }[];
}

export class PerceptionTab {
  readonly root = h('div', { class: 'pc-pane' });
  private view: PerceptionView | undefined;
  private index = -1;
  private followLast = true;
  private drawn: PerceptionTabData | undefined;

  constructor(private readonly onSelectTurn: (turn: number) => void) {}

  data(): PerceptionTabData | undefined {
    return this.drawn;
  }

  update(view: PerceptionView): void {
    this.view = view;
    const n = view.observations.length;
    if (this.followLast || this.index >= n) this.index = n - 1;
    this.draw();
  }

  private draw(): void {
    const v = this.view!;
    clear(this.root);
    const o = v.overall;
    if (v.observations.length === 0) {
      this.root.append(h('p', { class: 'muted' }, v.mode === 'estimated' ? 'No observation with an estimate yet.' : 'This run saw the ground truth (perception mode ground-truth): there is no estimate to compare.'));
      this.drawn = { observations: 0, index: -1, objects: [] };
      return;
    }
    const dropped = o.droppedOccluded + o.droppedMissed;
    this.root.append(
      h('p', null,
        h('strong', null, 'Perception: estimated. '),
        `${o.observations} observation${o.observations === 1 ? '' : 's'} · centre error mean ${mm(o.meanCentreErrM)}, worst ${mm(o.maxCentreErrM)} · yaw error mean ${deg(o.meanYawErrRad)} · `,
        `${dropped} drop-out${dropped === 1 ? '' : 's'} (${o.droppedOccluded} occluded, ${o.droppedMissed} missed) · ${o.kept} kept by the jitter filter`),
      h('p', { class: 'muted' }, 'The agents saw the estimate; the success check and the 3D replay use the truth. Noise model: docs/malmm.md, "Perception mode".'),
      this.objectTable(v),
      this.controls(v),
    );
    const obs = v.observations[this.index]!;
    this.root.append(h('div', { class: 'pc-svg' }, this.topDown(obs)), this.observationTable(obs));
    this.drawn = {
      observations: v.observations.length,
      index: this.index,
      turn: obs.turn,
      objects: obs.objects.map((x) => ({ name: x.name, ...(x.dropped ? { dropped: x.dropped } : {}), ...(x.kept ? { kept: true } : {}), ...(x.centreErrM !== undefined ? { centreErrMm: Math.round(x.centreErrM * 10000) / 10 } : {}) })),
    };
  }

  private objectTable(v: PerceptionView): HTMLElement {
    const head = h('tr', null, ['object', 'seen', 'dropped (occluded / missed)', 'kept', 'centre error mean', 'worst', 'yaw error mean'].map((x) => h('th', null, x)));
    const rows = v.objects.map((x) =>
      h('tr', null,
        h('td', null, x.name),
        h('td', null, `${x.seen}/${x.observations}`),
        h('td', { class: x.droppedOccluded + x.droppedMissed > 0 ? 'pc-warn' : '' }, `${x.droppedOccluded} / ${x.droppedMissed}`),
        h('td', null, String(x.kept)),
        h('td', null, mm(x.meanCentreErrM)),
        h('td', null, mm(x.maxCentreErrM)),
        h('td', null, deg(x.meanYawErrRad))));
    return h('table', { class: 'pc-table' }, h('thead', null, head), h('tbody', null, rows));
  }

  private controls(v: PerceptionView): HTMLElement {
    const n = v.observations.length;
    const obs = v.observations[this.index]!;
    const slider = h('input', { type: 'range', min: 0, max: n - 1, value: this.index, class: 'pc-slider', 'aria-label': 'Observation' }) as HTMLInputElement;
    slider.addEventListener('input', () => {
      this.index = Number(slider.value);
      this.followLast = this.index === n - 1;
      this.draw();
    });
    const turn = h('a', { href: '#', class: 'pc-turn' }, `turn ${obs.turn}`);
    turn.addEventListener('click', (e) => {
      e.preventDefault();
      this.onSelectTurn(obs.turn);
    });
    return h('div', { class: 'pc-controls' },
      h('span', null, `observation ${this.index + 1} of ${n} · `), turn, obs.agent ? h('span', null, ` · ${obs.agent}`) : null,
      slider,
      h('span', { class: 'pc-legend muted' }, 'filled: truth · dashed: estimate · ✕: dropped'));
  }

  /** The table top-down around the objects: truth footprints filled, estimates dashed, dropped objects crossed. */
  private topDown(obs: PerceivedObservation): SVGSVGElement {
    // Bounds: every footprint (truth and estimate) with room for the labels.
    const boxes = obs.objects.flatMap((x) => [x.truth, ...(x.estimate ? [x.estimate] : [])]).map((b) => ({ p: b.pos, r: Math.hypot(b.size[0], b.size[1]) / 2 }));
    const pad = 0.03;
    const x0 = Math.min(...boxes.map((b) => b.p[0] - b.r)) - pad;
    const x1 = Math.max(...boxes.map((b) => b.p[0] + b.r)) + pad;
    const y0 = Math.min(...boxes.map((b) => b.p[1] - b.r)) - pad;
    const y1 = Math.max(...boxes.map((b) => b.p[1] + b.r)) + pad * 2;
    const W = 600;
    const scale = W / Math.max(x1 - x0, y1 - y0);
    const H = Math.round((y1 - y0) * scale);
    const width = Math.round((x1 - x0) * scale);
    // World y grows away from the robot: up on the page.
    const px = (p: readonly number[]) => [(p[0]! - x0) * scale, (y1 - p[1]!) * scale] as const;
    const svg = s('svg', { viewBox: `0 0 ${width} ${H}`, class: 'pc-map', role: 'img', 'aria-label': `Estimate against truth at turn ${obs.turn}` });
    const box = (p: readonly number[], size: readonly number[], yaw: number, cls: string) => {
      const [cx, cy] = px(p);
      return s('rect', { x: cx - (size[0]! * scale) / 2, y: cy - (size[1]! * scale) / 2, width: size[0]! * scale, height: size[1]! * scale, class: cls, transform: `rotate(${(-yaw * 180) / Math.PI} ${cx} ${cy})` });
    };
    // Lower tops first, so a block on a target area is drawn over it (colours still follow the scene's order).
    const order = obs.objects.map((x, i) => ({ x, i })).sort((a, b) => a.x.truth.pos[2] + a.x.truth.size[2] / 2 - (b.x.truth.pos[2] + b.x.truth.size[2] / 2));
    order.forEach(({ x, i }) => {
      const g = s('g', { class: `pc-object ${KNOWN_COLOURS.has(x.color) ? `pc-col-${x.color}` : `pc-c${i % 8}`}` }, s('title', {}, `${x.name}: ${x.dropped ? `dropped (${x.dropped})` : `error ${mm(x.centreErrM)}, yaw ${deg(x.yawErrRad)}${x.kept ? ', kept by the jitter filter' : ''}`}`));
      g.append(box(x.truth.pos, x.truth.size, x.truth.yawRad, 'pc-truth'));
      const [tx, ty] = px(x.truth.pos);
      if (x.estimate) {
        const [ex, ey] = px(x.estimate.pos);
        g.append(box(x.estimate.pos, x.estimate.size, x.estimate.yawRad, `pc-estimate${x.kept ? ' kept' : ''}`), s('line', { x1: tx, y1: ty, x2: ex, y2: ey, class: 'pc-error' }));
      } else {
        const r = 7;
        g.append(s('path', { d: `M${tx - r} ${ty - r}L${tx + r} ${ty + r}M${tx + r} ${ty - r}L${tx - r} ${ty + r}`, class: 'pc-dropped' }));
      }
      g.append(s('text', { x: tx, y: ty - (x.truth.size[1] * scale) / 2 - 4, class: 'pc-label' }, x.name));
      svg.append(g);
    });
    return svg;
  }

  private observationTable(obs: PerceivedObservation): HTMLElement {
    const head = h('tr', null, ['object', 'truth centre', 'estimate centre', 'centre error', 'yaw error', 'size error', 'note'].map((x) => h('th', null, x)));
    const rows = obs.objects.map((x) =>
      h('tr', { class: x.dropped ? 'pc-dropped-row' : '' },
        h('td', null, x.name),
        h('td', null, xyz(x.truth.pos)),
        h('td', null, xyz(x.estimate?.pos)),
        h('td', null, mm(x.centreErrM)),
        h('td', null, deg(x.yawErrRad)),
        h('td', null, mm(x.sizeErrM)),
        h('td', null, x.dropped ? `dropped: ${x.dropped === 'occluded' ? 'hidden behind a nearer object' : 'missed'}` : x.kept ? 'kept the previous estimate (jitter filter)' : '')));
    return h('table', { class: 'pc-table' }, h('thead', null, head), h('tbody', null, rows));
  }
}

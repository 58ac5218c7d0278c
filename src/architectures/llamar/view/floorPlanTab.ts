// Floor plan tab (LLaMAR runs): the house top-down from the trace's floor plan, rooms, furniture and fixtures,
// the small objects as they are at the chosen step (filled: the team has seen it and knows its label; hollow and
// dashed: no robot has seen it yet), each robot where it stands with its heading, the cells it walked in that step
// (bold) and before (faint). A slider picks the step; below, what each robot did in it.
import type { HouseholdAgentStep, HouseholdObjectView, HouseholdRunView } from './householdSteps.js';
import { clear, h } from '../../../../webview/common/dom.js';
import { typeColor } from './colors.js';

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 10;

function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, ...children: (SVGElement | string)[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

const CLASS_OF: Record<string, string> = { '#': 'fp-wall', '.': 'fp-floor', D: 'fp-door', O: 'fp-structure' };

export interface FloorPlanData {
  step: number;
  cells: number;
  objects: number;
  unseenObjects: number;
  agents: { name: string; cell?: [number, number]; pathCells: number }[];
}

export class FloorPlanTab {
  readonly root = h('div', { class: 'fp-pane' });
  private view: HouseholdRunView | undefined;
  private step = -1;
  private followLast = true;
  private drawn: FloorPlanData | undefined;
  private readonly svgHost = h('div', { class: 'fp-svg' });
  private readonly controls = h('div', { class: 'fp-controls' });
  private readonly side = h('div', { class: 'fp-side' });

  constructor(private readonly onSelectTurn: (turn: number) => void) {
    this.root.append(this.controls, this.svgHost, this.side);
  }

  update(view: HouseholdRunView): void {
    this.view = view;
    const last = view.steps.length > 0 ? view.steps[view.steps.length - 1]!.step : 0;
    if (this.followLast || this.step < 0) this.step = last;
    this.render();
  }

  /** Shows step `n` (0: the scene at reset). */
  showStep(n: number): void {
    const last = this.view?.steps.at(-1)?.step ?? 0;
    this.step = Math.max(0, Math.min(last, n));
    this.followLast = this.step === last;
    this.render();
  }

  data(): FloorPlanData | undefined {
    return this.drawn;
  }

  private render(): void {
    const v = this.view;
    if (!v?.plan) {
      clear(this.svgHost);
      this.svgHost.append(h('p', { class: 'muted' }, 'No floor plan in this trace (it is shown for household runs, such as LLaMAR).'));
      return;
    }
    const last = v.steps.at(-1)?.step ?? 0;
    const cur = this.step === 0 ? undefined : v.steps.find((x) => x.step === this.step);
    const agents: HouseholdAgentStep[] = cur?.agents.length ? cur.agents : (v.initial?.agents ?? []);
    const objects: HouseholdObjectView[] = cur?.objects.length ? cur.objects : (v.initial?.objects ?? []);

    // Controls: slider and buttons.
    clear(this.controls);
    const slider = h('input', { type: 'range', min: 0, max: last, value: this.step, class: 'fp-slider', 'aria-label': 'Step' }) as HTMLInputElement;
    slider.addEventListener('input', () => this.showStep(Number(slider.value)));
    this.controls.append(
      h('vscode-button', { secondary: true, onclick: () => this.showStep(this.step - 1), 'aria-label': 'Previous step' }, '◀'),
      slider,
      h('vscode-button', { secondary: true, onclick: () => this.showStep(this.step + 1), 'aria-label': 'Next step' }, '▶'),
      h('span', { class: 'fp-step-label' }, this.step === 0 ? `start (before step 1) · ${last} steps` : `step ${this.step} of ${last}${v.maxSteps ? ` (cap ${v.maxSteps})` : ''}`),
      h('span', { class: 'fp-legend' }, ...v.agents.map((a, i) => h('span', { class: `fp-key fp-agent-${i}` }, `● ${a}`)), h('span', { class: 'muted' }, ' · ● seen by the team  ○ not seen yet')),
    );

    const rows = v.plan.rows;
    const W = (rows[0]?.length ?? 0) * CELL;
    const H = rows.length * CELL;
    const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'fp-map', role: 'img', 'aria-label': `Floor plan ${v.plan.label}` });
    // Cells.
    let cells = 0;
    rows.forEach((row, r) => {
      [...row].forEach((ch, c) => {
        const type = v.plan!.legend[ch] ?? '';
        const cls = CLASS_OF[ch] ?? 'fp-furniture';
        const rect = s('rect', { x: c * CELL, y: r * CELL, width: CELL, height: CELL, class: cls });
        if (cls === 'fp-furniture') rect.setAttribute('fill', typeColor(type, 0.35));
        svg.append(rect);
        cells++;
      });
    });
    // Rooms.
    for (const room of v.plan.rooms) {
      const [r0, c0, r1, c1] = room.rect;
      svg.append(s('text', { x: ((c0 + c1 + 1) / 2) * CELL, y: ((r0 + r1 + 1) / 2) * CELL, class: 'fp-room' }, room.name));
    }
    // Furniture and fixture labels (the team's label once seen).
    const byName = new Map(objects.map((o) => [o.name, o]));
    for (const o of objects.filter((x) => x.fixed)) {
      const [r, c] = o.cells[0] ?? [0, 0];
      if (o.cells.length === 1) svg.append(s('rect', { x: c * CELL + 2, y: r * CELL + 2, width: CELL - 4, height: CELL - 4, class: `fp-fixture${o.label ? '' : ' unseen'}`, fill: typeColor(o.type, 0.8) }, s('title', {}, describe(o, byName))));
      const text = s('text', { x: c * CELL + 1, y: r * CELL + 7, class: `fp-label${o.label ? '' : ' unseen'}` }, o.label ?? o.type);
      text.append(s('title', {}, describe(o, byName)));
      if (o.cells.length > 1) svg.append(text);
    }
    // Small objects: several in a cell spread out.
    const perCell = new Map<string, number>();
    let unseen = 0;
    let drawnObjects = 0;
    for (const o of objects.filter((x) => !x.fixed)) {
      if (v.agents.includes(o.parent)) continue; // held: drawn with its robot
      const cell = o.cells[0];
      if (!cell) continue;
      const k = `${cell[0]},${cell[1]}`;
      const i = perCell.get(k) ?? 0;
      perCell.set(k, i + 1);
      const dx = [0.5, 0.25, 0.75, 0.25, 0.75][i % 5]!;
      const dy = [0.5, 0.25, 0.75, 0.75, 0.25][i % 5]!;
      const seen = o.label !== null;
      if (!seen) unseen++;
      drawnObjects++;
      svg.append(
        s('circle', { cx: (cell[1] + dx) * CELL, cy: (cell[0] + dy) * CELL, r: 2.1, class: seen ? 'fp-object' : 'fp-object unseen', fill: seen ? typeColor(o.type, 0.95) : 'none', stroke: typeColor(o.type, 0.95) }, s('title', {}, describe(o, byName))),
      );
    }
    // Paths: earlier steps faint, this step bold; then the robots.
    const agentIndex = (name: string) => v.agents.indexOf(name);
    const line = (cellsOf: [number, number][], cls: string, i: number) => {
      if (cellsOf.length < 2) return;
      svg.append(s('polyline', { points: cellsOf.map(([r, c]) => `${(c + 0.5) * CELL},${(r + 0.5) * CELL}`).join(' '), class: `${cls} fp-agent-${i}` }));
    };
    for (const st of v.steps) {
      if (st.step >= this.step) break;
      for (const a of st.agents) line(a.path, 'fp-path-old', agentIndex(a.name));
    }
    const drawnAgents: FloorPlanData['agents'] = [];
    for (const a of agents) {
      const i = agentIndex(a.name);
      if (cur) line(a.path, 'fp-path', i);
      drawnAgents.push({ name: a.name, cell: a.cell, pathCells: cur ? a.path.length : 0 });
      if (!a.cell) continue;
      const [r, c] = a.cell;
      const cx = (c + 0.5) * CELL;
      const cy = (r + 0.5) * CELL;
      const rot = { north: 0, east: 90, south: 180, west: 270 }[a.heading] ?? 0;
      const g = s('g', { class: `fp-robot fp-agent-${i}` });
      g.append(
        s('polygon', { points: `${cx},${cy - CELL * 0.9} ${cx - 3},${cy - 3} ${cx + 3},${cy - 3}`, transform: `rotate(${rot} ${cx} ${cy})`, class: 'fp-heading' }),
        s('circle', { cx, cy, r: CELL * 0.42, class: 'fp-robot-body' }),
        s('text', { x: cx, y: cy + 2.6, class: 'fp-robot-letter' }, a.name[0] ?? '?'),
        s('title', {}, `${a.name}: cell (${r}, ${c}) facing ${a.heading}${a.holding ? `, holding ${a.holding}` : ''}`),
      );
      if (a.holding) g.append(s('text', { x: cx + CELL * 0.55, y: cy - CELL * 0.35, class: 'fp-held' }, a.holding));
      svg.append(g);
    }
    clear(this.svgHost);
    this.svgHost.append(svg);
    this.drawn = { step: this.step, cells, objects: drawnObjects, unseenObjects: unseen, agents: drawnAgents };

    // What each robot did in this step.
    clear(this.side);
    if (!cur) {
      this.side.append(h('p', { class: 'muted' }, `The scene at reset: ${objects.filter((o) => !o.fixed).length} small objects, ${objects.filter((o) => o.label !== null).length} objects seen by the robots.`));
      return;
    }
    const known = objects.filter((o) => o.label !== null).length;
    this.side.append(
      h('p', null, `Step ${cur.step}: the robots know ${known} of ${objects.length} objects. `, cur.turn !== undefined ? h('a', { href: '#', onclick: (e: Event) => { e.preventDefault(); this.onSelectTurn(cur.turn!); } }, `→ turn ${cur.turn}`) : null),
      h('table', { class: 'fp-actions' },
        h('tbody', null, cur.agents.map((a) =>
          h('tr', { class: a.ok === false ? 'failed' : '' },
            h('th', { class: `fp-agent-${agentIndex(a.name)}` }, a.name),
            h('td', null, a.action ?? '–', a.said && a.said !== a.action ? h('span', { class: 'muted' }, ` (wrote "${a.said}")`) : null),
            h('td', null, a.ok === undefined ? '' : a.ok ? '✓' : '✗'),
            h('td', null, a.feedback ?? '', a.detail ? h('div', { class: 'muted' }, a.detail) : null, a.correction ? h('div', { class: 'fp-correction' }, `Corrector: ${a.correction}`) : null))))),
    );
  }
}

function describe(o: HouseholdObjectView, byName: Map<string, HouseholdObjectView>): string {
  const parent = byName.get(o.parent);
  const where = o.parent === 'Floor' ? 'on the floor' : parent ? `in/on ${parent.label ?? parent.type}` : o.fixed ? '' : `held by ${o.parent}`;
  const name = o.label ?? `${o.type} (not seen yet)`;
  return [name, where, o.states.join(', '), o.seenBy.length ? `seen by ${o.seenBy.join(', ')}` : 'no robot has seen it', o.room ? `room: ${o.room}` : '', `id ${o.name}`].filter(Boolean).join(' · ');
}

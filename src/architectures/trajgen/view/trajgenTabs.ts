// LM Trajectory Generators' tabs: "Poses" plots every pose the model sent to execute_trajectory, per axis (x, y,
// z, yaw) against the pose index, with the gripper state each pose ran under and a mark where each list began
// (click one to select its turn); "Detector" shows each success-detector verdict beside the object tracks it read
// (position per axis and yaw per sample) and its answer. Both draw from ./trajgenViews.ts.
import { Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import type { DetectorVerdictView, PoseSeries } from './trajgenViews.js';
import { readableValueAxis } from '../../../../webview/common/chartAxis.js';
import { clear, h } from '../../../../webview/common/dom.js';
import './trajgen.css';

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip, Legend);

const COLORS = ['#3b82f6', '#ef4444', '#10b981', '#f59e0b', '#8b5cf6', '#ec4899'];

function lineChart(canvas: HTMLCanvasElement, title: string, series: { label: string; data: { x: number; y: number }[]; stepped?: boolean }[], xLabel: string, y: Record<string, unknown> = readableValueAxis()): Chart {
  return new Chart(canvas, {
    type: 'line',
    data: {
      datasets: series.map((s, i) => ({ label: s.label, data: s.data, borderColor: COLORS[i % COLORS.length], backgroundColor: COLORS[i % COLORS.length], pointRadius: 0, borderWidth: 1.5, stepped: s.stepped ?? false })),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      plugins: { legend: { display: series.length > 1 }, title: { display: false } },
      scales: { x: { type: 'linear', title: { display: true, text: xLabel } }, y: { type: 'linear', title: { display: true, text: title }, ...y } },
    },
  });
}

/** Per-axis plots of the generated poses with the gripper state. */
export class PosesTab {
  readonly root = h('div', { class: 'tg-pane' });
  private charts: Chart[] = [];
  private drawnCount = -1;

  constructor(private readonly onSelectTurn: (turn: number) => void) {}

  update(s: PoseSeries): void {
    if (s.x.length === this.drawnCount) return;
    this.drawnCount = s.x.length;
    for (const c of this.charts) c.destroy();
    this.charts = [];
    clear(this.root);
    if (s.x.length === 0) {
      this.root.append(h('p', { class: 'muted' }, 'No execute_trajectory call yet.'));
      return;
    }
    const segs = h(
      'p',
      { class: 'tg-segments' },
      `${s.x.length} poses in ${s.segments.length} lists: `,
      s.segments.map((g) => h('button', { class: 'tg-seg', title: `turn ${g.turn}: poses ${g.start}-${g.start + g.count - 1}`, onclick: () => this.onSelectTurn(g.turn) }, `#${g.call} (${g.count})`)),
    );
    this.root.append(segs);
    const axes: [string, number[]][] = [['x (m)', s.x], ['y (m)', s.y], ['z (m)', s.z], ['yaw (rad)', s.yaw]];
    for (const [label, values] of axes) {
      const canvas = h('canvas', { 'data-axis': label.split(' ')[0]! }) as HTMLCanvasElement;
      this.root.append(h('div', { class: 'tg-chart' }, canvas));
      this.charts.push(lineChart(canvas, label, [{ label, data: values.map((y, x) => ({ x, y })) }], 'pose index'));
    }
    const canvas = h('canvas', { 'data-axis': 'gripper' }) as HTMLCanvasElement;
    this.root.append(h('div', { class: 'tg-chart tg-gripper' }, canvas));
    // Two states, labelled as such (a 0-1 number axis said neither, and its title did not fit).
    const states = {
      min: -0.15, max: 1.15,
      afterBuildTicks: (scale: { ticks: { value: number }[] }) => void (scale.ticks = [{ value: 0 }, { value: 1 }]),
      ticks: { callback: (v: number | string) => (Number(v) === 1 ? 'open' : 'closed') },
    };
    this.charts.push(lineChart(canvas, 'gripper', [{ label: 'gripper', data: s.gripper.map((y, x) => ({ x, y })), stepped: true }], 'pose index', states));
  }
}

/** Each success-detector verdict beside the tracks it read. */
export class DetectorTab {
  readonly root = h('div', { class: 'tg-pane' });
  private charts: Chart[] = [];
  private drawn = -1;

  constructor(private readonly onSelectTurn: (turn: number) => void) {}

  update(verdicts: DetectorVerdictView[]): void {
    if (verdicts.length === this.drawn) return;
    this.drawn = verdicts.length;
    for (const c of this.charts) c.destroy();
    this.charts = [];
    clear(this.root);
    if (verdicts.length === 0) {
      this.root.append(h('p', { class: 'muted' }, 'The success detector has not been asked yet (it runs after the model calls task_completed()).'));
      return;
    }
    for (const v of verdicts) {
      const card = h(
        'section',
        { class: `tg-verdict ${v.ok ? 'tg-ok' : 'tg-fail'}` },
        h('h3', null, h('button', { class: 'tg-seg', onclick: () => this.onSelectTurn(v.turn) }, `turn ${v.turn}`), ` Attempt ${v.attempt}: `, h('span', { class: 'tg-badge' }, v.verdict === 'completed' ? 'task_completed()' : v.verdict === 'failed' ? 'task_failed()' : 'unreadable')),
        v.answer ? h('pre', { class: 'tg-answer' }, v.answer) : null,
      );
      const grid = h('div', { class: 'tg-tracks' });
      for (const t of v.tracks) {
        const canvas = h('canvas', null) as HTMLCanvasElement;
        grid.append(h('div', { class: 'tg-chart' }, h('div', { class: 'tg-track-title' }, `${t.query}${t.query !== t.object ? ` (${t.object})` : ''}: ${t.pos.length} samples`), canvas));
        const axis = (k: number) => t.pos.map((p, i) => ({ x: t.tSecs[i] ?? i, y: p[k]! }));
        this.charts.push(
          lineChart(canvas, 'm / rad', [
            { label: 'x', data: axis(0) },
            { label: 'y', data: axis(1) },
            { label: 'z', data: axis(2) },
            { label: 'yaw', data: t.yaw.map((y, i) => ({ x: t.tSecs[i] ?? i, y })) },
          ], 't (s)'),
        );
      }
      if (v.tracks.length === 0) grid.append(h('p', { class: 'muted' }, 'No track was given to the detector.'));
      card.append(grid);
      this.root.append(card);
    }
  }
}

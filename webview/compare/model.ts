// What the comparison view shows, computed from a sweep file alone (pure, tested without a DOM).
import type { SweepFile, SweepOutcome, SweepSideStats } from '../../src/protocol/sweep.js';

export interface SideRow {
  side: 'on' | 'off';
  successes: string;
  rate: string;
  meanTurns: string;
  meanCalls: string;
}

export interface MatrixCell {
  label: string;
  title: string;
  tracePath?: string;
  state: 'success' | 'failure' | 'missing';
}

export interface MatrixRow {
  seed: number;
  on: MatrixCell;
  off: MatrixCell;
  differs: boolean;
}

const pct = (x: number) => `${Math.round(100 * x)}%`;
const fixed = (x: number | null) => (x === null ? '–' : x.toFixed(1));

export function sideRow(side: 'on' | 'off', s: SweepSideStats): SideRow {
  return {
    side,
    successes: `${s.successes}/${s.n}`,
    rate: s.rate === null ? '–' : `${pct(s.rate)} [${pct(s.ci95.low)}, ${pct(s.ci95.high)}]`,
    meanTurns: fixed(s.meanTurns),
    meanCalls: fixed(s.meanModelCalls),
  };
}

function cell(o: SweepOutcome | null): MatrixCell {
  if (!o) return { label: '·', title: 'not run (sweep cancelled)', state: 'missing' };
  return {
    label: o.success ? '✓' : '✗',
    title: `${o.reason} · ${o.turns} turns · ${o.modelCalls} model calls${o.message ? ` · ${o.message}` : ''}${o.tracePath ? ' · click to open the run' : ''}`,
    tracePath: o.tracePath || undefined,
    state: o.success ? 'success' : 'failure',
  };
}

export function compareView(f: SweepFile): { title: string; subtitle: string; sides: SideRow[]; matrix: MatrixRow[]; summary: string } {
  const c = f.comparison;
  return {
    title: `${f.ablation}: on vs off`,
    subtitle: `${f.arch} · ${f.task} · variant ${f.variant} · ${f.seeds.length} seeds · ${f.model.label}${f.status === 'cancelled' ? ' · cancelled' : ''}`,
    sides: [sideRow('on', c.on), sideRow('off', c.off)],
    matrix: c.pairs.map((p) => ({ seed: p.seed, on: cell(p.on), off: cell(p.off), differs: Boolean(p.on && p.off && p.on.success !== p.off.success) })),
    summary: `Outcome differs on ${c.differing} of ${c.pairs.length} seeds.`,
  };
}

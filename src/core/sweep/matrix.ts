// The sweep matrix: a pure projection of episode records (rows tasks, columns variants). Each cell has its success
// rate with a Wilson 95 % interval, mean and spread of the counters, the architecture's own metrics, and a test
// against the baseline column: exact McNemar on the seeds both ran (paired, with the discordant pairs), Fisher's
// exact on all episodes (unpaired). Recomputable at any time from the records, which are recomputable from traces.
import type { FailureLabel } from './failureLabels.js';
import type { EpisodeRecord } from './record.js';
import { REFERENCE_PROFILES, referenceLabel, type ReferenceProfile } from '../llm/reference/policy.js';
import { fisherExact, mcnemarExact, spread, wilson95, type Spread } from './stats.js';
import { ALL_TASKS, insideText, oursText, paperComparison, thisRunLabel, type CountedRate, type PaperBlock, type PaperComparison } from './paper.js';

export interface MatrixCell {
  task: string;
  cell: string;
  n: number;
  successes: number;
  rate: number | null;
  ci95: { low: number; high: number };
  turns: Spread;
  modelCalls: Spread;
  tokens: Spread;
  cost: Spread;
  latencyMs: Spread;
  steps: Spread;
  archMetrics: Record<string, Spread>;
  /** Per role, per episode: model calls, tokens and cost (an episode where the role never spoke counts 0). */
  roles: Record<string, { calls: Spread; tokens: Spread; cost: Spread }>;
  /** Against the baseline column of the same task; absent for the baseline itself. */
  vsBaseline?: {
    baseline: string;
    /** Pairs (same seed and repeat) where only the baseline / only this cell succeeded. */
    onlyBaseline: number;
    onlyThis: number;
    pairs: number;
    mcnemarP: number;
    fisherP: number;
    /** p < alpha on the paired test (or the unpaired one when nothing pairs). */
    significant: boolean;
    direction: 'better' | 'worse' | 'same';
  };
  labels: Record<string, number>;
  keys: string[];
  /** The paper's number for this cell (the sweep file's `paper:`), when it reports one. */
  paper?: PaperComparison;
}

export interface SweepMatrix {
  tasks: string[];
  cells: string[];
  baseline: string;
  /** Each column's prompt version (promptVersion.ts), when the plan has them. */
  promptVersions?: Record<string, string>;
  alpha: number;
  rows: MatrixCell[][];
  labelTotals: Record<string, Record<string, number>>;
  episodes: number;
  /**
   * The paper beside this run: its citation and notes, the row pooled over every task when the paper reports
   * only averages (cells of `all_tasks`), and whether this run's rates are a fixture (a reference model's).
   */
  paper?: { citation: string; metric?: string; note?: string; n?: number; fixture: boolean; pooled?: MatrixCell[] };
}

// Task in the key too: the pooled row pairs each task's seeds with the same task's.
const pairKey = (r: EpisodeRecord) => `${r.task}/${r.seed}/${r.repeat}`;

/** Labels in effect: hand edits (by key) replace the automatic ones of that episode. */
export function effectiveLabels(r: EpisodeRecord, manual?: Record<string, FailureLabel[]>): FailureLabel[] {
  return manual?.[r.key] ?? r.labels;
}

export interface BuildMatrixOptions {
  tasks: string[];
  cells: string[];
  baseline: string;
  alpha?: number;
  manualLabels?: Record<string, FailureLabel[]>;
  promptVersions?: Record<string, string>;
  /** The sweep file's `paper:` block: each cell it names gets the paper's number beside this run's. */
  paper?: PaperBlock;
  /** This run's answers came from a reference model: its rates are a fixture, never a reproduction. */
  fixture?: boolean;
}

export function buildMatrix(records: EpisodeRecord[], o: BuildMatrixOptions): SweepMatrix {
  const alpha = o.alpha ?? 0.05;
  const by = new Map<string, EpisodeRecord[]>();
  const add = (task: string, r: EpisodeRecord) => {
    const k = `${task}\u0000${r.cell}`;
    (by.get(k) ?? by.set(k, []).get(k)!).push(r);
  };
  for (const r of records) add(r.task, r);
  const pooled = o.paper && o.paper.cells[ALL_TASKS] !== undefined;
  if (pooled) for (const r of records) add(ALL_TASKS, r);
  const labelTotals: SweepMatrix['labelTotals'] = {};
  const rowOf = (task: string) =>
    o.cells.map((cell): MatrixCell => {
      const rs = (by.get(`${task}\u0000${cell}`) ?? []).sort((a, b) => a.task.localeCompare(b.task) || a.seed - b.seed || a.repeat - b.repeat);
      const n = rs.length;
      const successes = rs.filter((r) => r.success).length;
      const metricNames = [...new Set(rs.flatMap((r) => Object.keys(r.archMetrics)))].sort();
      const labels: Record<string, number> = {};
      for (const r of rs) {
        if (r.success) continue;
        for (const l of effectiveLabels(r, o.manualLabels)) {
          labels[l.label] = (labels[l.label] ?? 0) + 1;
          if (task === ALL_TASKS) continue; // counted once, in its own task's row
          const t = (labelTotals[l.label] ??= {});
          t[cell] = (t[cell] ?? 0) + 1;
        }
      }
      const out: MatrixCell = {
        task,
        cell,
        n,
        successes,
        rate: n === 0 ? null : successes / n,
        ci95: wilson95(successes, n),
        turns: spread(rs.map((r) => r.turns)),
        modelCalls: spread(rs.map((r) => r.modelCalls)),
        tokens: spread(rs.map((r) => r.promptTokens + r.completionTokens)),
        cost: spread(rs.map((r) => r.cost)),
        latencyMs: spread(rs.map((r) => r.latencyMs)),
        steps: spread(rs.flatMap((r) => (r.steps !== undefined ? [r.steps] : []))),
        archMetrics: Object.fromEntries(metricNames.map((m) => [m, spread(rs.flatMap((r) => (r.archMetrics[m] !== undefined ? [r.archMetrics[m]!] : [])))])),
        roles: Object.fromEntries(
          [...new Set(rs.flatMap((r) => Object.keys(r.callsByRole)))].sort().map((role) => [
            role,
            { calls: spread(rs.map((r) => r.callsByRole[role]?.calls ?? 0)), tokens: spread(rs.map((r) => r.callsByRole[role]?.tokens ?? 0)), cost: spread(rs.map((r) => r.callsByRole[role]?.cost ?? 0)) },
          ]),
        ),
        labels,
        keys: rs.map((r) => r.key),
      };
      if (cell !== o.baseline) {
        const base = by.get(`${task}\u0000${o.baseline}`) ?? [];
        const baseByPair = new Map(base.map((r) => [pairKey(r), r]));
        let onlyBaseline = 0;
        let onlyThis = 0;
        let pairs = 0;
        for (const r of rs) {
          const b = baseByPair.get(pairKey(r));
          if (!b) continue;
          pairs++;
          if (b.success && !r.success) onlyBaseline++;
          if (!b.success && r.success) onlyThis++;
        }
        const mc = mcnemarExact(onlyBaseline, onlyThis);
        const baseSucc = base.filter((r) => r.success).length;
        const fisherP = fisherExact(successes, n, baseSucc, base.length);
        const p = pairs > 0 ? mc.p : fisherP;
        const thisRate = n ? successes / n : 0;
        const baseRate = base.length ? baseSucc / base.length : 0;
        out.vsBaseline = { baseline: o.baseline, onlyBaseline, onlyThis, pairs, mcnemarP: mc.p, fisherP, significant: p < alpha, direction: thisRate > baseRate ? 'better' : thisRate < baseRate ? 'worse' : 'same' };
      }
      // The paper's unit when it is not the episode (IV-B's trials): the two metrics summed over the episodes.
      const per = o.paper?.rateOf;
      let counted: CountedRate | undefined;
      if (per) {
        const sum = (k: string) => rs.reduce((s, r) => s + (r.archMetrics[k] ?? 0), 0);
        const [k, total] = [sum(per.successes), sum(per.of)];
        counted = { unit: per.of, successes: k, n: total, rate: total === 0 ? null : k / total, ci95: wilson95(k, total) };
      }
      const paper = o.paper && paperComparison(o.paper, task, cell, out, counted);
      if (paper) out.paper = paper;
      return out;
    });
  const rows = o.tasks.map(rowOf);
  const p = o.paper;
  const paper = p && { citation: p.citation, ...(p.metric ? { metric: p.metric } : {}), ...(p.note ? { note: p.note } : {}), ...(p.n !== undefined ? { n: p.n } : {}), fixture: o.fixture ?? false, ...(pooled ? { pooled: rowOf(ALL_TASKS) } : {}) };
  return { tasks: o.tasks, cells: o.cells, baseline: o.baseline, ...(o.promptVersions ? { promptVersions: o.promptVersions } : {}), alpha, rows, labelTotals, episodes: records.length, ...(paper ? { paper } : {}) };
}

/** Every cell that has a paper number, the pooled row's included, in table order. */
export function paperCells(m: SweepMatrix): MatrixCell[] {
  return [...m.rows.flat(), ...(m.paper?.pooled ?? [])].filter((c) => c.paper);
}

const pct = (x: number) => `${Math.round(100 * x)}%`;

/** "paper" beside "this run" per cell the paper reports: its rate and n, ours with the Wilson interval, inside or not. */
export function paperMarkdown(m: SweepMatrix): string[] {
  const p = m.paper!;
  const lines = [`**Paper beside this run** (${p.citation}${p.metric ? `; the paper's rate counts ${p.metric}` : ''})${p.note ? `: ${p.note}` : ''}`, ''];
  const cells = paperCells(m);
  if (cells.length === 0) return [...lines, 'The paper prints no number for these cells (see the note).'];
  lines.push(`| task | column | paper | ${thisRunLabel(p.fixture)} | paper's rate in our 95% interval |`, '|---|---|---|---|---|');
  for (const c of cells) {
    const x = c.paper!;
    const paper = `${pct(x.rate)}${x.n !== undefined ? ` (n=${x.n})` : ' (n not stated)'}${x.ci ? ` [${pct(x.ci[0])}, ${pct(x.ci[1])}]` : ''}${x.source !== p.citation ? ` · ${x.source}` : ''}`;
    const ours = oursText(c);
    lines.push(`| ${c.task === ALL_TASKS ? 'all tasks (pooled)' : c.task} | ${c.cell} | ${paper} | ${ours} | ${insideText(x.inside)} |`);
  }
  return lines;
}
const fmtP = (p: number) => (p < 0.001 ? '<0.001' : p.toFixed(3));

/**
 * Who answered, for every view of a sweep: the model's name and, for the reference models, that the numbers are a
 * fixture (a scripted policy exercising the tool), never results about language models.
 */
export function sweepModelLine(model: { name: string; baseUrl?: string }): string {
  if ((REFERENCE_PROFILES as readonly string[]).includes(model.name)) {
    return `model: ${referenceLabel(model.name as ReferenceProfile)}. Its rates are a fixture of a scripted policy for exercising the tool, not results about language models.`;
  }
  return `model: ${model.name}${model.baseUrl ? ` at ${model.baseUrl}` : ''}`;
}

export interface MatrixMarkdownOptions {
  title?: string;
  /** The sweep's model (sweep file's `model`); named under the title. */
  model?: { name: string; baseUrl?: string };
}

/**
 * The Markdown summary (terminal, CI logs): who answered, success and interval per cell with each column's prompt
 * version, then the tests against the baseline (exact McNemar on paired seeds, Fisher's exact on all episodes).
 */
export function matrixMarkdown(m: SweepMatrix, o: MatrixMarkdownOptions = {}): string {
  const lines: string[] = [];
  if (o.title) lines.push(`### ${o.title}`, '');
  if (o.model) lines.push(sweepModelLine(o.model), '');
  const header = (c: string) => `${c}${c === m.baseline ? ' (baseline)' : ''}${m.promptVersions?.[c] ? ` · prompts ${m.promptVersions[c]}` : ''}`;
  lines.push(`| task | ${m.cells.map(header).join(' | ')} |`);
  lines.push(`|---|${m.cells.map(() => '---').join('|')}|`);
  for (const row of m.rows) {
    const cells = row.map((c) => {
      if (c.n === 0) return '–';
      let s = `${c.successes}/${c.n} ${pct(c.rate!)} [${pct(c.ci95.low)}, ${pct(c.ci95.high)}]`;
      const v = c.vsBaseline;
      if (v) s += ` · McNemar p=${fmtP(v.mcnemarP)} (${v.onlyBaseline}↔${v.onlyThis} discordant) · Fisher p=${fmtP(v.fisherP)}${v.significant ? ' **' + v.direction + '**' : ''}`;
      return s;
    });
    lines.push(`| ${row[0]?.task ?? ''} | ${cells.join(' | ')} |`);
  }
  if (m.cells.length > 1) lines.push('', `Against ${m.baseline}: exact McNemar on the seeds both ran (discordant pairs: only ${m.baseline} ↔ only this column), Fisher's exact on all episodes; **better**/**worse**: p < ${m.alpha} on the paired test (on Fisher's where no seed pairs).`);
  if (m.paper) lines.push('', ...paperMarkdown(m));
  lines.push('', '| cell | mean turns (sd) | mean calls | mean tokens | cost |', '|---|---|---|---|---|');
  for (const row of m.rows)
    for (const c of row) {
      if (c.n === 0) continue;
      const f = (s: Spread, d = 1) => (s.mean === null ? '–' : `${s.mean.toFixed(d)}${s.sd !== null ? ` (${s.sd.toFixed(d)})` : ''}`);
      lines.push(`| ${c.task} / ${c.cell} | ${f(c.turns)} | ${f(c.modelCalls)} | ${f(c.tokens, 0)} | ${c.cost.mean === null ? '–' : (c.cost.mean * c.n).toFixed(4)} |`);
    }
  // Tokens and cost per role: where a variant's spending goes.
  if (m.rows.flat().some((c) => Object.keys(c.roles).length > 0)) {
    lines.push('', '| cell | role | mean calls | mean tokens | total cost |', '|---|---|---|---|---|');
    for (const row of m.rows)
      for (const c of row)
        for (const [role, r] of Object.entries(c.roles)) lines.push(`| ${c.task} / ${c.cell} | ${role} | ${r.calls.mean?.toFixed(1) ?? '–'} | ${r.tokens.mean?.toFixed(0) ?? '–'} | ${r.cost.mean === null ? '–' : (r.cost.mean * c.n).toFixed(4)} |`);
  }
  // The architecture's own metrics (RoCo re-plans, LLaMAR transport rate, actctx Q, ...), when it reports any.
  const metricNames = [...new Set(m.rows.flat().flatMap((c) => Object.keys(c.archMetrics)))].sort();
  if (metricNames.length > 0) {
    lines.push('', `| cell | ${metricNames.join(' | ')} |`, `|---|${metricNames.map(() => '---').join('|')}|`);
    for (const row of m.rows)
      for (const c of row) {
        if (c.n === 0) continue;
        lines.push(`| ${c.task} / ${c.cell} | ${metricNames.map((k) => { const s = c.archMetrics[k]; return s?.mean == null ? '–' : `${s.mean.toFixed(2)}${s.sd !== null ? ` (${s.sd.toFixed(2)})` : ''}`; }).join(' | ')} |`);
      }
  }
  const labels = Object.keys(m.labelTotals).sort();
  if (labels.length > 0) {
    lines.push('', `| failure label | ${m.cells.join(' | ')} |`, `|---|${m.cells.map(() => '---').join('|')}|`);
    for (const l of labels) lines.push(`| ${l} | ${m.cells.map((c) => m.labelTotals[l]![c] ?? 0).join(' | ')} |`);
  }
  return lines.join('\n') + '\n';
}

// One row per episode, for pandas, polars, R and spreadsheets (`waypoint export <sweep | run> --csv | --parquet`).
// The row is built from the sweep's record (what the matrix counts) plus the two ends of the run's trace (what the
// record does not keep: simulated time, simulator, start time). Columns are typed so Parquet keeps them; the CSV
// writes the same table. Names are stable and documented in docs/data.md: change them there too.
import type { EventOf } from '../../../protocol/trace.js';
import type { FailureLabel } from '../../sweep/failureLabels.js';
import type { EpisodeRecord } from '../../sweep/record.js';

export type ColumnType = 'string' | 'int' | 'double' | 'boolean';
export type Cell = string | number | boolean | null;

export interface TableColumn {
  name: string;
  type: ColumnType;
  values: Cell[];
}

export interface EpisodeTable {
  columns: TableColumn[];
  rows: number;
}

/** Everything one row is made of. */
export interface EpisodeRowSource {
  /** The record as read: a newer sweep's record may carry fields this version does not name (kept as columns). */
  record: EpisodeRecord & Record<string, unknown>;
  /** The sweep's name; undefined for a run exported on its own. */
  sweep?: string;
  arch: string;
  model: string;
  /** Labels in effect: a hand edit in the sweep's labels.json replaces the automatic ones. */
  labels: FailureLabel[];
  /** The trace's first and last events; undefined when the trace is missing or unreadable there. */
  start?: EventOf<'episode_start'>;
  end?: EventOf<'episode_end'>;
}

/** Record fields that name the prompt version (a newer record's), first found wins. */
const PROMPT_VERSION_FIELDS = ['promptVersion', 'promptHash'] as const;

type Fixed = readonly [name: string, type: ColumnType, get: (s: EpisodeRowSource) => Cell];

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);
const secs = (ms: unknown): number | null => (num(ms) === null ? null : (ms as number) / 1000);

function promptVersionOf(r: Record<string, unknown>): string | null {
  for (const f of PROMPT_VERSION_FIELDS) if (typeof r[f] === 'string') return r[f] as string;
  return null;
}

function labelNames(labels: FailureLabel[]): string | null {
  const names = [...new Set(labels.map((l) => l.label))];
  return names.length ? names.join(';') : null;
}

function firstLabelTurn(labels: FailureLabel[]): number | null {
  const turns = labels.map((l) => l.turn).filter((t): t is number => typeof t === 'number');
  return turns.length ? Math.min(...turns) : null;
}

/** JSON with sorted keys, so equal switches print equally. */
function sortedJson(o: Record<string, unknown> | undefined): string {
  return JSON.stringify(Object.fromEntries(Object.entries(o ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

const posixDir = (p: string) => {
  const s = p.replace(/\\/g, '/');
  const i = s.lastIndexOf('/');
  return i < 0 ? '.' : s.slice(0, i);
};

/** The fixed columns, in order (docs/data.md lists them). */
export const FIXED_COLUMNS: readonly Fixed[] = [
  ['sweep', 'string', (s) => s.sweep ?? null],
  ['key', 'string', (s) => s.record.key],
  ['run_id', 'string', (s) => s.record.runId],
  ['architecture', 'string', (s) => s.arch],
  ['task', 'string', (s) => s.record.task],
  ['cell', 'string', (s) => s.record.cell],
  ['variant', 'string', (s) => s.record.variant],
  ['ablations', 'string', (s) => sortedJson(s.record.ablations)],
  ['seed', 'int', (s) => num(s.record.seed)],
  ['repeat', 'int', (s) => num(s.record.repeat)],
  ['model', 'string', (s) => s.model],
  ['success', 'boolean', (s) => s.record.success],
  ['end_reason', 'string', (s) => s.record.reason],
  ['end_message', 'string', (s) => str(s.record.message)],
  ['agent_claimed_done', 'boolean', (s) => (typeof s.record.agentClaimedDone === 'boolean' ? s.record.agentClaimedDone : null)],
  ['failure_labels', 'string', (s) => labelNames(s.labels)],
  ['failure_turn', 'int', (s) => firstLabelTurn(s.labels)],
  ['turns', 'int', (s) => num(s.record.turns)],
  ['rounds', 'int', (s) => num(s.record.rounds)],
  ['steps', 'int', (s) => num(s.record.steps)],
  ['model_calls', 'int', (s) => num(s.record.modelCalls)],
  ['cached_calls', 'int', (s) => num(s.record.cachedCalls)],
  ['tokens_in', 'int', (s) => num(s.record.promptTokens)],
  ['tokens_out', 'int', (s) => num(s.record.completionTokens)],
  ['cost', 'double', (s) => num(s.record.cost)],
  ['code_errors', 'int', (s) => num(s.record.codeErrors)],
  ['model_latency_secs', 'double', (s) => secs(s.record.latencyMs)],
  ['wall_secs', 'double', (s) => secs(s.record.durationMs)],
  ['sim_secs', 'double', (s) => num(s.end?.metrics.simTimeSecs)],
  ['sim_total_secs', 'double', (s) => num(s.end?.metrics.simTotalSecs)],
  ['prompt_version', 'string', (s) => promptVersionOf(s.record)],
  ['simulator', 'string', (s) => s.start?.simulator.name ?? null],
  ['simulator_version', 'string', (s) => s.start?.simulator.version ?? null],
  ['started_at', 'string', (s) => s.start?.startedAt ?? null],
  ['run_path', 'string', (s) => posixDir(s.record.tracePath)],
  ['trace_path', 'string', (s) => s.record.tracePath.replace(/\\/g, '/')],
];

/** Per role, four columns `<what>.<role>`; a role an episode never called has 0 there. */
const ROLE_COLUMNS: readonly [prefix: string, type: ColumnType, get: (r: EpisodeRecord['callsByRole'][string]) => number | null][] = [
  ['calls', 'int', (r) => num(r.calls)],
  ['tokens_in', 'int', (r) => num(r.promptTokens)],
  ['tokens_out', 'int', (r) => num(r.completionTokens)],
  ['cost', 'double', (r) => num(r.cost)],
];

/** Record fields the fixed, role and metric columns already show. */
const KNOWN_FIELDS = new Set<string>([
  'key', 'task', 'cell', 'variant', 'ablations', 'seed', 'repeat', 'runId', 'tracePath', 'success', 'reason', 'message', 'agentClaimedDone',
  'turns', 'rounds', 'steps', 'modelCalls', 'cachedCalls', 'promptTokens', 'completionTokens', 'cost', 'callsByRole', 'latencyMs',
  'durationMs', 'codeErrors', 'archMetrics', 'labels', ...PROMPT_VERSION_FIELDS,
]);

const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9_.]+/g, '_').toLowerCase();
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The type a column of values takes: all booleans, all integers, all numbers, else text (objects as JSON). */
function inferType(values: unknown[]): ColumnType {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length && present.every((v) => typeof v === 'boolean')) return 'boolean';
  if (present.length && present.every((v) => typeof v === 'number' && Number.isFinite(v))) return present.every((v) => Number.isInteger(v)) ? 'int' : 'double';
  return 'string';
}

function asCell(v: unknown, type: ColumnType): Cell {
  if (v === null || v === undefined) return null;
  if (type !== 'string') return v as Cell;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * The table of `sources`, one row each, in their order. Columns: the fixed ones, then per role (roles sorted by
 * name) calls / tokens_in / tokens_out / cost, then `metric.<name>` for the union of the architecture metrics
 * (missing: null), then any record field this version does not know, under its snake_case name.
 */
export function episodeTable(sources: readonly EpisodeRowSource[]): EpisodeTable {
  const columns: TableColumn[] = FIXED_COLUMNS.map(([name, type, get]) => ({ name, type, values: sources.map(get) }));
  const taken = new Set(columns.map((c) => c.name));

  const roles = [...new Set(sources.flatMap((s) => Object.keys(s.record.callsByRole ?? {})))].sort(byName);
  for (const role of roles)
    for (const [prefix, type, get] of ROLE_COLUMNS) {
      const name = `${prefix}.${role}`;
      taken.add(name);
      columns.push({ name, type, values: sources.map((s) => { const r = s.record.callsByRole?.[role]; return r ? get(r) : 0; }) });
    }

  const metrics = [...new Set(sources.flatMap((s) => Object.keys(s.record.archMetrics ?? {})))].sort(byName);
  for (const m of metrics) {
    const name = `metric.${m}`;
    taken.add(name);
    columns.push({ name, type: 'double', values: sources.map((s) => num(s.record.archMetrics?.[m])) });
  }

  const extras = [...new Set(sources.flatMap((s) => Object.keys(s.record).filter((k) => !KNOWN_FIELDS.has(k))))].sort(byName);
  for (const field of extras) {
    let name = snake(field);
    if (taken.has(name)) name = `record.${name}`;
    taken.add(name);
    const raw = sources.map((s) => s.record[field]);
    const type = inferType(raw);
    columns.push({ name, type, values: raw.map((v) => asCell(v, type)) });
  }
  // A hand-edited or foreign record with a fraction where a count belongs keeps its value as a double.
  for (const c of columns) if (c.type === 'int' && c.values.some((v) => typeof v === 'number' && !Number.isSafeInteger(v))) c.type = 'double';
  return { columns, rows: sources.length };
}

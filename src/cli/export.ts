// `waypoint export <run | sweep> --mcap out.mcap [--ros2] | --inspect out.json | --csv out.csv | --parquet out.parquet`:
// a run as MCAP (Foxglove, Lichtblick; --ros2 writes the transforms as ROS 2 messages for Rerun), a run or any sweep
// (`waypoint sweep`'s or a paired `compare`) as an Inspect AI eval log, or a sweep's (or a run's) episodes as a
// table, one row each (exportTable.ts). A damaged trace is exported as far as it was read, and the command says what
// is missing and exits 2.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { SweepFile } from '../protocol/sweep.js';
import { toCsv } from '../core/export/table/csv.js';
import { toParquet } from '../core/export/table/parquet.js';
import { exportSweepInspect, exportTrace, type ExportFormat, type ExportResult } from '../core/export/exportTrace.js';
import { exportPlanSweepInspect } from '../core/export/sweepInspect.js';
import { nodeIO } from '../core/node/nodeHost.js';
import { findPackageRoot } from '../core/node/packageRoot.js';
import { countedRecords, PLAN_FILE, readPlanFile } from '../core/sweep/planFile.js';
import { RUNS_DIR, TRACE_FILE } from '../core/runs/runStore.js';
import { SWEEPS_DIR, SWEEP_FILE } from '../core/sweep/pairedSweep.js';
import { WORKSPACE_OPTIONS } from './commonOptions.js';
import { runTable, sweepFolderOf, sweepTable, type LoadedTable } from './exportTable.js';
import { defineCommand } from './options.js';
import { outputPathProblem } from './outputPath.js';

export const EXPORT_OPTIONS = { mcap: { type: 'string' }, inspect: { type: 'string' }, csv: { type: 'string' }, parquet: { type: 'string' }, ros2: { type: 'boolean' }, workspace: { type: 'string' } } as const;

/** `sweep`: a paired compare sweep's sweep.json; `plan`: any other sweep's folder (plan.json and its records). */
type Target = { kind: 'run'; path: string } | { kind: 'sweep'; path: string } | { kind: 'plan'; dir: string };

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();

/** A trace file, a run folder, a sweep folder or its sweep.json / plan.json, or a run / sweep id of the workspace. */
export function resolveExportTarget(target: string, workspace: string): Target | null {
  const p = resolve(target);
  const sweepAt = (dir: string): Target | null => (isFile(join(dir, SWEEP_FILE)) ? { kind: 'sweep', path: join(dir, SWEEP_FILE) } : isFile(join(dir, PLAN_FILE)) ? { kind: 'plan', dir } : null);
  if (isFile(p)) return p.endsWith(SWEEP_FILE) ? { kind: 'sweep', path: p } : p.endsWith(PLAN_FILE) ? sweepAt(dirname(p)) : { kind: 'run', path: p };
  if (isFile(join(p, TRACE_FILE))) return { kind: 'run', path: join(p, TRACE_FILE) };
  const here = sweepAt(p);
  if (here) return here;
  if (/^[\w.-]+$/.test(target)) {
    const run = join(workspace, RUNS_DIR, target, TRACE_FILE);
    if (isFile(run)) return { kind: 'run', path: run };
    return sweepAt(join(workspace, SWEEPS_DIR, target));
  }
  return null;
}

function waypointVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(findPackageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

type ExportArgs = { mcap?: string; inspect?: string; csv?: string; parquet?: string; ros2?: boolean; workspace?: string };

export async function exportCommand(target: string | undefined, a: ExportArgs): Promise<number> {
  const fail = (message: string) => {
    process.stderr.write(`waypoint export: ${message}\n`);
    return 2;
  };
  if (!target) return fail('give a run id, a trace.jsonl, a run folder or a sweep, e.g. `waypoint export <run-id> --mcap run.mcap`');
  if ([a.mcap, a.inspect, a.csv, a.parquet].filter((x) => x !== undefined).length !== 1) return fail('give exactly one of --mcap <file.mcap>, --inspect <file.json>, --csv <file.csv> or --parquet <file.parquet>');
  if (a.ros2 && a.mcap === undefined) return fail('--ros2 goes with --mcap');
  const out = (a.mcap ?? a.inspect ?? a.csv ?? a.parquet)!;
  const problem = outputPathProblem(out);
  if (problem) return fail(problem);
  const ws = resolve(a.workspace ?? process.cwd());
  if (a.csv !== undefined || a.parquet !== undefined) return exportTableCommand(target, a.csv !== undefined ? 'csv' : 'parquet', out, ws, fail);
  const t = resolveExportTarget(target, ws);
  if (!t) return fail(`no run or sweep '${target}': give a run id or sweep name of ${ws}, a trace.jsonl, a run folder or a sweep's folder`);
  const format: ExportFormat = a.inspect !== undefined ? 'inspect' : a.ros2 ? 'mcap-ros2' : 'mcap';
  let result: ExportResult;
  try {
    if (t.kind !== 'run' && format !== 'inspect') return fail(`${t.kind === 'sweep' ? t.path : t.dir} is a sweep; MCAP holds one run: export its runs one by one (their ids are in the sweep), or use --inspect`);
    if (t.kind === 'plan') {
      const plan = await readPlanFile(nodeIO, t.dir);
      const records = await countedRecords(nodeIO, t.dir, plan);
      // Records name their traces relative to the workspace that holds the sweep folder (.waypoint/sweeps/<name>).
      const sweepWs = resolve(t.dir, '..', '..', '..');
      const versions = Object.fromEntries(plan.cells.flatMap((c) => (c.promptVersion ? [[c.name, c.promptVersion]] : [])));
      result = await exportPlanSweepInspect(
        { name: plan.name, arch: plan.spec.arch, model: plan.spec.model.name, baseline: plan.baseline, planned: plan.episodes.length, promptVersions: versions },
        records,
        async (p) => (isFile(join(sweepWs, p)) ? readFile(join(sweepWs, p), 'utf8') : null),
        waypointVersion(),
      );
    } else if (t.kind === 'sweep') {
      const parsed = SweepFile.safeParse(JSON.parse(await readFile(t.path, 'utf8')));
      if (!parsed.success) return fail(`${t.path} is not a sweep file: ${parsed.error.issues[0]?.path.join('.') || '(root)'}: ${parsed.error.issues[0]?.message}`);
      result = await exportSweepInspect(parsed.data, async (p) => (isFile(p) ? readFile(p, 'utf8') : null), waypointVersion());
    } else {
      result = await exportTrace(await readFile(t.path, 'utf8'), t.path, format, waypointVersion());
    }
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }
  await writeFile(resolve(out), result.bytes);
  process.stdout.write(`export: ${resolve(out)} (${result.summary})\n`);
  for (const n of result.notes) process.stderr.write(`note: ${n}\n`);
  if (result.lost.length > 0) {
    return fail(`exported what was read to ${out}, but not everything: ${result.lost.join('; ')}`);
  }
  return 0;
}

export const exportCmd = defineCommand({
  name: 'export',
  summary: 'a run as MCAP (Foxglove, Lichtblick; --ros2 for Rerun), a run or a sweep as an Inspect AI eval log, a sweep as a table (CSV, Parquet)',
  positionals: [{ name: 'run', help: 'a run id or sweep name of the workspace, a trace.jsonl, a run folder, a sweep folder or its sweep.json' }],
  options: {
    mcap: { type: 'string', metavar: 'file.mcap', help: 'write the run as MCAP (one of --mcap, --inspect, --csv or --parquet)' },
    inspect: { type: 'string', metavar: 'file.json', help: 'write the run or sweep as an Inspect AI eval log' },
    csv: { type: 'string', metavar: 'file.csv', help: "one row per episode of the sweep (or the run's one row), as CSV (docs/data.md)" },
    parquet: { type: 'string', metavar: 'file.parquet', help: 'the same table as Apache Parquet, typed nullable columns' },
    ros2: { type: 'boolean', help: 'with --mcap: transforms as ROS 2 messages (for Rerun)' },
    ...WORKSPACE_OPTIONS,
  },
  examples: ['waypoint export <run-id> --mcap run.mcap', 'waypoint export <sweep-id> --inspect sweep.json', 'waypoint export <sweep-name> --parquet episodes.parquet'],
  exitStatus: '0, 2 bad input or a damaged trace (what was read is still written).',
  run: ({ values, positionals }) => exportCommand(positionals[0], values),
});

/** --csv / --parquet: a sweep (a folder with plan.json, or its name) or a run, one row per episode. */
async function exportTableCommand(target: string, format: 'csv' | 'parquet', out: string, ws: string, fail: (m: string) => number): Promise<number> {
  // A sweep first: its plan.json is a file that would otherwise pass for a trace.
  const sweepDir = sweepFolderOf(target, ws);
  const t = sweepDir ? undefined : resolveExportTarget(target, ws);
  let loaded: LoadedTable & { lost?: string[] };
  try {
    if (sweepDir) loaded = await sweepTable(sweepDir);
    else if (t?.kind === 'run') loaded = await runTable(t.path, ws);
    else return fail(`no run or sweep '${target}': give a sweep name or folder (with plan.json), a run id of ${ws}, a trace.jsonl or a run folder`);
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }
  if (loaded.table.rows === 0) return fail(`${loaded.what}: no finished episode to export yet`);
  const bytes = format === 'csv' ? new TextEncoder().encode(toCsv(loaded.table)) : toParquet(loaded.table, { createdBy: `waypoint ${waypointVersion()}`, source: loaded.what });
  await writeFile(resolve(out), bytes);
  process.stdout.write(`export: ${resolve(out)} (${format === 'csv' ? 'CSV' : 'Parquet'}, ${loaded.what}, ${loaded.table.columns.length} columns)\n`);
  for (const n of loaded.notes) process.stderr.write(`note: ${n}\n`);
  if (loaded.lost?.length) return fail(`exported what was read to ${out}, but not everything: ${loaded.lost.join('; ')}`);
  return 0;
}

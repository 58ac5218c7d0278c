// What the sweep comparison view is sent (src/protocol/sweepMatrixView.ts), read from a sweep folder: plan.json for
// the tasks, columns and baseline, the finished episodes' records with the labels in effect (hand edits in
// labels.json replace the automatic ones), and the matrix against every column as baseline. Also the side-by-side
// projection of two of its episodes by key (only keys of this sweep: the view's requests are untrusted).
import { join } from 'node:path';
import type { HostIO } from '../host.js';
import { sideBySide, type SideBySide } from '../trace/projections/sideBySide.js';
import { readTrace } from '../trace/reader.js';
import type { FailureLabel } from './failureLabels.js';
import { readJudgeFile } from './judge.js';
import { buildMatrix, effectiveLabels, sweepModelLine, type SweepMatrix } from './matrix.js';
import { countedRecords, readPlanFile } from './planFile.js';
import type { EpisodeRecord } from './record.js';

export interface SweepViewData {
  type: 'init';
  name: string;
  subtitle: string;
  tasks: string[];
  cells: string[];
  baseline: string;
  matrices: Record<string, SweepMatrix>;
  records: EpisodeRecord[];
  /** The model judge's proposals (judge.json), marked as a model's proposal in the view. */
  judge?: { model: string; proposals: Record<string, FailureLabel[]> };
}

export async function loadSweepView(io: HostIO, dir: string): Promise<SweepViewData> {
  const plan = await readPlanFile(io, dir);
  let manual: Record<string, FailureLabel[]> | undefined;
  const labelsPath = join(dir, 'labels.json');
  if (await io.exists(labelsPath)) {
    try {
      manual = JSON.parse(await io.readText(labelsPath)) as Record<string, FailureLabel[]>;
    } catch (err) {
      throw new Error(`${labelsPath}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  const records = (await countedRecords(io, dir, plan)).map((r) => ({ ...r, labels: effectiveLabels(r, manual) }));
  const cells = plan.cells.map((c) => c.name);
  const versions = Object.fromEntries(plan.cells.flatMap((c) => (c.promptVersion ? [[c.name, c.promptVersion]] : [])));
  const matrices = Object.fromEntries(cells.map((b) => [b, buildMatrix(records, { tasks: plan.spec.tasks, cells, baseline: b, ...(Object.keys(versions).length > 0 ? { promptVersions: versions } : {}) })]));
  const judge = await readJudgeFile(io, dir);
  return {
    type: 'init',
    name: plan.name,
    subtitle: `${plan.spec.arch} · ${sweepModelLine(plan.spec.model)} · ${records.length}/${plan.episodes.length} episodes`,
    tasks: plan.spec.tasks,
    cells,
    baseline: plan.baseline,
    matrices,
    records,
    ...(judge ? { judge: { model: judge.model, proposals: Object.fromEntries(Object.entries(judge.proposals).map(([k, p]) => [k, p.labels])) } } : {}),
  };
}

/** The trace of one of the sweep's episodes (absolute path), or undefined for a key the sweep does not have. */
export function traceOfKey(data: SweepViewData, workspace: string, key: string): string | undefined {
  const r = data.records.find((x) => x.key === key);
  return r ? join(workspace, r.tracePath) : undefined;
}

export async function sweepPair(io: HostIO, data: SweepViewData, workspace: string, leftKey: string, rightKey: string): Promise<SideBySide> {
  const [l, r] = [traceOfKey(data, workspace, leftKey), traceOfKey(data, workspace, rightKey)];
  if (!l || !r) throw new Error(`no episode '${!l ? leftKey : rightKey}' in sweep ${data.name}`);
  const [a, b] = await Promise.all([io.readText(l), io.readText(r)]);
  return sideBySide(readTrace(a).events, readTrace(b).events);
}

// `waypoint report <sweep-dir | sweep name>`: the sweep's self-contained HTML report (matrix, plot, failure
// inspector, transcripts of chosen episodes). Chosen by --episodes key,key,...; by default the first failure of
// each label, at most 8.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { nodeIO } from '../core/node/nodeHost.js';
import { readJudgeFile } from '../core/sweep/judge.js';
import { sweepModelLine } from '../core/sweep/matrix.js';
import { readPlanFile } from '../core/sweep/planFile.js';
import { renderSweepReport } from '../core/sweep/reportHtml.js';
import { PLAN_FILE } from '../core/sweep/scheduler.js';
import { readTrace } from '../core/trace/reader.js';
import type { ReportTheme } from '../core/trace/reportThemes.js';
import { formatEvent, visionTally } from './transcript.js';
import { writeMatrix } from './sweep.js';

/** The sweep folder a report target names, or undefined when it names no sweep. */
export function sweepDirFor(target: string, workspace: string): string | undefined {
  for (const d of [resolve(target), join(workspace, '.waypoint', 'sweeps', target)]) if (existsSync(join(d, PLAN_FILE))) return d;
  return undefined;
}

export async function sweepReportCommand(dir: string, a: { out?: string; episodes?: string; theme?: ReportTheme }, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const { matrix, records } = await writeMatrix(dir);
  const plan = await readPlanFile(nodeIO, dir);
  const ws = resolve(dir, '..', '..', '..');
  let chosen: string[];
  if (a.episodes) chosen = a.episodes.split(',').map((s) => s.trim()).filter(Boolean);
  else {
    const firstOf = new Map<string, string>();
    for (const r of records) if (!r.success) for (const l of r.labels) if (!firstOf.has(l.label)) firstOf.set(l.label, r.key);
    chosen = [...new Set(firstOf.values())].slice(0, 8);
  }
  const transcripts = [];
  for (const key of chosen) {
    const r = records.find((x) => x.key === key);
    if (!r) {
      process.stderr.write(`waypoint report: no episode '${key}' in ${dir}\n`);
      return 2;
    }
    const path = join(ws, r.tracePath);
    if (!existsSync(path)) continue;
    const { events } = readTrace(await nodeIO.readText(path));
    const start = events.find((e) => e.type === 'episode_start');
    const arch = start?.type === 'episode_start' ? start.arch : undefined;
    const vision = visionTally();
    transcripts.push({ key, blocks: events.flatMap((e) => { const text = formatEvent(e, { color: false, verbose: false, arch, vision }); return text ? [{ turn: 'turn' in e && typeof e.turn === 'number' ? e.turn : undefined, text }] : []; }) });
  }
  const target = resolve(a.out ?? join(dir, 'report.html'));
  const html = renderSweepReport({
    title: `Sweep ${plan.name}`,
    subtitle: `${plan.spec.arch} · ${sweepModelLine(plan.spec.model)} · ${records.length}/${plan.episodes.length} episodes`,
    matrix,
    records,
    transcripts,
    nonce: randomBytes(18).toString('base64'),
    judge: await readJudgeFile(nodeIO, dir),
    linkOf: (r) => relative(resolve(target, '..'), join(ws, r.tracePath)),
    ...(a.theme ? { theme: a.theme } : {}),
  });
  await nodeIO.writeText(target, html);
  out.write(`report: ${target}\n`);
  return 0;
}

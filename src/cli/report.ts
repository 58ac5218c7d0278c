// `waypoint report`: one self-contained HTML page with the run viewer and the trace inlined, to open in any
// browser or attach to a bug report (no VS Code, no network). Paths in it are made relative (to the workspace,
// the package, the home folder), so a report does not carry the layout of the machine it was made on.
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { nodeIO } from '../core/node/nodeHost.js';
import { findPackageRoot } from '../core/node/packageRoot.js';
import { loadViewerAssets } from '../core/node/viewerAssets.js';
import { renderTraceHtml, REPORT_THEMES, type ReportTheme } from '../core/trace/html.js';
import { portablePaths } from '../core/trace/portablePaths.js';
import { loadTraceForView } from '../core/trace/viewData.js';
import { WORKSPACE_OPTIONS } from './commonOptions.js';
import { defineCommand, UsageError } from './options.js';
import { resolveTraceArg } from './show.js';
import { sweepDirFor, sweepReportCommand } from './sweepReport.js';

export async function reportCommand(target: string | undefined, a: { workspace?: string; out?: string; theme: ReportTheme }): Promise<number> {
  const ws = resolve(a.workspace ?? process.cwd());
  let path: string;
  try {
    path = await resolveTraceArg(target, ws);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`waypoint report: ${err.message}\n`);
    return 2;
  }
  // What the editor's viewer gets: trajectories decoded straight from the trace's columns into packed ones (no
  // object per sample), an overview above the viewer's sample budget.
  const { events, warnings } = loadTraceForView(await nodeIO.readText(path));
  const start = events.find((e) => e.type === 'episode_start');
  const runId = start?.type === 'episode_start' ? start.runId : 'unknown-run';
  const root = findPackageRoot();
  const html = renderTraceHtml({
    runId,
    events: portablePaths(events, { workspace: ws, packageRoot: root, home: homedir() }),
    warnings: warnings.map((w) => ({ kind: w.kind, message: w.message, line: w.line })),
    assets: loadViewerAssets(root),
    nonce: randomBytes(18).toString('base64'),
    title: `Waypoint · ${runId}`,
    theme: a.theme,
  });
  const out = resolve(a.out ?? path.replace(/trace\.jsonl$/, 'report.html'));
  await nodeIO.writeText(out, html);
  process.stdout.write(`report: ${out}\n`);
  return 0;
}

export const reportCmd = defineCommand({
  name: 'report',
  summary: 'write a standalone HTML page of a run (the run viewer) or of a sweep (matrix, failures, transcripts)',
  positionals: [{ name: 'run | sweep', optional: true, help: 'a run id (see `waypoint runs`), a trace.jsonl file, or a sweep folder or name; default: the newest run' }],
  options: {
    out: { type: 'string', metavar: 'file.html', help: "where to write the page; default: report.html beside the run's trace or in the sweep folder" },
    episodes: { type: 'string', metavar: 'k1,k2', help: 'sweep report: the episode keys whose transcripts the page inlines (default: the first failure of each label)' },
    theme: { type: 'string', default: 'dark', choices: REPORT_THEMES, help: 'colour theme of the page' },
    ...WORKSPACE_OPTIONS,
  },
  exitStatus: '0, 2 no such run or bad input.',
  run: ({ values, positionals }) => {
    const sweepDir = positionals[0] ? sweepDirFor(positionals[0], resolve(values.workspace ?? process.cwd())) : undefined;
    if (sweepDir) return sweepReportCommand(sweepDir, { ...values, theme: values.theme as ReportTheme });
    return reportCommand(positionals[0], { ...values, theme: values.theme as ReportTheme });
  },
});

// `waypoint report`: one self-contained HTML page with the run viewer and the trace inlined, to open in any
// browser or attach to a bug report (no VS Code, no network).
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { nodeIO } from '../core/node/nodeHost.js';
import { findPackageRoot } from '../core/node/packageRoot.js';
import { loadViewerAssets } from '../core/node/viewerAssets.js';
import { listRuns, tracePath } from '../core/runs/runStore.js';
import { renderTraceHtml } from '../core/trace/html.js';
import { readTrace } from '../core/trace/reader.js';

export async function reportCommand(target: string | undefined, a: { workspace?: string; out?: string; theme?: string }): Promise<number> {
  const ws = resolve(a.workspace ?? process.cwd());
  const path = target ? (target.endsWith('.jsonl') ? resolve(target) : tracePath(ws, target)) : (await listRuns(nodeIO, ws))[0]?.path;
  if (!path || !(await nodeIO.exists(path))) {
    process.stderr.write(`waypoint report: ${path ? `no trace at ${path}` : 'no runs under .waypoint/runs'}\n`);
    return 2;
  }
  const theme = a.theme === 'light' || a.theme === 'high-contrast' ? a.theme : 'dark';
  const { events, warnings } = readTrace(await nodeIO.readText(path));
  const start = events.find((e) => e.type === 'episode_start');
  const runId = start?.type === 'episode_start' ? start.runId : 'unknown-run';
  const html = renderTraceHtml({
    runId,
    events,
    warnings: warnings.map((w) => ({ kind: w.kind, message: w.message, line: w.line })),
    assets: loadViewerAssets(findPackageRoot()),
    nonce: randomBytes(18).toString('base64'),
    title: `Waypoint · ${runId}`,
    theme,
  });
  const out = resolve(a.out ?? path.replace(/trace\.jsonl$/, 'report.html'));
  await nodeIO.writeText(out, html);
  process.stdout.write(`report: ${out}\n`);
  return 0;
}

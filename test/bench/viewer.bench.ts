// Time to open a 100k-sample trace in the run viewer (headless Chromium, the static page from html.ts, with the
// CSP of a webview). "open" runs from navigation start to the first render (header, timeline, detail); it
// includes loading the page (HTML parse of the inlined trace + the 7 MB bundle), the stand-in host's JSON.parse
// and postMessage, validation, projection and render. "view" is the part a VS Code webview pays once the panel
// exists: `ready` posted -> first render. "plots" is the Plots tab drawn with decimation. Goal: open < 1 s.
// Prints one line. Run: node --import tsx test/bench/viewer.bench.ts [samples]
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildBigTrace } from '../fixtures/traces/malmmTrace.js';
import { chromiumMissing, launch, openViewer, writeTracePage } from '../webview/browser.js';

const samples = Number(process.argv[2] ?? 100_000);
if (chromiumMissing) {
  console.log(`viewer.bench: skipped, ${chromiumMissing}`);
  process.exit(0);
}
const events = buildBigTrace(samples);
const n = events.reduce((k, e) => k + (e.type === 'trajectory' ? e.samples.length : 0), 0);
// The minified bundle, as the extension ships it.
const url = await writeTracePage('bench-viewer', { runId: `bench-${n}`, events, warnings: [] }, undefined, { minified: true });
const mb = statSync(fileURLToPath(url)).size / 1e6;
const browser = await launch();
try {
  const runs: { open: number; page: number; view: number; validate: number; plots: number }[] = [];
  for (let i = 0; i < 5; i++) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openViewer(page, url);
    const t = await page.evaluate(() => window.__waypointViewer!.timings);
    const plotsMs = await page.evaluate(async () => {
      const t0 = performance.now();
      (document.querySelector('vscode-tab-header[data-tab="plots"]') as HTMLElement).click();
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      window.__waypointViewer!.flush();
      if ((window.__waypointViewer!.chart('position')?.[0]?.data.length ?? 0) === 0) throw new Error('plots not drawn');
      return performance.now() - t0;
    });
    runs.push({ open: t.firstRenderMs, page: t.scriptStartMs, view: t.firstRenderMs - t.readyPostedMs, validate: t.validateMs, plots: plotsMs });
    if (process.env.BENCH_VERBOSE) console.error(JSON.stringify(t));
    await page.close();
  }
  const median = (k: keyof (typeof runs)[number]) => [...runs].sort((a, b) => a[k] - b[k])[Math.floor(runs.length / 2)][k].toFixed(0);
  console.log(
    `viewer.bench (minified bundle, as shipped): ${n} samples, ${events.length} events, ${mb.toFixed(1)} MB page; median of ${runs.length}: open ${median('open')} ms ` +
      `(page load ${median('page')}, ready->render ${median('view')}, of which validation ${median('validate')}), plots ${median('plots')} ms (goal open < 1000 ms)`,
  );
} finally {
  await browser.close();
}

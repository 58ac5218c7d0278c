// Time to open a long run in the run viewer, measured in the real page: the panel's own HTML (renderViewerHtml, the
// minified bundle as the extension ships it, the webview CSP) in headless Chromium, whose `ready` is answered by
// the real host code in this process (RunViewerPanel's path: read the trace file from disk, loadTraceForView:
// columns decoded straight into typed arrays, an overview above 200k samples) over local HTTP, the answer's typed
// arrays transferred into the page (test/webview/hostPage.ts). The traces are the long MALMM fixture run with
// about 100k and 1M samples, written by the real writer (compact encoding), cached in test/output/bench-traces.
//   open     navigation start -> the first frame painted with the run in it (page and bundle load, `ready`, host
//            read + decode, transfer, validation, projection, render, style, layout, paint): what a user waits for
//            after clicking a run. Stamped by a task queued from the first animation frame after the render (a
//            task queued there runs once that frame has been painted), so it can be late by a few ms, never early;
//   render   navigation start -> the end of the synchronous first render, before the browser lays out and paints;
//   host     the host's part: reading and decoding the trace, begun when the page is requested (as RunViewerPanel
//            prefetches while the webview loads its bundle), and what is left of it after `ready` plus building
//            and serialising the message;
//   plots    the Plots tab drawn (decimated to the canvas width);
//   zoom     a drag over 2% of the position plot until the span is drawn at full resolution (for an overview,
//            the host's window of full samples).
// Goals: open (to first paint) < 500 ms for 100k samples, < 1500 ms for 1M. One line per size, after one for the
// committed small fixture (650 samples, schema v1): the page's floor, what opening any run costs. On a shared,
// loaded machine the wall times stretch; the line also gives the CPU time spent by the page's main thread
// (Chromium's TaskDuration, up to the first paint) and by the host, which contention changes much less.
// Run: node --import tsx test/bench/viewer.bench.ts [samples ...]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { readTrace } from '../../src/core/trace/reader.js';
import { loadTraceForView } from '../../src/core/trace/viewData.js';
import { packEvents } from '../../src/protocol/webview.js';
import { ROOT } from '../webview/buildViewer.js';
import { launch } from '../webview/browser.js';
import { missingPrereq } from '../helpers/prereqs.js';
import { serveHostPage } from '../webview/hostPage.js';

// 0: the committed 650-sample fixture (schema v1), the page's floor: what any run costs to open.
const sizes = process.argv.slice(2).map(Number).filter((n) => n >= 0);
if (sizes.length === 0) sizes.push(0, 100_000, 1_000_000);
const GOAL_MS: Record<number, number> = { 100_000: 500, 1_000_000: 1500 };
const label = (n: number) => (n === 0 ? 'fixture' : n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);

const noChromium = missingPrereq('chromium');
if (noChromium) {
  console.log(`viewer.bench: skipped, ${noChromium}`);
  process.exit(0);
}

/** A fingerprint of what the cached trace depends on: the fixture builder and the encoding. */
function fingerprint(): string {
  const h = createHash('sha256');
  const files = ['test/fixtures/traces/malmmTrace.ts', 'test/bench/viewerTrace.ts', 'src/core/trace/writer.ts', 'src/protocol/trace.ts'];
  const enc = join(ROOT, 'src/core/trace/encoding');
  for (const f of readdirSync(enc).sort()) files.push(`src/core/trace/encoding/${f}`);
  for (const f of files) h.update(readFileSync(join(ROOT, f)));
  return h.digest('hex').slice(0, 12);
}

function traceFor(samples: number): string {
  if (samples === 0) return join(ROOT, 'test/fixtures/traces/malmm-pick-place.jsonl');
  const path = join(ROOT, 'test/output/bench-traces', `viewer-${samples}-${fingerprint()}.jsonl`);
  if (existsSync(path)) return path;
  process.stderr.write(`viewer.bench: writing a ${label(samples)}-sample trace (once; cached in test/output/bench-traces) ...\n`);
  const r = spawnSync(process.execPath, ['--max-old-space-size=8192', '--import', 'tsx', join(ROOT, 'test/bench/viewerTrace.ts'), String(samples), path], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`could not write the ${samples}-sample trace (exit ${r.status})`);
  return path;
}

/**
 * Runs in the page before its scripts: watches each animation frame for the viewer's first render; in the frame
 * that follows it, queues a task, which runs after that frame's paint, and stamps the time there. A string: tsx
 * would wrap a function with helpers the page does not have.
 */
const PAINT_STAMP = `(() => {
  const tick = () => {
    if (window.__waypointViewer && window.__waypointViewer.ready) {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => { window.__benchPaintedMs = performance.now(); };
      ch.port2.postMessage(0);
    } else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The host's part before and after the compact encoding, in CPU ms (median of 3): the same events as a schema v1
 * file read with readTrace + packEvents (what the panel did), against loadTraceForView on the compact file.
 */
function hostBeforeAfter(path: string): string {
  const text = readFileSync(path, 'utf8');
  const v1 = readTrace(text).events.map((e) => JSON.stringify(e)).join('\n') + '\n';
  const cpu = (f: () => void) => {
    const xs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const c0 = process.cpuUsage();
      f();
      const c = process.cpuUsage(c0);
      xs.push((c.user + c.system) / 1000);
    }
    return median(xs).toFixed(0);
  };
  const before = cpu(() => packEvents(readTrace(v1).events));
  const after = cpu(() => loadTraceForView(text));
  return `host CPU before/after the compact encoding: ${before} / ${after} ms (${(v1.length / 1e6).toFixed(1)} MB as schema v1)`;
}
const browser = await launch();
try {
  for (const samples of sizes) {
    const path = traceFor(samples);
    const host = await serveHostPage(path, `bench-${label(samples)}`, { minified: true });
    const runs: { open: number; render: number; host: number; load: number; hostCpu: number; pageCpu: number; page: number; validate: number; plots: number; zoom: number }[] = [];
    let overview = '';
    let zoomInfo = '';
    try {
      for (let i = 0; i < 5; i++) {
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
        await page.addInitScript(PAINT_STAMP);
        await page.goto(host.url);
        await page.waitForFunction(() => window.__waypointViewer?.ready === true, undefined, { timeout: 60_000 });
        const paintedMs = await page.waitForFunction(() => (window as unknown as { __benchPaintedMs?: number }).__benchPaintedMs, undefined, { timeout: 60_000 }).then((h) => h.jsonValue() as Promise<number>);
        const { metrics } = await cdp.send('Performance.getMetrics');
        const pageCpu = 1000 * (metrics.find((x) => x.name === 'TaskDuration')?.value ?? NaN);
        const t = await page.evaluate(() => window.__waypointViewer!.timings);
        const plots = await page.evaluate(async () => {
          const t0 = performance.now();
          (document.querySelector('vscode-tab-header[data-tab="plots"]') as HTMLElement).click();
          await new Promise((r) => requestAnimationFrame(() => r(null)));
          window.__waypointViewer!.flush();
          if ((window.__waypointViewer!.chart('position')?.[0]?.data.length ?? 0) === 0) throw new Error('plots not drawn');
          return performance.now() - t0;
        });
        overview = (await page.evaluate(() => window.__waypointViewer!.plotsZoom())).status;
        const box = (await page.locator('canvas[data-plot="position"]').boundingBox())!;
        const y = box.y + box.height / 2;
        await page.mouse.move(box.x + box.width * 0.5, y);
        const t0 = await page.evaluate(() => performance.now());
        await page.mouse.down();
        await page.mouse.move(box.x + box.width * 0.51, y, { steps: 2 });
        await page.mouse.move(box.x + box.width * 0.52, y, { steps: 2 });
        await page.mouse.up();
        const zoomEnd = await page.evaluate(async () => {
          await window.__waypointViewer!.plotsWindowDrawn();
          await new Promise((r) => requestAnimationFrame(() => r(null)));
          return performance.now();
        });
        const z = await page.evaluate(() => window.__waypointViewer!.plotsZoom());
        if (!z.zoom) throw new Error('the drag did not zoom');
        zoomInfo = z.window ? `${z.window.count} samples in the span, ${z.window.full ? 'all drawn' : `${z.window.points} drawn min/max`}` : 'from the samples the view holds';
        runs.push({ open: paintedMs, render: t.firstRenderMs, host: host.lastReadyMs, load: host.lastLoadMs, hostCpu: host.lastReadyCpuMs, pageCpu, page: t.scriptStartMs, validate: t.validateMs, plots, zoom: zoomEnd - t0 });
        await page.close();
      }
    } finally {
      await host.close();
    }
    const m = (k: keyof (typeof runs)[number]) => median(runs.map((r) => r[k])).toFixed(0);
    const compare = samples > 0 && samples <= 100_000 ? `; ${hostBeforeAfter(path)}` : '';
    const goal = GOAL_MS[samples];
    console.log(
      `viewer.bench [${label(samples)}] ${host.lastLoad?.totalSamples ?? '?'} samples (real page, minified bundle, host reading a ${(statSync(path).size / 1e6).toFixed(1)} MB trace; median of ${runs.length}): ` +
        `open to first paint ${m('open')} ms${goal ? ` (goal < ${goal} ms)` : ''} [first render done ${m('render')} (before paint), page load ${m('page')}, host read+decode ${m('load')} (begun with the page; ${m('host')} from ready to the answer), validation ${m('validate')}, ${(host.lastReadyBytes / 1e6).toFixed(1)} MB sent; ` +
        `CPU: page main thread ${m('pageCpu')} ms (includes the bundle), host ${m('hostCpu')} ms]; ` +
        `plots ${m('plots')} ms; zoom to full resolution ${m('zoom')} ms (${zoomInfo}); ${overview.startsWith('Overview') ? overview.split(';')[0] : 'every sample sent'}${compare}; load average ${loadavg()[0].toFixed(1)}`,
    );
  }
} finally {
  await browser.close();
}

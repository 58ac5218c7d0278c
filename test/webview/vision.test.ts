// A LLaMAR run with vision on, over the AI2-THOR adapter (stand-in controller) through the simulator protocol,
// written to a trace file and read back (frames stored once as blobs), then opened in the run viewer in headless
// Chromium: the Messages the role saw show each robot's egocentric frame as an <img> thumbnail drawn from the trace's
// bytes. Screenshot: test/output/viewer-vision.png.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { architectures } from '../../src/architectures/registry.js';
import { DEFAULT_EPISODE_OPTIONS, runEpisode } from '../../src/core/engine/episode.js';
import { nodeIO } from '../../src/core/node/nodeHost.js';
import { resolveVariant } from '../../src/core/prompt/variants.js';
import { RemoteSimulator } from '../../src/core/sim/remote/index.js';
import { readTrace } from '../../src/core/trace/reader.js';
import { JsonlTraceWriter } from '../../src/core/trace/writer.js';
import type { TraceEvent } from '../../src/protocol/trace.js';
import { noSandbox, policyClient } from '../unit/architectures/llamar/helpers.js';
import { skipWithout } from '../helpers/prereqs.js';
import { chromiumMissing, launch, openWatchedViewer, OUTPUT, watchPage, writeTracePage } from './browser.js';

const skip = chromiumMissing || skipWithout('python3');
const THOR = 'stdio:python3 bridges/python/examples/ai2thor_llamar.py --stand-in';
const dir = mkdtempSync(join(tmpdir(), 'waypoint-vision-view-'));
let browser: Browser;
let page: Page;
let seen: ReturnType<typeof watchPage>;
let events: TraceEvent[];
let blobs: { sha256: string; dataBase64: string }[];

before(async () => {
  if (skip) return;
  const arch = architectures.get('llamar');
  const sim = await RemoteSimulator.connect(THOR);
  const path = join(dir, 'trace.jsonl');
  try {
    await runEpisode(
      {
        runId: 'vision-run',
        arch,
        task: 'put_bread_lettuce_tomato_fridge@FloorPlan1',
        seed: 0,
        agents: 2,
        variant: resolveVariant('default', { active: 'default', variants: {} }, arch.builtInVariants),
        promptPaths: Object.fromEntries(arch.roles.map((r) => [r.id, `src/architectures/llamar/prompts/${r.promptFile}`])),
        options: { ...DEFAULT_EPISODE_OPTIONS, limits: { maxSteps: 1 }, vision: true },
        model: { provider: 'reference', model: 'reference', label: 'reference (scripted, not an LLM)' },
      },
      { io: nodeIO, clock: { nowMs: () => 0, isoNow: () => '2026-11-28T10:00:00.000Z' }, sim, sandbox: noSandbox, model: policyClient(), sink: new JsonlTraceWriter(nodeIO, path, { nowMs: () => 0, isoNow: () => 'x' }, { summaryPath: null }) },
    );
  } finally {
    await sim.close();
  }
  const raw = readFileSync(path, 'utf8');
  blobs = raw.split('\n').filter((l) => l.startsWith('{"record":"blob"')).map((l) => JSON.parse(l) as { sha256: string; dataBase64: string });
  ({ events } = readTrace(raw));
  browser = await launch();
  const url = await writeTracePage('llamar-vision', { runId: 'vision-run', events, warnings: [] });
  ({ page, seen } = await openWatchedViewer(browser, url, { width: 1400, height: 1000 }));
});

after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the role's messages show each robot's frame as an <img> from the trace's blob", { skip }, async () => {
  const call = events.find((e) => e.type === 'role_call' && e.role === 'planner');
  assert.ok(call?.type === 'role_call');
  const images = call.messages.flatMap((m) => (m.parts ?? []).filter((p) => p.type === 'image'));
  assert.equal(images.length, 2);
  // Each frame the planner saw was read back from a blob record of the file.
  for (const p of images) assert.equal(p.type === 'image' && p.dataBase64, blobs.find((b) => b.sha256 === (p.type === 'image' ? p.sha256 : ''))?.dataBase64);

  await page.locator(`.turn-row[data-turn="${call.turn}"]`).click();
  await page.waitForSelector('.detail .msg-image img');
  const shown = await page.$$eval('.detail .msg-image', (els) =>
    els.map((f) => {
      const img = f.querySelector('img')!;
      return { sha: (f as HTMLElement).dataset.sha256, caption: f.querySelector('figcaption')!.textContent, src: img.src.slice(0, 22), w: img.naturalWidth, h: img.naturalHeight };
    }),
  );
  assert.deepEqual(
    shown.map((s) => [s.sha, s.caption, s.src, s.w, s.h]),
    images.map((p) => [p.type === 'image' ? p.sha256 : '', p.type === 'image' ? p.alt : '', 'data:image/png;base64,', 64, 64]),
  );
  assert.deepEqual(shown.map((s) => s.caption), ["Alice's egocentric camera, 64x64 PNG", "Bob's egocentric camera, 64x64 PNG"]);
  // The message text is the text part, not the "[image: …]" stand-in lines of `content`.
  assert.doesNotMatch((await page.textContent('.detail .msg-parts'))!, /\[image: /);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.requests, []);
  await page.locator('.detail .msg-images').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(OUTPUT, 'viewer-vision.png') });
});

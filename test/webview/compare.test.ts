// The comparison webview in headless Chromium: the built dist/webview/compare.js (rebuilt when stale) under its real
// CSP, a stub of the VS Code messaging, the tables it draws from an `init`, and the `openRun` a matrix cell posts.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { compareSides } from '../../src/core/sweep/stats.js';
import { renderCompareHtml } from '../../src/extension/panels/compareHtml.js';
import type { SweepFile, SweepOutcome } from '../../src/protocol/sweep.js';
import { chromiumMissing, launch, OUTPUT, watchPage } from './browser.js';
import { ROOT } from './buildViewer.js';
import { rebuildIfStale } from '../helpers/dist.js';

const outcome = (seed: number, side: string, success: boolean): SweepOutcome => ({ seed, runId: `r${seed}${side}`, tracePath: `/w/r${seed}${side}/trace.jsonl`, success, reason: success ? 'task_completed' : 'turn_cap', turns: 5, modelCalls: 4 });
const sweep: SweepFile = {
  schemaVersion: 1,
  id: 's1',
  kind: 'paired_ablation',
  startedAt: '2026-01-01T00:00:00Z',
  endedAt: '2026-01-01T00:01:00Z',
  status: 'complete',
  arch: 'malmm',
  task: 'stack_blocks',
  variant: 'default',
  ablation: 'planner.replan_check',
  seeds: [0, 1],
  model: { kind: 'reference', label: 'reference' },
  comparison: compareSides([{ seed: 0, on: outcome(0, 'on', true), off: outcome(0, 'off', false) }, { seed: 1, on: outcome(1, 'on', true), off: outcome(1, 'off', true) }], 'planner.replan_check'),
};

test('compare view: side table, per-seed matrix, a cell click posts openRun; no CSP errors, no requests', { skip: chromiumMissing }, async () => {
  mkdirSync(OUTPUT, { recursive: true });
  const file = join(OUTPUT, 'compare.html');
  rebuildIfStale(['dist/webview/compare.js'], ROOT);
  writeFileSync(file, renderCompareHtml({ cspSource: 'file:', scriptUri: pathToFileURL(join(ROOT, 'dist/webview/compare.js')).href, nonce: randomBytes(18).toString('base64'), title: 'Compare' }));
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const seen = watchPage(page);
    // A string, not a function: tsx would wrap a function with helpers the page does not have.
    const init = JSON.stringify({ type: 'init', sweep, path: '/w/sweep.json' });
    await page.addInitScript(`window.posted = []; window.acquireVsCodeApi = () => ({
      postMessage: (m) => { window.posted.push(m); if (m.type === 'ready') setTimeout(() => window.postMessage(${init}, '*')); },
      getState: () => undefined, setState: () => undefined });`);
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('table.matrix', { timeout: 5000 }).catch((e: unknown) => assert.fail(`${String(e)}; errors: ${seen.errors.join(' / ')}`));
    const sides = await page.$$eval('table.sides tbody tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    assert.deepEqual(sides, [['on', '2/2', '100% [34%, 100%]', '5.0', '4.0'], ['off', '1/2', '50% [9%, 91%]', '5.0', '4.0']]);
    const matrix = await page.$$eval('table.matrix tbody tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    assert.deepEqual(matrix, [['on', '✓', '✓'], ['off', '✗', '✓']]);
    assert.equal(await page.$$eval('table.matrix thead th.differs', (ths) => ths.map((t) => t.textContent).join()), '0');
    await page.click('table.matrix tbody tr:nth-child(2) td:nth-child(2) a');
    const posted = await page.evaluate(() => (window as unknown as { posted: unknown[] }).posted);
    assert.deepEqual(posted, [{ type: 'ready' }, { type: 'openRun', tracePath: '/w/r0off/trace.jsonl' }]);
    // The nonce'd style element applied (theme colours themselves exist only inside VS Code).
    assert.equal(await page.$eval('table.sides th', (th) => getComputedStyle(th).paddingLeft), '10px');
    await page.screenshot({ path: join(OUTPUT, 'compare.png') });
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.requests, []);
  } finally {
    await browser.close();
  }
});

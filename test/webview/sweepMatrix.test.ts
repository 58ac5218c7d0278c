// The sweep comparison view (webview/sweepMatrix, the extension's "Open Sweep Comparison…") in headless Chromium on
// a fixture sweep, fed by the host's own loader (core/sweep/view.ts) through a stub of the VS Code messaging: the
// matrix coloured by significance against the chosen baseline (and recoloured when the baseline changes), a cell's
// episodes, a failure label opening its run at the turn where it began, failures by label and variant, and two
// variants on one seed side by side with the prompt diff and the first diverging turn. No network, no console
// errors. Screenshots: test/output/sweep-view*.png.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { nodeIO } from '../../src/core/node/nodeHost.js';
import { loadSweepView, sweepPair } from '../../src/core/sweep/view.js';
import { renderSweepMatrixHtml } from '../../src/extension/panels/sweepMatrixHtml.js';
import { DROPPED_RULE, fixtureSweep } from '../helpers/fixtureSweep.js';
import { chromiumMissing, launch, OUTPUT, watchPage } from './browser.js';
import { ROOT } from './buildViewer.js';
import { rebuildIfStale } from '../helpers/dist.js';

const ws = mkdtempSync(join(tmpdir(), 'waypoint-sweep-view-'));
after(() => rmSync(ws, { recursive: true, force: true }));
test('sweep comparison view: matrix by significance, baseline switch, episodes, labels, side by side', { skip: chromiumMissing }, async () => {
  const dir = fixtureSweep(ws);
  // Prompt versions per column, as a planned sweep records them (the header names each).
  const planPath = join(dir, 'plan.json');
  const plan = JSON.parse(readFileSync(planPath, 'utf8')) as { cells: { name: string; promptVersion?: string }[] };
  plan.cells.forEach((c, i) => (c.promptVersion = `${String(i).repeat(4)}abcd1234`));
  writeFileSync(planPath, JSON.stringify(plan));
  // One proposal of the model judge (judge.json): shown beside the labels, marked as a model's.
  writeFileSync(join(dir, 'judge.json'), JSON.stringify({ model: 'judge-model @ fake', note: 'n', proposals: { 'malmm-stack_blocks-sa-s2-r0-fixture': { labels: [{ label: 'drop', turn: 4, evidence: 'fell', source: 'judge' }], at: 'x' } } }));
  const data = await loadSweepView(nodeIO, dir);
  mkdirSync(OUTPUT, { recursive: true });
  const file = join(OUTPUT, 'sweep-view.html');
  rebuildIfStale(['dist/webview/sweepMatrix.js'], ROOT);
  writeFileSync(file, renderSweepMatrixHtml({ cspSource: 'file:', scriptUri: pathToFileURL(join(ROOT, 'dist/webview/sweepMatrix.js')).href, nonce: randomBytes(18).toString('base64'), title: 'Sweep fixture' }));
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
    const seen = watchPage(page);
    // The host's answers: init from the loader, pairs from sweepPair (node side, over an exposed function).
    await page.exposeFunction('hostPair', async (l: string, r: string) => ({ type: 'pair', leftKey: l, rightKey: r, view: await sweepPair(nodeIO, data, ws, l, r) }));
    const init = JSON.stringify(data);
    await page.addInitScript(`window.posted = []; window.acquireVsCodeApi = () => ({
      postMessage: (m) => { window.posted.push(m);
        if (m.type === 'ready') setTimeout(() => window.postMessage(${init}, '*'));
        if (m.type === 'pair') window.hostPair(m.leftKey, m.rightKey).then((a) => window.postMessage(a, '*')); },
      getState: () => undefined, setState: () => undefined });`);
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('table.matrix', { timeout: 5000 }).catch((e: unknown) => assert.fail(`${String(e)}; errors: ${seen.errors.join(' / ')}`));
    assert.deepEqual(await page.$$eval('table.matrix thead .prompt-version', (els) => els.map((e) => e.textContent)), ['prompts 0000abcd1234', 'prompts 1111abcd1234', 'prompts 2222abcd1234']);
    const classes = () => page.$$eval('table.matrix tbody td', (tds) => tds.map((td) => td.className));
    assert.deepEqual(await classes(), ['cell baseline', 'cell ns', 'cell sig worse'], 'sa (2/12) differs significantly from malmm (11/12); ma (8/12) does not');
    assert.match((await page.textContent('td.sig.worse'))!, /2\/12 17%\[5%, 45%\]p=0\.004 · 9↔0 · worse/);
    await page.screenshot({ path: join(OUTPUT, 'sweep-view.png') });

    // Against sa as baseline: malmm significantly better (9 vs 0 discordant), ma not (7 vs 1: p = 0.070).
    await page.selectOption('#baseline', 'sa');
    assert.deepEqual(await classes(), ['cell sig better', 'cell ns', 'cell baseline']);
    assert.match((await page.textContent('table.matrix tbody td.ns'))!, /p=0\.070 · 1↔7/);
    await page.selectOption('#baseline', 'malmm');

    // A cell's episodes; a failure label opens its run at the turn where it began.
    await page.click('td.sig.worse a.rate');
    assert.equal(await page.$$eval('table.episodes tbody tr', (rows) => rows.length), 12);
    assert.match((await page.textContent('table.episodes thead'))!, /model judge's proposal \(judge-model @ fake; not checked\)/);
    assert.equal(await page.textContent('table.episodes tbody tr:nth-child(3) td.judge'), '⚖ drop @4');
    await page.click('table.episodes tbody tr.failed td:nth-child(6) a');
    // Failures by label and variant (the hand edit counted instead of malmm's automatic name_error).
    const labelRows = await page.$$eval('table.labels tbody tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    assert.deepEqual(labelRows, [
      ['drop', '1', '0', '0'],
      ['incomplete_subgoal', '0', '0', '5'],
      ['missing_arguments', '0', '0', '5'],
      ['name_error', '0', '0', '5'],
      ['premature_completion', '0', '4', '0'],
    ]);

    // Side by side: malmm and sa on seed 3.
    await page.selectOption('#pair-left', 'malmm');
    await page.selectOption('#pair-right', 'sa');
    await page.selectOption('#pair-seed', '3/0');
    await page.click('#pair-go');
    await page.waitForSelector('table.sxs', { timeout: 5000 });
    assert.equal(await page.textContent('table.sxs tr.diverge th'), '8 ◆', 'the first diverging turn is the Coder answer that changed');
    assert.equal(await page.$$eval('table.sxs tr.diverge ~ tr, table.sxs tr.diverge', (r) => r.length) > 1, true);
    assert.ok((await page.$$eval('table.sxs tbody tr.same', (r) => r.length)) >= 6, 'turns before the divergence are the same');
    const diff = await page.$$eval('.pdiff', (ds) => ds.map((d) => [d.querySelector('summary')!.textContent, [...d.querySelectorAll('.del')].map((x) => x.textContent)]));
    assert.deepEqual(diff, [['planner', [`- ${DROPPED_RULE}`]]]);
    await page.screenshot({ path: join(OUTPUT, 'sweep-view-pair.png'), fullPage: true });

    const posted = (await page.evaluate(() => (window as unknown as { posted: unknown[] }).posted)) as { type: string }[];
    assert.deepEqual(posted.filter((m) => m.type === 'openRun'), [{ type: 'openRun', key: 'malmm-stack_blocks-sa-s2-r0-fixture', turn: 2 }]);
    assert.deepEqual(posted.filter((m) => m.type === 'pair'), [{ type: 'pair', leftKey: 'malmm-stack_blocks-malmm-s3-r0-fixture', rightKey: 'malmm-stack_blocks-sa-s3-r0-fixture' }]);
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.requests, []);
  } finally {
    await browser.close();
  }
});

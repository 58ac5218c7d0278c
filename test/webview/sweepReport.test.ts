// The sweep report (`waypoint report <sweep>`) in headless Chromium on a fixture sweep: the matrix coloured by
// significance, a cell's episodes on click, the failure inspector grouped by label and variant, a failure link
// landing on the turn where it began in the inlined transcript; no network, no console errors; `--theme` dark,
// light and high contrast each colour the page, every text at WCAG AA contrast. Screenshots in
// test/output/sweep-report*.png.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { sweepReportCommand } from '../../src/cli/sweepReport.js';
import type { EpisodeRecord } from '../../src/core/sweep/record.js';
import { REPORT_THEMES, THEME_VARIABLES } from '../../src/core/trace/reportThemes.js';
import { chromiumMissing, launch, OUTPUT, watchPage } from './browser.js';
import { measureContrast, type ContrastFailure } from './contrast.js';

const ws = mkdtempSync(join(tmpdir(), 'waypoint-sweep-report-'));
after(() => rmSync(ws, { recursive: true, force: true }));
const FIXTURE = join(process.cwd(), 'test/fixtures/traces/malmm-pick-place.jsonl');

function fixtureSweep(): string {
  const dir = join(ws, '.waypoint', 'sweeps', 'fixture');
  mkdirSync(join(dir, 'episodes'), { recursive: true });
  const cells = ['malmm', 'ma', 'sa'];
  const episodes: { key: string }[] = [];
  const labelsFor = (cell: string, seed: number) =>
    cell === 'malmm' ? ['name_error'] : cell === 'ma' ? ['premature_completion'] : seed % 2 ? ['name_error', 'incomplete_subgoal'] : ['missing_arguments'];
  for (const cell of cells)
    for (let seed = 0; seed < 12; seed++) {
      const success = cell === 'malmm' ? seed !== 3 : cell === 'ma' ? seed % 3 !== 0 : seed < 2;
      const key = `malmm-stack_blocks-${cell}-s${seed}-r0-fixture`;
      episodes.push({ key });
      const tracePath = `.waypoint/runs/${key}/trace.jsonl`;
      mkdirSync(join(ws, '.waypoint/runs', key), { recursive: true });
      copyFileSync(FIXTURE, join(ws, tracePath));
      const r: EpisodeRecord = { key, task: 'stack_blocks', cell, variant: cell, ablations: {}, seed, repeat: 0, runId: key, tracePath, success, reason: success ? 'task_completed' : 'turn_cap', agentClaimedDone: success, turns: 20 + seed, modelCalls: 10, cachedCalls: 0, promptTokens: 1000, completionTokens: 200, cost: 0, callsByRole: {}, latencyMs: 50, durationMs: 900, codeErrors: 0, archMetrics: {}, labels: success ? [] : labelsFor(cell, seed).map((label, i) => ({ label, turn: 2 + i, evidence: `${label} evidence`, source: 'auto' as const })) };
      writeFileSync(join(dir, 'episodes', `${key}.json`), JSON.stringify(r));
    }
  writeFileSync(join(dir, 'plan.json'), JSON.stringify({ name: 'fixture', spec: { arch: 'malmm', tasks: ['stack_blocks'], model: { name: 'reference-flawed' } }, cells: cells.map((name) => ({ name })), baseline: 'malmm', episodes }));
  return dir;
}

test('sweep report in Chromium: matrix, cell episodes, failure inspector, transcript at the failing turn', { skip: chromiumMissing }, async () => {
  const dir = fixtureSweep();
  let printed = '';
  assert.equal(await sweepReportCommand(dir, {}, { write: (s: string) => void (printed += s) } as never), 0);
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
    const seen = watchPage(page);
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    const classes = await page.$$eval('td.cell', (tds) => tds.map((td) => td.className.replace('cell ', '')));
    assert.deepEqual(classes, ['base', 'ns', 'worse'], 'sa (2/12) is significantly worse than malmm (11/12); ma (8/12) is not');
    assert.match((await page.textContent('td.cell.worse'))!, /2\/12 · 17%.*McNemar p=0\.004 · 9↔0 discordant of 12 pairs/s);
    await page.click('td.cell.worse');
    const visible = await page.$$eval('.episodes', (ds) => ds.filter((d) => !(d as HTMLElement).hidden).map((d) => d.querySelectorAll('li').length));
    assert.deepEqual(visible, [12]);
    const labels = await page.$$eval('#failures tr.label-row summary', (s) => s.map((x) => x.textContent));
    assert.ok(labels.length >= 3, `grouped under ${labels.join(', ')}`);
    const nameRow = await page.$$eval('#failures tr.label-row', (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
    assert.ok(nameRow.some((r) => r.join(',') === '1,0,5'), `name_error counts by variant: ${JSON.stringify(nameRow)}`);
    await page.screenshot({ path: join(OUTPUT, 'sweep-report.png'), fullPage: false });
    // A failure opens at the turn where it began.
    await page.click('#failures summary');
    const href = await page.$eval('#failures details[open] a', (a) => a.getAttribute('href'));
    assert.match(href!, /^#ep-.*-turn-\d+$/);
    await page.click('#failures details[open] a');
    assert.equal(await page.$eval(':target', (e) => e.id), href!.slice(1));
    assert.deepEqual(seen.requests, []);
    assert.deepEqual(seen.errors, []);
  } finally {
    await browser.close();
  }
});

const hexToRgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

test('sweep report themes: --theme dark, light and high-contrast colour the page, every text at AA contrast', { skip: chromiumMissing }, async () => {
  const dir = fixtureSweep();
  const browser = await launch();
  try {
    for (const theme of REPORT_THEMES) {
      const out = join(ws, `report-${theme}.html`);
      assert.equal(await sweepReportCommand(dir, { out, theme }, { write: () => {} } as never), 0);
      const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
      const seen = watchPage(page);
      await page.goto(pathToFileURL(out).href);
      const body = await page.$eval('body', (b) => ({ bg: getComputedStyle(b).backgroundColor, fg: getComputedStyle(b).color, cls: b.className }));
      const v = THEME_VARIABLES[theme];
      assert.deepEqual([body.bg, body.fg], [hexToRgb(v['editor-background']!), hexToRgb(v.foreground!)], `${theme}: the theme's editor background and foreground`);
      assert.equal(body.cls, theme === 'light' ? 'vscode-light' : theme === 'high-contrast' ? 'vscode-high-contrast' : 'vscode-dark');
      // Every text, the coloured matrix cells, failure lists and the highlighted transcript turn included.
      await page.click('td.cell.worse');
      await page.$$eval('#failures details', (ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
      await page.click('#failures details[open] a');
      await page.evaluate('window.__name = (f) => f');
      const r = (await page.evaluate(measureContrast, 'body')) as { checked: number; failures: ContrastFailure[] };
      assert.ok(r.checked > 50, `${theme}: ${r.checked} texts measured`);
      assert.deepEqual(r.failures.map((f) => `"${f.text}" ${f.fg} on ${f.bg} = ${f.ratio}:1 (${f.where})`), [], `${theme}: text under AA`);
      await page.screenshot({ path: join(OUTPUT, `sweep-report-${theme}.png`), fullPage: false });
      assert.deepEqual(seen.errors, []);
      await page.close();
    }
  } finally {
    await browser.close();
  }
});

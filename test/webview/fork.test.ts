// A fork (the debugger's Restart Frame) in the run viewer: the fork line names the original, the turn and the
// changed prompt, with a button to open the original; the replayed turns are dimmed and the fork turn is marked.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { loadFixture } from '../unit/core/trace/projections/helpers.js';
import { chromiumMissing, launch, openWatchedViewer, OUTPUT, writeTracePage } from './browser.js';
import type { TraceEvent } from '../../src/protocol/trace.js';

const skip = chromiumMissing;
let browser: Browser | undefined;
after(async () => {
  await browser?.close();
});

test('a fork shows where it branched, what changed, and which turns it replayed', { skip }, async () => {
  const trace = loadFixture('malmm-pick-place.jsonl');
  const events = trace.events.map((e): TraceEvent =>
    e.type === 'episode_start'
      ? { ...e, fork: { parentRunId: '20260314-102205-malmm-pick_place-s7-ee20', turn: 8, callId: 'c6', role: 'coder', replayedCalls: 6, via: 'snapshot', changedFiles: [{ role: 'coder', path: '/w/prompts/malmm/coder.prompt', fromSha256: 'a'.repeat(64), toSha256: 'b'.repeat(64) }] } }
      : e,
  );
  const url = await writeTracePage('fork', { runId: 'fork-run', events, warnings: trace.warnings });
  browser = await launch();
  const { page, seen } = await openWatchedViewer(browser, url, { width: 1400, height: 900 });
  const line = await page.textContent('.fork-line');
  assert.match(line ?? '', /⎇ fork of 20260314-102205-malmm-pick_place-s7-ee20 at turn 8 \(coder\) · changed: coder\.prompt · 6 earlier answers replayed, simulator restored/);
  assert.equal(await page.locator('.fork-line vscode-button').textContent(), 'Open the original');
  const replayed = await page.$$eval('.turn-row.replayed', (els) => els.map((e) => Number((e as HTMLElement).dataset.turn)));
  assert.deepEqual(replayed, [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.equal(await page.textContent('.turn-row.fork-point .turn-no'), '⎇8');
  await page.screenshot({ path: join(OUTPUT, 'viewer-fork.png') });
  assert.deepEqual(seen.errors, []);
});

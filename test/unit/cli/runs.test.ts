// `waypoint runs` formatting in-process: a header row, aligned columns, and honest rows for odd traces.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatRuns } from '../../../src/cli/runs.js';
import { summarize } from '../../../src/core/runs/runStore.js';
import { readTrace } from '../../../src/core/trace/reader.js';
import { loadFixture } from '../core/trace/projections/helpers.js';

test('a header row, columns aligned under it, and a trace cut to 300 bytes shown as unreadable, never "undefined"', () => {
  const { events } = loadFixture('malmm-pick-place.jsonl');
  const text = events.map((e) => JSON.stringify(e)).join('\n') + '\n';
  const cut = readTrace(text.slice(0, 300));
  const zero = { turns: 0, modelCalls: 0, cachedCalls: 0, promptTokens: 0, completionTokens: 0, codeBlocks: 0, codeErrors: 0, formatErrors: 0, durationMs: 1, simTimeSecs: 0 };
  const runs = [
    summarize('20260101-000003-malmm-pick_place-s7-aaaa', '/w/a', events, 0),
    summarize('20260101-000002-malmm-stack_blocks-s-1-bbbb', '/w/b', cut.events, cut.warnings.length),
    summarize('20260101-000001-malmm-juggle-s0-cccc', '/w/c', [events[0], { seq: 1, tMs: 1, type: 'episode_end', success: false, reason: 'invalid_input', agentClaimedDone: false, message: 'unknown task', metrics: zero }], 0),
  ];
  const lines = formatRuns(runs).split('\n');
  assert.match(lines[0], /^run +result +arch +variant +task +seed +reason +turns +model +notes$/);
  assert.doesNotMatch(lines.join('\n'), /undefined/);
  assert.match(lines[1], /^20260101-000003-malmm-pick_place-s7-aaaa +success +malmm\/malmm +default +pick_place +7 +task_completed +28 +reference/);
  assert.match(lines[2], /^20260101-000002-malmm-stack_blocks-s-1-bbbb +unreadable +malmm +- +stack_blocks +-1 +- +\? +- +1 trace warning; no readable episode_start \(arch, task, seed from the run id\)$/);
  assert.match(lines[3], / not started +malmm\/malmm .* invalid_input +- /);
  // Text columns start where their header does; number columns (seed, turns) end where it ends.
  for (const h of ['result', 'arch', 'variant', 'task', 'reason', 'model']) {
    const at = lines[0].search(new RegExp(`\\b${h}\\b`));
    for (const l of lines.slice(1)) assert.ok(l[at - 1] === ' ' && l[at - 2] === ' ' && l[at] !== ' ', `${h} column in: ${l}`);
  }
  for (const h of ['seed', 'turns']) {
    const end = lines[0].search(new RegExp(`\\b${h}\\b`)) + h.length;
    for (const l of lines.slice(1)) assert.ok(l[end - 1] !== ' ' && l[end] === ' ', `${h} column in: ${l}`);
  }
});

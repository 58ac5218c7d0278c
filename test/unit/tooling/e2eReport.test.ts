// The e2e run's verdict (test/e2e/report.ts): a mocha test left pending fails the run (the suite has no skips, so a
// pending one is a test that did not run), a crashed phase fails it, and UI steps are only skipped behind a failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatSummary, type Summary } from '../../e2e/report.js';
import type { MochaOutcome } from '../../e2e/mochaPhase.js';
import type { StepResult } from '../../e2e/ui/scenarios.js';
import type { Shots } from '../../e2e/ui/workbench.js';

const mocha = (states: ('passed' | 'failed' | 'pending')[], exitCode = 0): MochaOutcome => ({
  phase: 'main',
  exitCode,
  wallMs: 1000,
  results: { phase: 'main', durationMs: 900, failures: states.filter((s) => s === 'failed').length, results: states.map((state, i) => ({ title: `t${i}`, state })), notes: {} },
});
const ui = (steps: StepResult[]): Summary['ui'] => ({ steps, figures: {}, shots: { taken: [] } as unknown as Shots });
const summary = (over: Partial<Summary>): Summary => ({ timings: {}, mocha: [], ui: undefined, leftovers: [], warnings: [], errors: [], ...over });
const closing = (text: string) => text.split('\n').at(-1);

test('all passed: the run passes', () => {
  const r = formatSummary(summary({ mocha: [mocha(['passed', 'passed'])], ui: ui([{ name: 's', status: 'passed', ms: 1 }]) }));
  assert.equal(r.failed, false);
  assert.equal(closing(r.text), 'e2e: 3 passed, 0 failed, 0 skipped');
});

test('a pending mocha test fails the run and is listed as not run', () => {
  const r = formatSummary(summary({ mocha: [mocha(['passed', 'pending'])] }));
  assert.equal(r.failed, true);
  assert.match(r.text, /^mocha \(main\): 1 passing, 1 failing \(1 of them pending: the suite has no skips\)/m);
  assert.match(r.text, /^ {2}✖ t1 \(pending: did not run\)$/m);
  assert.equal(closing(r.text), 'e2e: 1 passed, 1 failed, 0 skipped');
});

test('a phase that exited non-zero with no failed test still fails once', () => {
  const r = formatSummary(summary({ mocha: [mocha(['passed'], 1)] }));
  assert.equal(r.failed, true);
  assert.equal(closing(r.text), 'e2e: 1 passed, 1 failed, 0 skipped');
});

test('UI: a failed step fails the run; the steps behind it are counted as skipped', () => {
  const r = formatSummary(summary({ ui: ui([{ name: 'a', status: 'failed', ms: 1, detail: 'boom' }, { name: 'b', status: 'skipped', ms: 0, detail: 'needs: a' }]) }));
  assert.equal(r.failed, true);
  assert.match(r.text, /^UI scenarios: 0 passed, 1 failed, 1 skipped \(after a failed step they need\)$/m);
  assert.equal(closing(r.text), 'e2e: 0 passed, 1 failed, 1 skipped');
});

test('no pending tests: the mocha line does not mention them', () => {
  const r = formatSummary(summary({ mocha: [mocha(['passed', 'failed'])] }));
  assert.match(r.text, /^mocha \(main\): 1 passing, 1 failing · exit code 0/m);
});

// The pure parts of Compare On/Off: the webview's HTML and CSP, message validation, the view model of the table
// and matrix, and the compare lens on ablation lines.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wilson95 } from '../../../src/core/sweep/stats.js';
import { compareSides } from '../../../src/core/sweep/stats.js';
import { renderCompareHtml } from '../../../src/extension/panels/compareHtml.js';
import { computePromptLenses } from '../../../src/extension/prompt/promptLenses.js';
import { CompareHostToView, CompareViewToHost, SweepFile, sweepTracePaths, type SweepOutcome } from '../../../src/protocol/sweep.js';
import { compareView } from '../../../webview/compare/model.js';

const outcome = (seed: number, side: string, success: boolean): SweepOutcome => ({ seed, runId: `r${seed}${side}`, tracePath: `/w/.waypoint/runs/r${seed}${side}/trace.jsonl`, success, reason: success ? 'task_completed' : 'turn_cap', turns: success ? 4 : 10, modelCalls: 3 });
const sweep = (): SweepFile =>
  SweepFile.parse({
    schemaVersion: 1,
    id: '20260101-000000-planner.replan_check-stack_blocks',
    kind: 'paired_ablation',
    startedAt: '2026-01-01T00:00:00Z',
    endedAt: '2026-01-01T00:01:00Z',
    status: 'cancelled',
    arch: 'malmm',
    task: 'stack_blocks',
    variant: 'default',
    ablation: 'planner.replan_check',
    seeds: [0, 1, 2],
    model: { kind: 'reference', label: 'reference (scripted, not an LLM)' },
    comparison: compareSides(
      [
        { seed: 0, on: outcome(0, 'on', true), off: outcome(0, 'off', false) },
        { seed: 1, on: outcome(1, 'on', true), off: outcome(1, 'off', true) },
        { seed: 2, on: outcome(2, 'on', false), off: null },
      ],
      'planner.replan_check',
    ),
  });

test('compare HTML: nonce on the one script and style, a CSP that allows nothing else, escaped title', () => {
  const html = renderCompareHtml({ cspSource: 'vscode-webview://x', scriptUri: 'vscode-webview://x/dist/webview/compare.js', nonce: 'AAAAAAAAAAAAAAAAAAAAAA==', title: '<b>t</b>' });
  assert.match(html, /content="default-src 'none'; script-src 'nonce-AAAAAAAAAAAAAAAAAAAAAA=='; style-src 'nonce-AAAAAAAAAAAAAAAAAAAAAA=='/);
  assert.equal(html.match(/<script/g)?.length, 1);
  assert.match(html, /<script nonce="AAAAAAAAAAAAAAAAAAAAAA==" src="vscode-webview:\/\/x\/dist\/webview\/compare\.js">/);
  assert.match(html, /<style nonce="AAAAAAAAAAAAAAAAAAAAAA==">[^<]*var\(--vscode-foreground\)/);
  assert.match(html, /<title>&lt;b&gt;t&lt;\/b&gt;<\/title>/);
  assert.doesNotMatch(html, /https?:/);
  assert.throws(() => renderCompareHtml({ cspSource: 'x', scriptUri: 'y', nonce: 'short', title: 't' }), /nonce must be/);
});

test('messages from the view are validated; only the sweep\'s own traces may be opened', () => {
  assert.ok(CompareViewToHost.safeParse({ type: 'ready' }).success);
  assert.ok(CompareViewToHost.safeParse({ type: 'openRun', tracePath: '/w/t.jsonl' }).success);
  assert.equal(CompareViewToHost.safeParse({ type: 'openRun' }).success, false);
  assert.equal(CompareViewToHost.safeParse({ type: 'runCommand', command: 'rm' }).success, false);
  assert.equal(CompareViewToHost.safeParse({ type: 'openRun', tracePath: 'x'.repeat(5000) }).success, false);
  const f = sweep();
  const allowed = sweepTracePaths(f);
  assert.equal(allowed.size, 5);
  assert.ok(allowed.has('/w/.waypoint/runs/r0off/trace.jsonl'));
  assert.equal(allowed.has('/etc/passwd'), false);
  assert.ok(CompareHostToView.safeParse({ type: 'init', sweep: f, path: '/w/sweep.json' }).success);
  assert.equal(CompareHostToView.safeParse({ type: 'init', sweep: { ...f, schemaVersion: 2 }, path: '' }).success, false);
});

test('view model: side rows with rate and Wilson interval, the per-seed matrix with links and gaps', () => {
  const v = compareView(sweep());
  assert.equal(v.title, 'planner.replan_check: on vs off');
  assert.match(v.subtitle, /malmm · stack_blocks · variant default · 3 seeds · reference .* · cancelled$/);
  const ci = wilson95(2, 3);
  assert.deepEqual(v.sides[0], { side: 'on', successes: '2/3', rate: `67% [${Math.round(100 * ci.low)}%, ${Math.round(100 * ci.high)}%]`, meanTurns: '6.0', meanCalls: '3.0' });
  assert.deepEqual(v.sides[1], { side: 'off', successes: '1/2', rate: '50% [9%, 91%]', meanTurns: '7.0', meanCalls: '3.0' });
  assert.deepEqual(v.matrix.map((m) => [m.seed, m.on.label, m.off.label, m.differs]), [[0, '✓', '✗', true], [1, '✓', '✓', false], [2, '✗', '·', false]]);
  assert.equal(v.matrix[0].off.tracePath, '/w/.waypoint/runs/r0off/trace.jsonl');
  assert.equal(v.matrix[2].off.tracePath, undefined);
  assert.equal(v.matrix[2].off.state, 'missing');
  assert.match(v.matrix[0].off.title, /turn_cap · 10 turns/);
  assert.equal(v.summary, 'Outcome differs on 1 of 3 seeds.');
});

test('every ablation line has a compare lens next to its toggle, passing the prompt and the id', () => {
  const text = '---\nwaypoint:\n  arch: malmm\n  role: planner\n---\n{{#ablation "a.one"}}x{{/ablation}}\n{{#ablation "b.two"}}y{{/ablation}}\n';
  const lenses = computePromptLenses(text, 'file:///w/p.prompt', { variant: 'default', isOn: () => true } as never);
  const compare = lenses.filter((l) => l.command === 'waypoint.compareOnOff');
  assert.deepEqual(compare.map((l) => [l.line, l.title, l.args]), [[5, '⇄ compare', ['file:///w/p.prompt', 'a.one']], [6, '⇄ compare', ['file:///w/p.prompt', 'b.two']]]);
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ablationLensTitle, computePromptLenses, firstPromptError, promptHeader } from '../../../src/extension/prompt/promptLenses.js';
import type { AblationStates } from '../../../src/extension/prompt/variantsFile.js';

const planner = readFileSync(join(process.cwd(), 'src/architectures/malmm/prompts/planner.prompt'), 'utf8');
const states = (off: string[]): AblationStates => ({ variant: 'v', isOn: (id) => !off.includes(id) });

test('header gives the architecture and role', () => {
  assert.deepEqual(promptHeader(planner), { arch: 'malmm', role: 'planner' });
  assert.deepEqual(promptHeader('no front matter'), { arch: undefined, role: undefined });
});

test('run, debug and preview lenses on line 0, one toggle per ablation block on its own line', () => {
  const lenses = computePromptLenses(planner, 'file:///w/planner.prompt', states([]));
  assert.deepEqual(lenses.slice(0, 3).map((l) => [l.line, l.command, l.title]), [
    [0, 'waypoint.runLiveTest', '▶ Run live test'],
    [0, 'waypoint.debugLiveTest', '$(debug-alt) Debug live test'],
    [0, 'waypoint.previewPrompt', 'Preview'],
  ]);
  assert.deepEqual(lenses[1]!.args, ['file:///w/planner.prompt']);
  const toggles = lenses.filter((l) => l.command === 'waypoint.toggleAblation');
  const lines = planner.split('\n');
  const expected = lines.map((l, i) => [l, i] as const).filter(([l]) => /\{\{#ablation "/.test(l));
  assert.equal(toggles.length, expected.length);
  for (const [i, t] of toggles.entries()) {
    assert.equal(t.line, expected[i][1]);
    const id = /\{\{#ablation "([^"]+)"/.exec(expected[i][0])![1];
    assert.deepEqual(t.args, ['file:///w/planner.prompt', id]);
    assert.equal(t.title, `● ${id}: on`);
  }
});

test('a toggle shows the state of the active variant', () => {
  const lenses = computePromptLenses(planner, 'u', states(['planner.replan_check']));
  const t = lenses.find((l) => l.args[1] === 'planner.replan_check');
  assert.equal(t?.title, '○ planner.replan_check: off');
  assert.match(t?.tooltip ?? '', /off in variant 'v'.*turn it on/);
  assert.equal(ablationLensTitle('a.b', true), '● a.b: on');
});

test('the first prompt error names file:line (1-based); a good prompt has none', () => {
  assert.equal(firstPromptError('/p/planner.prompt', planner), undefined);
  const bad = '---\nwaypoint.arch: malmm\nwaypoint.role: coder\n---\nhello\n{{#ablation "a.b"}}\nnever closed\n';
  const err = firstPromptError('/p/coder.prompt', bad);
  assert.match(err ?? '', /\(\/p\/coder\.prompt:\d+\)$/);
  const line = Number(/:(\d+)\)$/.exec(err!)![1]);
  assert.ok(line >= 5 && line <= 7, `line ${line} points into the template`);
  assert.match(firstPromptError('/p/x.prompt', '---\nwaypoint.arch: malmm\n---\nhi\n') ?? '', /waypoint\.role.*\(\/p\/x\.prompt:1\)/);
});

// Completion and hover on analysed prompts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { architectureManifests } from '../../../../src/architectures/manifests.js';
import { analyzePrompt as analyze, completePrompt, hoverPrompt, type Pos } from '../../../../src/core/prompt/analyze.js';

// The host's part: the analysis knows the architectures it is given, here the built-in ones.
const analyzePrompt: typeof analyze = (text, options) => analyze(text, { architectures: architectureManifests, ...options });

const good = readFileSync(new URL('../../../fixtures/prompts/good.prompt', import.meta.url), 'utf8');
/** Analyses `text` with a `‸` marking the cursor, removed before analysis. */
function at(text: string): { a: ReturnType<typeof analyzePrompt>; pos: Pos } {
  const i = text.indexOf('‸');
  const before = text.slice(0, i);
  const line = before.split('\n').length - 1;
  return { a: analyzePrompt(text.slice(0, i) + text.slice(i + 1)), pos: { line, character: i - (before.lastIndexOf('\n') + 1) } };
}
const HEAD = good.slice(0, good.indexOf('{{role "system"}}'));
const labels = (xs: { label: string }[]) => xs.map((x) => x.label);

test('inside {{ : variables with their docs, helpers and else', () => {
  const { a, pos } = at(HEAD + 'Task: {{ta‸}}\n');
  const items = completePrompt(a, pos);
  const task = items.find((x) => x.label === 'task');
  assert.equal(task?.kind, 'variable');
  assert.equal(task?.documentation, 'the natural-language task instruction');
  assert.equal(task?.detail, 'string');
  assert.deepEqual(task?.replace, { start: { line: pos.line, character: pos.character - 2 }, end: pos });
  assert.ok(labels(items).includes('history') && labels(items).includes('json') && labels(items).includes('else'));
  assert.ok(!labels(items).includes('each'), 'block helpers only after {{#');
});

test('after {{# : block helpers (ablation as a snippet) and after {{/ : the open block', () => {
  const { a, pos } = at(HEAD + '{{#‸}}\n');
  const items = completePrompt(a, pos);
  assert.ok(['if', 'each', 'with', 'ablation'].every((h) => labels(items).includes(h)));
  const abl = items.find((x) => x.label === 'ablation')!;
  assert.equal(abl.snippet, true);
  assert.match(abl.insertText!, /^ablation "\$\{1:[^}]+\}" label="\$\{2:[^}]+\}"\}\}\n\$0\n\{\{\/ablation\}\}$/);
  assert.equal(abl.replace!.end.character, pos.character + 2, 'replaces the auto-closed }}');
  const close = at(HEAD + '{{#each api}}\n{{#if x}}\n{{/if}}\n{{/‸\n');
  assert.deepEqual(labels(completePrompt(close.a, close.pos)), ['each']);
});

test('inside {{#ablation " : ablation ids used in the file and known from variants', () => {
  const { a: base, pos } = at(good.replace('{{#ablation "coder.step_by_step.wait"', '{{#ablation "‸'));
  const ids = completePrompt(base, pos);
  assert.deepEqual(labels(ids), ['coder.step_by_step']);
  assert.equal(ids[0].detail, 'One step per block');
  const withKnown = analyzePrompt(base.text, { knownAblationIds: ['planner.extra'] });
  assert.deepEqual(labels(completePrompt(withKnown, pos)), ['coder.step_by_step', 'planner.extra']);
});

test('body text: robot API names of waypoint.arch; front matter: missing Waypoint keys and arch values', () => {
  const { a, pos } = at(HEAD + 'Then call exec‸\n');
  const items = completePrompt(a, pos);
  assert.deepEqual(labels(items), ['execute_trajectory', 'open_gripper', 'close_gripper', 'task_completed']);
  assert.match(items[0].detail!, /^execute_trajectory\(position/);
  const fm = at('---\nwaypoint.role: coder\n‸\n---\n');
  assert.deepEqual(labels(completePrompt(fm.a, fm.pos)), ['config', 'input', 'waypoint.arch', 'waypoint.contextBudgetTokens']);
  const arch = at('---\nwaypoint.arch: ma‸\n---\n');
  // Every architecture with a robot API (the editor filters by the typed prefix).
  const archs = labels(completePrompt(arch.a, arch.pos));
  assert.ok(archs.includes('malmm'));
  assert.deepEqual(archs, Object.keys(arch.a.archApis));
  const comment = at(HEAD + '{{!-- ta‸\n');
  assert.deepEqual(completePrompt(comment.a, comment.pos), []);
});

test('hover: variable type and doc, helper doc, API signature, ablation label, Waypoint key', () => {
  const a = analyzePrompt(good);
  const lineOf = (s: string) => a.text.split('\n').findIndex((l) => l.includes(s));
  const v = hoverPrompt(a, { line: lineOf('Task: {{task}}'), character: 9 });
  assert.equal(v?.variable, 'task');
  assert.match(v!.contents, /\*\*task\*\* `string` · required\n\nthe natural-language task instruction/);
  const path = hoverPrompt(a, { line: lineOf('{{#if ee_yaw}}'), character: 8 });
  assert.equal(path?.variable, 'ee_yaw');
  const helper = hoverPrompt(a, { line: lineOf('{{history}}'), character: 3 });
  assert.match(helper!.contents, /^\*\*history\*\* \(helper\)/);
  const api = hoverPrompt(a, { line: lineOf('Call execute_trajectory'), character: 30 });
  assert.match(api!.contents, /```python\nexecute_trajectory\(position: list\[float\], orientation: float\) -> None\n```/);
  const abl = hoverPrompt(a, { line: lineOf('{{#ablation "coder.step_by_step"'), character: 16 });
  assert.match(abl!.contents, /\*\*Ablation\*\* `coder.step_by_step` — One step per block/);
  assert.match(abl!.contents, /`\{\{else\}\}` part is used instead/);
  const key = hoverPrompt(a, { line: lineOf('waypoint.role:'), character: 3 });
  assert.match(key!.contents, /^\*\*waypoint.role\*\*/);
  const fmVar = hoverPrompt(a, { line: lineOf('    state:'), character: 6 });
  assert.equal(fmVar?.variable, 'state');
  assert.equal(hoverPrompt(a, { line: lineOf('Put the code'), character: 1 }), undefined);
});

// Outline (document symbols), folding ranges and findAblations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { architectureManifests } from '../../../../src/architectures/manifests.js';
import { analyzePrompt as analyze, findAblations, type PromptSymbol } from '../../../../src/core/prompt/analyze.js';

// The host's part: the analysis knows the architectures it is given, here the built-in ones.
const analyzePrompt: typeof analyze = (text, options) => analyze(text, { architectures: architectureManifests, ...options });

const good = readFileSync(new URL('../../../fixtures/prompts/good.prompt', import.meta.url), 'utf8');
const tree = (s: PromptSymbol[]): unknown[] => s.map((x) => (x.children.length ? [`${x.kind}:${x.name}`, tree(x.children)] : `${x.kind}:${x.name}`));

test('outline nests front matter, role messages, sections, ablation blocks and their else parts', () => {
  const a = analyzePrompt(good);
  assert.deepEqual(tree(a.symbols), [
    ['frontMatter:front matter', ['key:config', ['key:input', ['variable:task', 'variable:state', 'variable:api', 'variable:ee_yaw']], 'key:waypoint.arch', 'key:waypoint.role', 'key:waypoint.contextBudgetTokens']],
    ['role:system message', [
      'section:ROBOT FUNCTIONS',
      ['section:CODE RULES', [['ablation:coder.step_by_step', ['ablation:coder.step_by_step.wait', 'else:else']]]],
      ['section:Output format', ['history:history']],
    ]],
    'role:user message',
  ]);
  const rules = a.symbols[1].children[1];
  assert.deepEqual([rules.range.start.line, rules.range.end.line], [23, 34]);
  const abl = rules.children[0];
  assert.equal(abl.detail, 'One step per block');
  assert.deepEqual([abl.range.start.line, abl.range.end.line], [24, 31]);
  assert.deepEqual(abl.selectionRange.start, { line: 24, character: 0 });
});

test('a markdown # heading holds ## and CAPS sections; a role marker ends every open section', () => {
  const a = analyzePrompt('---\nwaypoint.role: x\n---\n{{role "system"}}\n# Title\nRULES:\na\n## More\nb\n{{role "user"}}\nTASK:\nc\n');
  assert.deepEqual(tree(a.symbols.slice(1)), [
    ['role:system message', [['section:Title', ['section:RULES', 'section:More']]]],
    ['role:user message', ['section:TASK']],
  ]);
});

test('folding covers front matter, role messages, sections, ablation blocks (closing tag left visible), comments', () => {
  const a = analyzePrompt(good);
  const f = new Map(a.folds.map((x) => [x.startLine, x]));
  assert.deepEqual(f.get(0), { startLine: 0, endLine: 13 });
  assert.deepEqual(f.get(14), { startLine: 14, endLine: 38 });
  assert.deepEqual(f.get(24), { startLine: 24, endLine: 30, kind: 'region' });
  assert.deepEqual(f.get(29), { startLine: 29, endLine: 30 });
  assert.deepEqual(f.get(33), { startLine: 33, endLine: 34, kind: 'comment' });
  assert.ok(a.folds.every((x) => x.endLine > x.startLine));
});

test('findAblations returns ids, labels, opening lines, else ranges and nesting depth', () => {
  const abl = findAblations(good);
  assert.deepEqual(abl.map((x) => [x.id, x.label, x.line, x.depth, x.closed]), [
    ['coder.step_by_step', 'One step per block', 24, 0, true],
    ['coder.step_by_step.wait', 'Wait for the report', 26, 1, true],
  ]);
  assert.deepEqual(abl[0].elseRange, { start: { line: 29, character: 0 }, end: { line: 31, character: 0 } });
  assert.equal(abl[1].elseRange, undefined);
  assert.deepEqual(abl[0].idRange, { start: { line: 24, character: 12 }, end: { line: 24, character: 32 } });
  const open = findAblations('{{#ablation "a" label="A"}}\nno end\n');
  assert.deepEqual(open.map((x) => [x.id, x.closed, x.line]), [['a', false, 0]]);
});

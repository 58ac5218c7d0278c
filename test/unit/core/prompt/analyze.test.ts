// Diagnostics of analyzePrompt on fixture prompts and inline strings: each kind, with exact positions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { architectureManifests } from '../../../../src/architectures/manifests.js';
import { analyzePrompt as analyze, type PromptDiagnostic } from '../../../../src/core/prompt/analyze.js';
import { bigPrompt } from '../../../fixtures/prompts/bigPrompt.js';

// The host's part: the analysis knows the architectures it is given, here the built-in ones.
const analyzePrompt: typeof analyze = (text, options) => analyze(text, { architectures: architectureManifests, ...options });

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/prompts/${name}`, import.meta.url), 'utf8');
const codes = (ds: PromptDiagnostic[]) => ds.map((d) => d.code);
const at = (d: PromptDiagnostic) => `${d.range.start.line + 1}:${d.range.start.character + 1}`;
const FM = (extra = '', schema = '    task: string, the task\n', role = 'planner') =>
  `---\ninput:\n  schema:\n${schema}waypoint.arch: malmm\nwaypoint.role: ${role}\n${extra}---\n{{role "system"}}\nYou write code.\n`;

test('a well-formed prompt has no diagnostics', () => {
  const a = analyzePrompt(fixture('good.prompt'));
  assert.deepEqual(a.diagnostics, []);
  assert.equal(a.frontMatter.role, 'agent');
  assert.equal(a.frontMatter.arch, 'malmm');
  assert.equal(a.frontMatter.budgetTokens, 8000);
  assert.deepEqual(a.variables.map((v) => [v.name, v.type, v.optional]), [
    ['task', 'string', false],
    ['state', 'string', false],
    ['api', 'array<any>', false],
    ['ee_yaw', 'string', true],
  ]);
  assert.equal(a.variables[0].doc, 'the natural-language task instruction');
});

test('YAML errors carry the parser position, shifted to the file line (front matter starts on line 2)', () => {
  const a = analyzePrompt(fixture('yamlError.prompt'));
  assert.deepEqual(codes(a.diagnostics), ['yaml']);
  assert.equal(at(a.diagnostics[0]), '6:1');
  assert.match(a.diagnostics[0].message, /^YAML: Flow sequence/);
  const dup = analyzePrompt(FM('waypoint.role: planner\n'));
  const d = dup.diagnostics.find((x) => x.code === 'yaml');
  assert.ok(d, 'duplicate key reported');
  assert.equal(at(d), '7:1');
  assert.match(d.message, /unique/);
});

test('an unclosed front matter and a non-mapping front matter are reported', () => {
  const a = analyzePrompt('---\nwaypoint.role: coder\n{{x}}\n');
  assert.ok(a.diagnostics.some((d) => d.code === 'front-matter' && /never closed/.test(d.message)));
  const b = analyzePrompt('---\n- a\n- b\n---\nhello\n');
  assert.ok(b.diagnostics.some((d) => d.code === 'front-matter' && /mapping/.test(d.message)));
});

test('Handlebars syntax errors map to file lines after the front matter', () => {
  const a = analyzePrompt(fixture('hbsError.prompt'));
  assert.deepEqual(codes(a.diagnostics), ['hbs-parse']);
  assert.equal(at(a.diagnostics[0]), '11:28');
  assert.match(a.diagnostics[0].message, /expected a value after 'indent='/);
  const mismatch = analyzePrompt(FM() + '{{#if task}}\nx\n{{/each}}\n');
  assert.ok(mismatch.diagnostics.some((d) => d.code === 'hbs-parse' && /\{\{\/each\}\} does not match the open block \{\{#if\}\}/.test(d.message)));
  const stray = analyzePrompt(FM() + 'a {{else}} b\n');
  assert.ok(stray.diagnostics.some((d) => d.code === 'hbs-parse' && at(d) === '10:3'));
  const triple = analyzePrompt(FM() + '{"a": {{task}}}\n');
  assert.ok(triple.diagnostics.some((d) => d.code === 'hbs-parse'), '`}}}` after a plain mustache is a Handlebars error');
});

test('unknown variables and helpers: against what the architecture passes the role (errors) or, for no known role, input.schema (warnings)', () => {
  const a = analyzePrompt(fixture('unknownNames.prompt'));
  assert.deepEqual(codes(a.diagnostics), ['undefined-variable', 'unknown-helper', 'undefined-variable']);
  assert.equal(at(a.diagnostics[0]), '10:9');
  assert.match(a.diagnostics[0].message, /'tsk' \(did you mean 'task'\?\): malmm's planner prompt is given task, table_top_z, x_range, y_range, axes/);
  assert.equal(a.diagnostics[0].severity, 'error');
  assert.match(a.diagnostics[1].message, /Unknown helper 'shout'/);
  assert.equal(a.diagnostics[1].severity, 'error');
  // `items` is not given to the planner; `{{name}}` inside its each is an item field of an unknown list: not reported.
  assert.match(a.diagnostics[2].message, /'items'/);
  // A role no manifest declares: input.schema is all there is, and an undeclared name is a warning.
  const tester = (schema: string, body: string) => analyzePrompt(FM('', schema, 'tester') + body);
  const loose = tester('    task: string, the task\n', '{{task}} {{tsk}}\n');
  assert.deepEqual(loose.diagnostics.map((d) => [d.code, d.severity]), [['unknown-variable', 'warning']]);
  assert.match(loose.diagnostics[0].message, /'tsk'.*did you mean 'task'/);
  const ok = tester('    task: string, the task\n    list(array, items): any\n', '{{#each list as |it i|}}{{it.x}} {{i}} {{@index}} {{../task}} {{this}}{{/each}}{{#with task}}{{length}}{{/with}}{{lookup list 0}} {{@root.task}}\n');
  assert.deepEqual(ok.diagnostics, []);
  const up = tester('    task: string, the task\n', '{{#each task}}{{../nope}}{{/each}}{{@root.nope2}}\n');
  assert.deepEqual(up.diagnostics.map((d) => d.message.match(/'(\w+)'/)![1]), ['nope', 'nope2']);
  const notBlock = analyzePrompt(FM() + '{{ablation "x.y"}}\n');
  assert.ok(notBlock.diagnostics.some((d) => d.code === 'ablation-not-block'));
});

test('ablation blocks: duplicate ids (with the first as related), invalid ids, unclosed blocks', () => {
  const a = analyzePrompt(fixture('ablationErrors.prompt'));
  assert.deepEqual(codes(a.diagnostics), ['ablation-duplicate', 'ablation-invalid-id', 'ablation-unclosed']);
  const [dup, bad, open] = a.diagnostics;
  assert.equal(at(dup), '13:13');
  assert.equal(dup.related?.[0].range.start.line, 9);
  assert.equal(at(bad), '16:13');
  assert.match(bad.message, /'Bad Id!' is invalid/);
  assert.equal(at(open), '19:1');
  assert.match(open.message, /'coder.unclosed' is never closed/);
  assert.match(dup.message, /'coder.rules' is used again with default off; its first block \(line 10\) defaults on/);
  // One id over several blocks with the same default is one switch in several places, not a mistake.
  const shared = analyzePrompt(FM() + '{{#ablation "x.y"}}a{{/ablation}} {{#ablation "x.y"}}b{{/ablation}} {{#ablation "x.z" default="off"}}c{{/ablation}}{{#ablation "x.z" default="off"}}d{{/ablation}}\n');
  assert.deepEqual(shared.diagnostics.filter((d) => d.severity !== 'hint'), []);
  const noId = analyzePrompt(FM() + '{{#ablation label="x"}}a{{/ablation}}{{#ablation task}}b{{/ablation}}\n');
  assert.deepEqual(noId.diagnostics.map((d) => d.code), ['ablation-invalid-id', 'ablation-invalid-id']);
});

test('missing waypoint.role, missing arch, role marker mismatch', () => {
  const a = analyzePrompt(fixture('missingRole.prompt'));
  assert.deepEqual(codes(a.diagnostics), ['missing-role']);
  assert.equal(a.diagnostics[0].severity, 'error');
  assert.equal(at(a.diagnostics[0]), '1:1');
  const none = analyzePrompt('Just text, no front matter.\n');
  assert.deepEqual(codes(none.diagnostics).sort(), ['missing-role', 'unknown-arch']);
  // The role travels as request metadata now: an old marker line is flagged as obsolete prompt text.
  const marker = analyzePrompt(FM().replace('You write code.', '[waypoint-role: malmm/planner]') + '{{task}}\n');
  assert.deepEqual(codes(marker.diagnostics), ['role-marker']);
  assert.match(marker.diagnostics[0]!.message, /Obsolete marker line.*would reach the model as prompt text/);
  const noMarker = analyzePrompt(FM() + '{{task}}\n');
  assert.deepEqual(codes(noMarker.diagnostics), []);
});

test('context budget: static text estimate (chars/4) over waypoint.contextBudgetTokens, per variant', () => {
  const a = analyzePrompt(fixture('budget.prompt'));
  assert.deepEqual(codes(a.diagnostics), ['budget']);
  assert.equal(at(a.diagnostics[0]), '7:31');
  assert.match(a.diagnostics[0].message, /^Estimated \d+ tokens .*estimate.* exceed waypoint\.contextBudgetTokens 20$/);
  const body = '{{#ablation "a.long" label="L"}}' + 'x'.repeat(400) + '{{else}}short{{/ablation}}\n';
  const on = analyzePrompt(FM('waypoint.contextBudgetTokens: 50\n') + body);
  assert.ok(on.diagnostics.some((d) => d.code === 'budget'));
  const off = analyzePrompt(FM('waypoint.contextBudgetTokens: 50\n') + body, { ablationsOff: ['a.long'] });
  assert.ok(!off.diagnostics.some((d) => d.code === 'budget'), 'with the ablation off only the else part counts');
  assert.ok(off.staticTokenEstimate < 30 && on.staticTokenEstimate > 100);
});

test('schema conventions: undocumented, unused, non-scalar Picoschema types, nested waypoint map', () => {
  const a = analyzePrompt(FM('', '    task: string\n    extra: string, never used\n    api: array, the functions\n', 'tester') + '{{task}} {{api}}\n');
  assert.deepEqual(codes(a.diagnostics), ['undocumented-variable', 'unused-variable', 'schema']);
  assert.equal(a.diagnostics[1].unnecessary, true);
  assert.match(a.diagnostics[2].message, /could not find schema with name 'array'.*api\(array, the functions\): any/);
  const nested = analyzePrompt('---\nwaypoint:\n  role: coder\n---\nhi\n');
  assert.ok(nested.diagnostics.some((d) => d.code === 'front-matter' && /dotted keys/.test(d.message)));
  assert.ok(nested.diagnostics.some((d) => d.code === 'missing-role'));
});

test('CRLF files keep exact columns', () => {
  const text = fixture('hbsError.prompt').replace(/\n/g, '\r\n');
  const a = analyzePrompt(text);
  assert.deepEqual(codes(a.diagnostics), ['hbs-parse']);
  assert.equal(at(a.diagnostics[0]), '11:28');
});

test('a 2000-line prompt analyses completely (timing is in test/bench/lsp.bench.ts)', () => {
  const a = analyzePrompt(bigPrompt(2000));
  assert.deepEqual(a.diagnostics, []);
  assert.ok(a.ablations.length > 150);
  assert.ok(a.folds.length > 500);
});

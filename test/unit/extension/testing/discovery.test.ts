// Test discovery: the tests file's expansion into the architecture -> task -> seed (-> variant) tree with stable
// ids and source lines, the default set, sweep files, and bad input as problems on the right line (no throw).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSweepSpec } from '../../../../src/core/sweep/spec.js';
import { testCatalog } from '../../../../src/extension/testing/catalog.js';
import { buildTree, casesUsingPrompt, defaultCases, discoverTests, selectCases, type DiscoveryInput, type TreeNode } from '../../../../src/extension/testing/discovery.js';
import { parseTestsFile } from '../../../../src/extension/testing/testsFile.js';

const FILE = '/ws/.waypoint/tests.yaml';
const catalog = testCatalog();
const input = (text: string | undefined, more: Partial<DiscoveryInput> = {}): DiscoveryInput => ({ catalog, ...(text !== undefined ? { testsFile: { path: FILE, text } } : {}), sweeps: [], workspaceVariants: [], parseSweep: parseSweepSpec, ...more });
const labels = (nodes: readonly TreeNode[]): unknown[] => nodes.map((n) => (n.children.length ? { [n.label]: labels(n.children) } : n.label));

test('a tests file expands to architecture -> task -> seed (-> variant), with ids, models and the entry’s line', () => {
  const text = [
    'model: reference', // 1
    'tests:', // 2
    '  - architecture: malmm', // 3
    '    tasks: [stack_blocks, put_block]', // 4
    '    seeds: [0, 1]', // 5
    '  - architecture: malmm', // 6
    '    seeds: {from: 1, count: 1}', // 7
    '    model: reference-flawed', // 8
    '  - architecture: roco', // 9
    '    seeds: 2', // 10
    '    variants: [default, no_history]', // 11
    '    limits: {maxRounds: 4}', // 12
  ].join('\n');
  const d = discoverTests(input(text));
  assert.deepEqual(d.problems, []);
  assert.equal(d.isDefaultSet, false);
  assert.deepEqual(
    d.cases.map((c) => c.id),
    ['malmm/stack_blocks/s0', 'malmm/stack_blocks/s1', 'malmm/put_block/s0', 'malmm/put_block/s1', 'malmm/stack_blocks/s1@reference-flawed', 'roco/sort_cubes/s0/default', 'roco/sort_cubes/s0/no_history', 'roco/sort_cubes/s1/default', 'roco/sort_cubes/s1/no_history'],
  );
  const flawed = d.cases.find((c) => c.model === 'reference-flawed')!;
  assert.deepEqual(flawed.source, { file: FILE, line: 6 });
  assert.equal(d.cases.find((c) => c.arch === 'roco')!.limits!.maxRounds, 4);
  assert.equal(d.cases.find((c) => c.id === 'roco/sort_cubes/s1/no_history')!.variant, 'no_history');
  assert.deepEqual(labels(buildTree(d.cases, catalog)), [
    { MALMM: [{ stack_blocks: ['seed 0', 'seed 1', 'seed 1 · reference-flawed'] }, { put_block: ['seed 0', 'seed 1'] }] },
    { RoCo: [{ sort_cubes: [{ 'seed 0': ['default', 'no_history'] }, { 'seed 1': ['default', 'no_history'] }] }] },
  ]);
});

test('without a tests file or a sweep file: each architecture’s default task, seed 0, the reference model', () => {
  const d = discoverTests(input(undefined));
  assert.equal(d.isDefaultSet, true);
  assert.deepEqual(d.cases.map((c) => c.id), ['malmm/stack_blocks/s0', 'roco/sort_cubes/s0', 'actctx/clear_table_bin/s0', 'llamar/put_bread_lettuce_tomato_fridge/s0', 'trajgen/draw_shape/s0']);
  assert.ok(d.cases.every((c) => c.model === 'reference' && c.source === undefined && c.variant === undefined));
  assert.deepEqual(defaultCases(catalog), d.cases);
});

test('bad YAML, a schema error and an unknown key are problems on their line; nothing throws', () => {
  const syntax = discoverTests(input('tests:\n  - architecture: malmm\n    seeds: [0, 1\n'));
  assert.equal(syntax.cases.length, 0);
  assert.equal(syntax.problems.length, 1);
  assert.match(syntax.problems[0]!.message, /^invalid YAML: /);
  assert.equal(syntax.problems[0]!.file, FILE);
  assert.ok(syntax.problems[0]!.line >= 3, `line ${syntax.problems[0]!.line}`);

  const schema = discoverTests(input('tests:\n  - architecture: malmm\n    seeds: [0, one]\n'));
  assert.deepEqual(schema.problems, [{ file: FILE, line: 3, message: schema.problems[0]!.message }]);
  assert.match(schema.problems[0]!.message, /^tests\.0\.seeds: /);

  const key = parseTestsFile('model: reference\ntests:\n  - arch: malmm\n', FILE);
  assert.equal(key.problem?.line, 3);
  assert.match(key.problem!.message, /^tests\.0\.arch: .*\(did you mean architecture\?\)$/);

  const model = discoverTests(input('model: gpt-4\ntests:\n  - architecture: malmm\n'));
  assert.equal(model.problems[0]!.line, 1);
  assert.match(model.problems[0]!.message, /^model: model must be reference, reference-flawed, settings or openai:<model-name>/);

  assert.equal(discoverTests(input('')).problems[0]!.message, 'tests: Invalid input: expected array, received undefined');
});

test('unknown ids are problems on their own line; the rest of the file still gives its tests', () => {
  const text = [
    'tests:', // 1
    '  - architecture: malmm', // 2
    '    tasks:', // 3
    '      - stack_blocks', // 4
    '      - stack_bloks', // 5
    '    variants: [ma, mine, nope]', // 6
    '    limits: {maxTurns: 40, maxTurn: 3}', // 7
    '  - architecture: malmn', // 8
    '  - architecture: trajgen', // 9
  ].join('\n');
  const d = discoverTests(input(text, { workspaceVariants: ['mine'] }));
  assert.deepEqual(
    d.problems.map((p) => [p.line, p.message.split(';')[0]]),
    [
      [5, "unknown task 'stack_bloks' for malmm"],
      [6, "unknown variant 'nope' for malmm"],
      [7, "unknown limit 'maxTurn' for malmm"],
      [8, "unknown architecture 'malmn'"],
    ],
  );
  assert.deepEqual(d.cases.map((c) => c.id), ['malmm/stack_blocks/s0/ma', 'malmm/stack_blocks/s0/mine', 'trajgen/draw_shape/s0']);
});

test('sweep files: cells with their ablations and model, merged into the tree once; a bad sweep file is a problem with its line', () => {
  const sweep = {
    path: '/ws/recipes/topo.sweep.yaml',
    text: ['arch: malmm', 'tasks: [stack_blocks]', 'variants:', '  - malmm', '  - {name: no_define, variant: malmm, ablations: {coder.define_in_same_block: false}}', 'seeds: 2', 'model: {name: reference-flawed}'].join('\n'),
  };
  const d = discoverTests(input('tests:\n  - architecture: malmm\n    seeds: [1]\n    model: reference-flawed\n    variants: [malmm]\n', { sweeps: [sweep] }));
  assert.deepEqual(d.problems, []);
  assert.deepEqual(d.cases.map((c) => c.id), [
    'malmm/stack_blocks/s1@reference-flawed/malmm',
    'malmm/stack_blocks/s0@reference-flawed/malmm',
    'malmm/stack_blocks/s0@reference-flawed/no_define',
    'malmm/stack_blocks/s1@reference-flawed/no_define',
  ]);
  // The test both name keeps the tests file's line; the sweep's own cells point at their variant line.
  assert.equal(d.cases[0]!.source!.file, FILE);
  const cell = d.cases.find((c) => c.cell === 'no_define')!;
  assert.deepEqual(cell.ablations, { 'coder.define_in_same_block': false });
  assert.deepEqual(cell.source, { file: sweep.path, line: 5 });

  const bad = discoverTests(input(undefined, { sweeps: [{ path: '/ws/x.sweep.yaml', text: 'arch: malmm\ntasks: [stack_blocks]\nvariants: [malmm]\nseeds: 2\nworkers: 3\n' }] }));
  assert.equal(bad.isDefaultSet, false);
  assert.deepEqual(bad.problems.map((p) => [p.file, p.line]), [['/ws/x.sweep.yaml', 5]]);
  assert.match(bad.problems[0]!.message, /workers/);
});

test('selecting tests by node, with exclusions; the tests a saved prompt affects', () => {
  const d = discoverTests(input('tests:\n  - architecture: malmm\n    seeds: 2\n    variants: [malmm, ma]\n  - architecture: roco\n'));
  const tree = buildTree(d.cases, catalog);
  assert.deepEqual(selectCases(tree, ['malmm/stack_blocks/s1']).map((c) => c.id), ['malmm/stack_blocks/s1/malmm', 'malmm/stack_blocks/s1/ma']);
  assert.deepEqual(selectCases(tree, ['malmm'], ['malmm/stack_blocks/s0', 'malmm/stack_blocks/s1/ma']).map((c) => c.id), ['malmm/stack_blocks/s1/malmm']);
  assert.equal(selectCases(tree, undefined).length, 5);
  const prompts = new Map([
    ['malmm', ['/ws/prompts/malmm/coder.prompt', '/ext/prompts/malmm/planner.prompt']],
    ['roco', ['/ext/prompts/roco/dialog.prompt']],
  ]);
  assert.deepEqual(casesUsingPrompt(d.cases, '/ws/prompts/malmm/coder.prompt', prompts).map((c) => c.arch), ['malmm', 'malmm', 'malmm', 'malmm']);
  assert.deepEqual(casesUsingPrompt(d.cases, '/ext/prompts/roco/dialog.prompt', prompts).map((c) => c.id), ['roco/sort_cubes/s0']);
  // The built-in coder.prompt is not used when the workspace overrides it.
  assert.deepEqual(casesUsingPrompt(d.cases, '/ext/prompts/malmm/coder.prompt', prompts), []);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { malmm } from '../../../src/architectures/malmm/index.js';
import { DEFAULT_VARIANT, parseVariants, resolveVariant } from '../../../src/core/prompt/variants.js';
import { DEFAULT_VARIANT_NAME, variantChoices } from '../../../src/extension/prompt/variantChoices.js';
import { ablationStates, readVariants, setAblationText, setActiveVariantText } from '../../../src/extension/prompt/variantsFile.js';

const builtIns = malmm.builtInVariants;

test('the light default-variant name matches core', () => {
  assert.equal(DEFAULT_VARIANT_NAME, DEFAULT_VARIANT);
});

test('every id is on unless the active variant turns it off', () => {
  const set = parseVariants('v.yaml', 'active: lean\nvariants:\n  lean:\n    off: [planner.replan_check]\n');
  const s = ablationStates(set, builtIns);
  assert.equal(s.variant, 'lean');
  assert.equal(s.isOn('planner.replan_check'), false);
  assert.equal(s.isOn('planner.collision_avoidance'), true);
});

test('an unknown active variant is reported and treated as default', () => {
  const s = ablationStates(parseVariants('v.yaml', 'active: nope\n'), builtIns);
  assert.equal(s.variant, 'default');
  assert.match(s.problem ?? '', /unknown variant 'nope'/);
  assert.equal(s.isOn('anything'), true);
});

test('toggling creates the file from nothing and flips back', () => {
  const off = setAblationText('', 'default', undefined, 'planner.replan_check', false);
  const set = parseVariants('v.yaml', off);
  assert.equal(ablationStates(set, {}).isOn('planner.replan_check'), false);
  const on = setAblationText(off, 'default', undefined, 'planner.replan_check', true);
  assert.equal(ablationStates(parseVariants('v.yaml', on), {}).isOn('planner.replan_check'), true);
});

test('toggling keeps comments and other variants', () => {
  const text = '# my variants\nactive: default\nvariants:\n  other: # keep me\n    off: [a.b]\n';
  const next = setAblationText(text, 'default', undefined, 'x.y', false);
  assert.match(next, /# my variants/);
  assert.match(next, /# keep me/);
  const set = parseVariants('v.yaml', next);
  assert.deepEqual(set.variants.other.off, ['a.b']);
  assert.deepEqual(set.variants.default.off, ['x.y']);
});

test('toggling in a built-in variant copies its topology into the file first', () => {
  const name = Object.keys(builtIns).find((n) => builtIns[n].agent);
  assert.ok(name, 'MALMM has a built-in variant with an agent topology');
  const next = setAblationText('active: ' + name + '\n', name, builtIns[name], 'planner.replan_check', false);
  const resolved = resolveVariant(name, parseVariants('v.yaml', next), builtIns);
  assert.equal(resolved.agent, builtIns[name].agent, 'the topology survives the workspace override');
  assert.equal(resolved.ablations['planner.replan_check'], false);
});

test('setActiveVariantText sets or adds active and keeps the rest', () => {
  assert.equal(parseVariants('v.yaml', setActiveVariantText('', 'sa')).active, 'sa');
  const next = setActiveVariantText('active: default\nvariants:\n  lean:\n    off: [a]\n', 'lean');
  const set = parseVariants('v.yaml', next);
  assert.equal(set.active, 'lean');
  assert.deepEqual(set.variants.lean.off, ['a']);
  assert.throws(() => setActiveVariantText('', 'bad name'), /not valid/);
});

test('readVariants reports an unusable file as one line with file:line and falls back to default', () => {
  const r = readVariants('/w/.waypoint/variants.yaml', 'active: [unclosed\n');
  assert.equal(r.set.active, 'default');
  assert.match(r.error ?? '', /\/w\/\.waypoint\/variants\.yaml/);
  assert.equal(readVariants('x', undefined).error, undefined);
});

test('variantChoices lists default, built-ins and workspace variants, marking the active one', () => {
  const set = parseVariants('v.yaml', 'active: lean\nvariants:\n  lean:\n    off: [a, b]\n');
  const choices = variantChoices(set, builtIns);
  assert.equal(choices[0].name, 'default');
  for (const n of Object.keys(builtIns)) assert.ok(choices.some((c) => c.name === n && c.source === 'built-in'));
  const lean = choices.find((c) => c.name === 'lean');
  assert.deepEqual({ source: lean?.source, active: lean?.active, off: lean?.off }, { source: 'workspace', active: true, off: ['a', 'b'] });
  assert.equal(choices.filter((c) => c.active).length, 1);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseVariants, resolveVariant, setAblationInVariantsText } from '../../../../src/core/prompt/variants.js';
import { PromptError } from '../../../../src/core/prompt/render.js';

const TEXT = `# my variants
active: no_replan
variants:
  no_replan:
    description: no step checks
    off: [planner.replan_check]
  ma_short:
    agent: ma
    off: [coder.step_by_step]
`;

test('variants file: active variant, off lists, agent topology, built-ins, default', () => {
  const set = parseVariants('v.yaml', TEXT);
  assert.equal(set.active, 'no_replan');
  assert.deepEqual(resolveVariant('no_replan', set).ablations, { 'planner.replan_check': false });
  assert.equal(resolveVariant('ma_short', set).agent, 'ma');
  assert.deepEqual(resolveVariant('default', set).ablations, {});
  assert.equal(resolveVariant('sa', set, { sa: { agent: 'sa' } }).agent, 'sa');
  assert.throws(() => resolveVariant('nope', set, { sa: {} }), /unknown variant 'nope'; known: default, ma_short, no_replan, sa/);
  assert.throws(() => resolveVariant('no_replann', set, { sa: {} }), /unknown variant 'no_replann' \(did you mean 'no_replan'\?\); known: default, ma_short, no_replan, sa$/);
});

test('variants file errors name the file and what is wrong', () => {
  assert.throws(() => parseVariants('v.yaml', 'variants:\n  a:\n    off: [Bad Id]\n'), (e: unknown) => e instanceof PromptError && /variants\.a\.off\.0/.test(e.message));
  assert.throws(() => parseVariants('v.yaml', 'variants: [\n'), (e: unknown) => e instanceof PromptError && /invalid YAML/.test(e.message));
});

test('flipping an ablation rewrites the file and keeps comments and other variants', () => {
  const off = setAblationInVariantsText(TEXT, 'no_replan', 'coder.reminder', false);
  assert.match(off, /# my variants/);
  assert.deepEqual(resolveVariant('no_replan', parseVariants('v', off)).ablations, { 'planner.replan_check': false, 'coder.reminder': false });
  const on = setAblationInVariantsText(off, 'no_replan', 'planner.replan_check', true);
  assert.deepEqual(resolveVariant('no_replan', parseVariants('v', on)).ablations, { 'coder.reminder': false });
  assert.equal(resolveVariant('ma_short', parseVariants('v', on)).agent, 'ma');
  const fresh = setAblationInVariantsText('', 'default', 'x.y', false);
  assert.deepEqual(resolveVariant('default', parseVariants('v', fresh)).ablations, { 'x.y': false });
});

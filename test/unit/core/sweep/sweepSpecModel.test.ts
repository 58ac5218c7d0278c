// A sweep file's model section: the output-limit field `waypoint doctor` recommends reaches the episodes' model spec,
// and a sweep that does not set it keeps its episode keys.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { modelSpecOf, parseSweepSpec, SweepSpecError } from '../../../../src/core/sweep/spec.js';

const spec = (model: string) => parseSweepSpec(`arch: malmm\ntasks: [stack_blocks]\nvariants: [malmm]\nseeds: 1\nmodel: ${model}\n`, 'test.yaml');

test('model.maxTokensField reaches the model spec; unset, the spec has no such key', () => {
  const withField = modelSpecOf(spec('{name: openai:gpt-5-mini, maxTokensField: max_completion_tokens}').model, {});
  assert.equal(withField.kind === 'openai' && withField.maxTokensField, 'max_completion_tokens');
  const without = modelSpecOf(spec('{name: openai:gpt-4o-mini}').model, {});
  assert.ok(!('maxTokensField' in without), 'existing sweeps hash the same model spec as before');
  assert.throws(() => spec('{name: openai:x, maxTokensField: max_output_tokens}'), SweepSpecError);
});

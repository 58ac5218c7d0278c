// A sweep file's model section: the output-limit field `waypoint doctor` recommends reaches the episodes' model spec,
// and a sweep that does not set it keeps its episode keys; a local embedding folder is checked while planning.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { architectures } from '../../../../src/architectures/registry.js';
import { nodeIO } from '../../../../src/core/node/nodeHost.js';
import { modelSpecOf, parseSweepSpec, planSweep, SweepSpecError } from '../../../../src/core/sweep/spec.js';

const spec = (model: string) => parseSweepSpec(`arch: malmm\ntasks: [stack_blocks]\nvariants: [malmm]\nseeds: 1\nmodel: ${model}\n`, 'test.yaml');

test('model.maxTokensField reaches the model spec; unset, the spec has no such key', () => {
  const withField = modelSpecOf(spec('{name: openai:gpt-5-mini, maxTokensField: max_completion_tokens}').model, {});
  assert.equal(withField.kind === 'openai' && withField.maxTokensField, 'max_completion_tokens');
  const without = modelSpecOf(spec('{name: openai:gpt-4o-mini}').model, {});
  assert.ok(!('maxTokensField' in without), 'existing sweeps hash the same model spec as before');
  assert.throws(() => spec('{name: openai:x, maxTokensField: max_output_tokens}'), SweepSpecError);
});

test("a LLaMAR sweep's local embedding folder: checked before planning ends (the file's line and the folder's cause), and part of every episode key", async () => {
  const llamar = (embedding: string) => parseSweepSpec(`arch: llamar\ntasks: [put_bread_lettuce_tomato_fridge]\nvariants: [default]\nseeds: 1\nmodel:\n  name: reference\n  embeddingModel: ${embedding}\n`, 'local.yaml');
  const ctx = { io: nodeIO, architectures, workspace: process.cwd(), builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), file: 'local.yaml' };
  const good = await planSweep(llamar('local:test/fixtures/tiny-sbert'), ctx);
  const other = await planSweep(llamar('reference-embedding'), ctx);
  assert.equal(good.model.embeddingModel, 'local:test/fixtures/tiny-sbert');
  assert.notEqual(good.episodes[0]!.key, other.episodes[0]!.key);
  await assert.rejects(planSweep(llamar('local:test/fixtures/no-such-model'), ctx), (e: Error) => {
    assert.ok(e instanceof SweepSpecError);
    assert.equal(e.message, `local.yaml:7: local embedding model: no such folder: ${join(process.cwd(), 'test/fixtures/no-such-model')}`);
    return true;
  });
});

// Architecture verdicts and run advice from findings (pure), and the needs read from manifests and prompts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { architectureManifests } from '../../../../../src/architectures/manifests.js';
import type { Findings } from '../../../../../src/core/llm/doctor/probes.js';
import { archVerdicts, contextNeed, LLM_GROWTH, loadArchNeeds, runAdvice, type AdviceContext, type ArchNeeds } from '../../../../../src/core/llm/doctor/verdicts.js';
import { nodeIO } from '../../../../../src/core/node/nodeHost.js';

const promptRoot = join(process.cwd(), 'src', 'architectures');
let needs: ArchNeeds[];
before(async () => {
  needs = await loadArchNeeds(nodeIO, promptRoot, architectureManifests.list());
});

test('every built-in architecture declares what it asks of a model', () => {
  for (const m of architectureManifests.list()) {
    assert.ok(m.modelNeeds, `${m.id} has no modelNeeds`);
    assert.ok(m.modelNeeds.longestRequest.tokens > 500, m.id);
    assert.ok(m.modelNeeds.longestRequest.measuredOn && m.modelNeeds.longestRequest.grows, m.id);
  }
});

test('needs come from the role prompts: the largest maxOutputTokens and every temperature they set', () => {
  assert.deepEqual(needs.map((n) => n.id), [...architectureManifests.ids()]);
  for (const n of needs) {
    const m = architectureManifests.find(n.id)!;
    const configs = m.roles.map((r) => {
      const src = readFileSync(join(promptRoot, n.id, 'prompts', r.promptFile), 'utf8');
      return { file: `${n.id}/${r.promptFile}`, max: Number(/maxOutputTokens:\s*(\d+)/.exec(src)?.[1]), temp: Number(/temperature:\s*([\d.]+)/.exec(src)?.[1]) };
    });
    const largest = Math.max(...configs.map((c) => c.max));
    assert.equal(n.maxOutput?.tokens, largest, n.id);
    assert.equal(configs.find((c) => c.max === largest)!.file, n.maxOutput!.prompt);
    assert.deepEqual(n.temperatures, [...new Set(configs.map((c) => c.temp))].sort());
  }
});

const base = (over: Partial<Findings> = {}): Findings => ({
  baseUrl: 'http://gpu:8000/v1',
  model: 'm',
  provider: { id: 'vllm', why: 'test', label: 'vLLM' },
  probes: [],
  chatOk: true,
  maxTokensField: 'max_tokens',
  temperatureZero: true,
  seed: true,
  ...over,
});
const ctx: AdviceContext = { modelArg: 'openai:m', baseUrl: 'http://gpu:8000/v1', apiKeyEnv: 'OPENAI_API_KEY', keyGiven: false };
const arch = (over: Partial<ArchNeeds> = {}): ArchNeeds => ({ id: 'x', label: 'X', maxOutput: { tokens: 1000, prompt: 'x/a.prompt' }, temperatures: [0], modelNeeds: { longestRequest: { tokens: 2000, measuredOn: 't', grows: 'g' } }, ...over });
const one = (f: Findings, a: ArchNeeds = arch(), c: AdviceContext = ctx) => archVerdicts(f, [a], c)[0]!;

test('context: twice the measured request plus the output limit is comfortable; the request plus the limit is the minimum', () => {
  assert.deepEqual(contextNeed(arch()), { minimum: 3000, comfortable: 2000 * LLM_GROWTH + 1000 });
  assert.equal(one(base({ context: { tokens: 5000, source: 's' } })).mark, 'ok');
  const tight = one(base({ context: { tokens: 4999, source: 's' } }));
  assert.equal(tight.mark, 'unknown');
  // 4999 - 2×2000 = 999 → 960 of output leaves room for an LLM-sized prompt.
  assert.deepEqual(tight.flags, ['--max-tokens 960']);
  const short = one(base({ context: { tokens: 2048, source: 's' } }));
  assert.equal(short.mark, 'fail');
  assert.deepEqual(short.flags, []);
  assert.match(short.reasons[0]!, /^context 2048 is too short: its requests reach ≈2000 tokens .*, plus up to 1000 of output; 8192 or more fits$/);
  // Unknown context: only a need past 8k is worth a doubt.
  assert.equal(one(base()).mark, 'ok');
  assert.equal(one(base(), arch({ modelNeeds: { longestRequest: { tokens: 9000, measuredOn: 't', grows: 'g' } } })).mark, 'unknown');
  // No declared needs: nothing said about context.
  assert.equal(one(base({ context: { tokens: 10, source: 's' } }), arch({ modelNeeds: undefined })).mark, 'ok');
});

test('blocking findings: chat, refused output limits, refused temperature 0, an Azure deployment URL', () => {
  assert.deepEqual(one(base({ chatOk: false })).reasons, ['chat completions do not work']);
  assert.match(one(base({ maxTokensField: 'none' })).reasons[0]!, /refuses max_tokens and max_completion_tokens/);
  assert.equal(one(base({ maxTokensField: 'none' }), arch({ maxOutput: undefined })).mark, 'ok', 'no output limit sent, nothing refused');
  assert.equal(one(base({ temperatureZero: false })).mark, 'fail');
  assert.equal(one(base({ temperatureZero: false }), arch({ temperatures: [] })).mark, 'ok', 'prompts without a temperature are not blocked');
  assert.match(one(base(), arch(), { ...ctx, azureDeploymentUrl: true }).reasons[0]!, /runs cannot call a deployment URL/);
  assert.equal(one(base({ maxTokensIgnored: true })).mark, 'ok', 'an ignored limit costs time, it does not block');
  assert.match(one(base({ maxTokensIgnored: true })).reasons.join(), /not cut at the prompts' limits/);
});

test('the reference server: every architecture works with --model reference, whatever the probes say', () => {
  const v = one(base({ scripted: true, temperatureZero: false, context: { tokens: 10, source: 's' } }));
  assert.equal(v.mark, 'ok');
  assert.match(v.reasons[0]!, /--model reference/);
  const advice = runAdvice(base({ scripted: true }), ctx);
  assert.equal(advice.command, 'waypoint run --model reference --base-url http://gpu:8000/v1');
  assert.match(advice.notes[0]!, /^The reference server is a scripted policy, not an LLM/);
});

test('run advice: the key variable only when not the default and set; the output-limit field; a sweep rateLimit from numeric limit headers', () => {
  assert.equal(runAdvice(base(), ctx).command, 'waypoint run --model openai:m --base-url http://gpu:8000/v1');
  assert.equal(runAdvice(base(), { ...ctx, apiKeyEnv: 'VLLM_KEY' }).command, 'waypoint run --model openai:m --base-url http://gpu:8000/v1', 'not set: not needed');
  assert.match(runAdvice(base(), { ...ctx, apiKeyEnv: 'VLLM_KEY', keyGiven: true }).command, / --api-key-env VLLM_KEY$/);
  assert.match(runAdvice(base({ maxTokensField: 'max_completion_tokens' }), ctx).command, / --max-tokens-field max_completion_tokens$/);
  assert.equal(runAdvice(base({ rateLimits: { 'x-ratelimit-limit-requests': '60', 'x-ratelimit-limit-tokens': '90000' } }), ctx).sweep, 'model: { name: openai:m, baseUrl: http://gpu:8000/v1 }\nrateLimit: { requestsPerMinute: 60, tokensPerMinute: 90000 }');
  assert.equal(runAdvice(base({ rateLimits: { 'x-ratelimit-remaining-requests': '9' } }), ctx).sweep, 'model: { name: openai:m, baseUrl: http://gpu:8000/v1 }');
});

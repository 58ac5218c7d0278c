// Provider detection and the context-length readers on each provider's documented shapes (no network).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  azureDeployment,
  contextFromLlamaCppProps,
  contextFromLmStudio,
  contextFromModelEntry,
  contextFromOllamaPs,
  contextFromOllamaShow,
  detectProvider,
  embeddingCandidates,
  serverRoot,
} from '../../../../../src/core/llm/doctor/providers.js';

const entry = (id: string, extra: Record<string, unknown> = {}) => ({ id, object: 'model', ...extra });

test('provider from the host first, then from headers, then from what the model list carries', () => {
  assert.equal(detectProvider('https://api.openai.com/v1', {}).id, 'openai');
  assert.equal(detectProvider('https://res.openai.azure.com/openai/v1', {}).id, 'azure');
  assert.equal(detectProvider('https://res.cognitiveservices.azure.com/openai/deployments/x', {}).id, 'azure');
  assert.equal(detectProvider('https://openrouter.ai/api/v1', {}).id, 'openrouter');
  assert.equal(detectProvider('https://proxy.example/v1', { headers: new Headers({ 'apim-request-id': 'x' }) }).id, 'azure');
  assert.equal(detectProvider('https://proxy.example/v1', { headers: new Headers({ 'openai-version': '2020-10-01' }) }).id, 'openai');
  assert.equal(detectProvider('http://gpu:8000/v1', { models: [entry('m', { owned_by: 'vllm', max_model_len: 8192 })] }).id, 'vllm');
  assert.equal(detectProvider('http://gpu:8000/v1', { models: [entry('m', { owned_by: 'someone', max_model_len: 8192 })] }).id, 'vllm');
  assert.equal(detectProvider('http://box:8080/v1', { models: [entry('m.gguf', { owned_by: 'llamacpp' })] }).id, 'llamacpp');
  assert.equal(detectProvider('http://box:1234/v1', { models: [entry('m', { owned_by: 'organization_owner' })] }).id, 'lmstudio');
  assert.equal(detectProvider('http://box:9999/v1', { models: [entry('llama3.2:latest', { owned_by: 'library' })] }).id, 'ollama');
  assert.equal(detectProvider('http://127.0.0.1:11434/v1', { models: [] }).id, 'ollama');
  assert.equal(detectProvider('http://box/v1', { models: [entry('x', { context_length: 8192, pricing: {} })] }).id, 'openrouter');
  assert.equal(detectProvider('http://box/v1', { models: [entry('x', { owned_by: 'me' })] }).id, 'unknown');
  // The reference server says what it is, whatever the host.
  assert.equal(detectProvider('https://api.openai.com/v1', { headers: new Headers({ 'x-waypoint-model': 'reference-scripted' }) }).id, 'reference');
  assert.equal(detectProvider('http://127.0.0.1:8088/v1', { models: [entry('reference', { owned_by: 'reference (scripted, not an LLM)' })] }).id, 'reference');
});

test('Azure deployment URLs are told from the v1 endpoint; the server root drops /v1 and /api/v1', () => {
  assert.equal(azureDeployment('https://res.openai.azure.com/openai/deployments/gpt4o-prod'), 'gpt4o-prod');
  assert.equal(azureDeployment('https://res.openai.azure.com/openai/v1'), undefined);
  assert.equal(azureDeployment('http://127.0.0.1:1/openai/deployments/x'), undefined, 'only on Azure hosts');
  assert.equal(serverRoot('http://127.0.0.1:11434/v1/'), 'http://127.0.0.1:11434');
  assert.equal(serverRoot('https://openrouter.ai/api/v1'), 'https://openrouter.ai');
  assert.equal(serverRoot('http://box:8080'), 'http://box:8080');
});

test('context from a /models entry: vLLM, OpenRouter (top provider first), llama.cpp (running before training), LM Studio v0', () => {
  assert.deepEqual(contextFromModelEntry(entry('m', { max_model_len: 32768 })), { tokens: 32768, source: 'max_model_len in /models' });
  assert.deepEqual(contextFromModelEntry(entry('m', { context_length: 131072, top_provider: { context_length: 16384 } })), { tokens: 16384, source: 'top_provider.context_length in /models' });
  assert.deepEqual(contextFromModelEntry(entry('m', { context_length: 131072, top_provider: { context_length: null } })), { tokens: 131072, source: 'context_length in /models' });
  assert.deepEqual(contextFromModelEntry(entry('m', { meta: { n_ctx: 16384, n_ctx_train: 131072 } })), { tokens: 16384, source: 'meta.n_ctx in /models' });
  assert.deepEqual(contextFromModelEntry(entry('m', { meta: { n_ctx_train: 131072 } })), { tokens: 131072, source: 'meta.n_ctx_train in /models', note: 'the training maximum; the server may run with less' });
  assert.equal(contextFromModelEntry(entry('m', { max_context_length: 32768 }))?.tokens, 32768);
  assert.equal(contextFromModelEntry(entry('m', { owned_by: 'system' })), undefined);
  assert.equal(contextFromModelEntry(entry('m', { max_model_len: 'big' })), undefined, 'only numbers count');
});

test('llama.cpp /props: the per-slot context, in older and newer shapes', () => {
  assert.deepEqual(contextFromLlamaCppProps({ default_generation_settings: { n_ctx: 4096 }, total_slots: 1 }), { tokens: 4096, source: 'default_generation_settings.n_ctx in /props' });
  assert.deepEqual(contextFromLlamaCppProps({ n_ctx: 16384, total_slots: 4 }), { tokens: 4096, source: 'n_ctx in /props', note: '16384 shared among 4 slots' });
  assert.equal(contextFromLlamaCppProps({ error: 'x' }), undefined);
});

test('Ollama: the loaded context by name (tags optional); num_ctx and the model maximum from /api/show', () => {
  const ps = { models: [{ name: 'llama3.2:latest', model: 'llama3.2:latest', context_length: 8192 }, { name: 'qwen3:8b', context_length: 40960 }] };
  assert.equal(contextFromOllamaPs(ps, 'llama3.2')?.tokens, 8192);
  assert.equal(contextFromOllamaPs(ps, 'qwen3:8b')?.tokens, 40960);
  assert.equal(contextFromOllamaPs(ps, 'qwen3'), undefined, 'qwen3 means qwen3:latest, not qwen3:8b');
  assert.equal(contextFromOllamaPs({ models: [] }, 'llama3.2'), undefined);
  assert.deepEqual(contextFromOllamaShow({ parameters: 'num_keep 24\nnum_ctx                        8192\nstop "<|eot_id|>"', model_info: { 'general.architecture': 'llama', 'llama.context_length': 131072 } }), { numCtx: 8192, modelMax: 131072 });
  assert.deepEqual(contextFromOllamaShow({ parameters: 'stop "x"', model_info: { 'gemma3.context_length': 32768 } }), { modelMax: 32768 });
});

test('LM Studio: the loaded instance over the maximum; the v0 single-model shape', () => {
  const v1 = { models: [{ key: 'qwen', max_context_length: 32768, loaded_instances: [{ id: 'qwen', config: { context_length: 8192 } }] }, { key: 'idle', max_context_length: 4096, loaded_instances: [] }] };
  assert.equal(contextFromLmStudio(v1, 'qwen')?.tokens, 8192);
  assert.match(contextFromLmStudio(v1, 'idle')!.note!, /not loaded/);
  assert.equal(contextFromLmStudio(v1, 'other'), undefined);
  assert.deepEqual(contextFromLmStudio({ id: 'qwen', loaded_context_length: 4096, max_context_length: 32768 }, 'qwen'), { tokens: 4096, source: 'loaded_context_length in /api/v0/models' });
});

test('embedding models among the listed ones, the usual defaults first', () => {
  const ids = ['gpt-4o', 'text-embedding-3-large', 'text-embedding-3-small', 'nomic-embed-text:latest', 'BAAI/bge-m3', 'llama3.2', 'e5-mistral-7b', 'gte-qwen2', 'all-minilm'];
  assert.deepEqual(embeddingCandidates(ids.map((id) => entry(id))), ['text-embedding-3-small', 'nomic-embed-text:latest', 'all-minilm', 'BAAI/bge-m3', 'e5-mistral-7b', 'gte-qwen2', 'text-embedding-3-large']);
  assert.deepEqual(embeddingCandidates([entry('gpt-4o'), entry('llama3.2')]), []);
});

// `waypoint doctor` through the extension's loopback bridge to VS Code's Language Model API (modelProxy.ts), with a
// scripted ModelClient where VS Code's chat model would be: chat works, the bridge serves chat only, and its
// token is the bridge's key.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { architectureManifests } from '../../../../src/architectures/manifests.js';
import type { ModelClient, ModelRequest } from '../../../../src/core/llm/client.js';
import { runDoctor } from '../../../../src/core/llm/doctor/doctor.js';
import { loadArchNeeds } from '../../../../src/core/llm/doctor/verdicts.js';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import { startModelProxy } from '../../../../src/extension/lm/modelProxy.js';

const seen: ModelRequest[] = [];
const chatModel: ModelClient = {
  id: 'scripted-lm',
  complete: async (r) => {
    seen.push(r);
    const text = r.messages.at(-1)!.content.includes('JSON') ? '{"ok": true}' : 'ready';
    return { ok: true, text, latencyMs: 1, cached: false, attempts: 1 };
  },
};
const proxy = await startModelProxy(chatModel);
after(() => proxy.close());

test('doctor through the Language Model bridge: chat, JSON and limits pass through; no model list, images and embeddings refused', async () => {
  const archs = await loadArchNeeds(nodeIO, join(process.cwd(), 'src', 'architectures'), architectureManifests.list());
  const r = await runDoctor({ baseUrl: proxy.baseUrl, model: 'vscode-lm/copilot/gpt-4o', modelArg: 'openai:vscode-lm/copilot/gpt-4o', apiKey: proxy.token, apiKeyEnv: 'WAYPOINT_DOCTOR_API_KEY', audience: 'none', timeoutMs: 5000, clock: nodeClock, archs });
  const line = (id: string) => r.findings.probes.find((p) => p.id === id);
  assert.equal(r.exitCode, 0);
  assert.equal(line('reach')?.mark, 'unknown');
  assert.match(line('reach')!.detail, /HTTP 404: not found: GET \/v1\/models; chat answers/);
  assert.equal(line('chat')?.mark, 'ok');
  assert.equal(line('json_mode')?.mark, 'ok');
  assert.equal(line('images')?.mark, 'fail');
  assert.match(line('images')!.detail, /images cannot be sent through the VS Code Language Model API bridge/);
  assert.equal(line('embeddings')?.mark, 'fail');
  assert.equal(r.advice, undefined, 'no run advice for an endpoint only this window can reach');
  // The limit reached the chat model as maxTokens (the bridge reads either field).
  assert.ok(seen.some((q) => q.maxTokens === 8));
});

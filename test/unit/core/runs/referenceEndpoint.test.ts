// `openai:<name>` at a `waypoint serve-model` URL is the reference model: the endpoint says what it is (the
// x-waypoint-model header on GET /models), and only then does the client send the role headers it answers by.
// A real endpoint never receives them, and `reference` pointed at a real endpoint is refused.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { registerReferencePolicies } from '../../../../src/core/llm/reference/policies.js';
import { architectures } from '../../../../src/architectures/registry.js';
import { startReferenceServer, type ReferenceServer } from '../../../../src/core/llm/reference/server.js';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import { launchRun, resolveModelSpec, type LaunchOptions } from '../../../../src/core/runs/launch.js';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';
import { readTrace } from '../../../../src/core/trace/reader.js';

const workspace = mkdtempSync(join(tmpdir(), 'waypoint-refendpoint-'));
const deps = { io: nodeIO, clock: nodeClock, architectures, createSimulator: () => createTabletopSimulator(), createSandbox: () => createPyodideSandbox() };
const base = (model: LaunchOptions['model']): LaunchOptions => ({ workspace, arch: 'malmm', task: 'stack_blocks_2', seed: 1, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model });

let reference: ReferenceServer;
/** A stand-in for a real OpenAI-compatible endpoint (Ollama, vLLM): it lists a model and records every request's headers. */
const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
const real = createServer((req, res) => {
  seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url?.endsWith('/models')) res.end(JSON.stringify({ object: 'list', data: [{ id: 'reference', object: 'model', created: 0, owned_by: 'someone' }] }));
    else res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'reference', choices: [{ index: 0, message: { role: 'assistant', content: 'I am a real model.' }, finish_reason: 'stop' }] }));
  });
});
let realUrl = '';

before(async () => {
  registerReferencePolicies(architectures);
  reference = await startReferenceServer({ port: 0 });
  await new Promise<void>((r) => real.listen(0, '127.0.0.1', () => r()));
  realUrl = `http://127.0.0.1:${(real.address() as { port: number }).port}/v1`;
});
after(async () => {
  await reference.close();
  real.closeAllConnections();
  real.close();
  rmSync(workspace, { recursive: true, force: true });
});

test('openai:reference at the reference server runs as the reference model (labelled, sent the role headers) and succeeds', async () => {
  const r = await launchRun(base({ kind: 'openai', model: 'reference', baseUrl: reference.url }), deps);
  assert.equal(r.success, true, `${r.reason}: ${r.message ?? ''}`);
  const start = readTrace(readFileSync(r.tracePath, 'utf8')).events[0];
  assert.ok(start.type === 'episode_start');
  assert.deepEqual([start.model.provider, start.model.model, start.model.label, start.model.baseUrl], ['reference', 'reference', 'reference (scripted, not an LLM)', reference.url]);
});

test('a model the reference server does not serve is refused before the run, naming the ones it does', async () => {
  const r = await launchRun(base({ kind: 'openai', model: 'gpt-4o', baseUrl: reference.url }), deps);
  assert.equal(r.reason, 'invalid_input');
  assert.equal(r.message, `the reference server at ${reference.url} has no chat model 'gpt-4o'; it serves reference, reference-flawed`);
  const emb = await launchRun(base({ kind: 'openai', model: 'reference-embedding', baseUrl: reference.url }), deps);
  assert.equal(emb.message, `the reference server at ${reference.url} has no chat model 'reference-embedding'; it serves reference, reference-flawed`);
});

test('a real endpoint is left a real endpoint and never receives x-waypoint-* headers; reference pointed at it is refused', async () => {
  seen.length = 0;
  const spec = { kind: 'openai' as const, model: 'reference', baseUrl: realUrl, apiKey: 'sk-test' };
  assert.deepEqual(await resolveModelSpec(spec, nodeClock), spec);
  const r = await launchRun(base(spec), deps);
  assert.equal(r.success, false);
  assert.ok(seen.some((s) => s.method === 'POST'), 'the run called the endpoint');
  const refused = await launchRun(base({ kind: 'reference', baseUrl: realUrl }), deps);
  assert.equal(refused.reason, 'invalid_input');
  assert.match(refused.message ?? '', /^http:\/\/127\.0\.0\.1:\d+\/v1 is not a Waypoint reference server \(`waypoint serve-model`\); for a model served there use --model openai:<name>$/);
  const leaked = seen.flatMap((s) => Object.keys(s.headers).filter((h) => h.startsWith('x-waypoint')).map((h) => `${s.method} ${s.url}: ${h}`));
  assert.deepEqual(leaked, []);
});

test('an endpoint that does not answer is left to the run (its first call reports it)', async () => {
  const spec = { kind: 'openai' as const, model: 'llama', baseUrl: 'http://127.0.0.1:9/v1' };
  assert.deepEqual(await resolveModelSpec(spec, nodeClock), spec);
  const ref = { kind: 'reference' as const, baseUrl: 'http://127.0.0.1:9/v1' };
  assert.deepEqual(await resolveModelSpec(ref, nodeClock), ref);
});

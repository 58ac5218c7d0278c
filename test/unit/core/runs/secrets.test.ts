// An API key handed to a run reaches the endpoint's Authorization header and nowhere else: not the trace,
// not the response cache, not the run's folder. And a real endpoint never hears which role is asking except
// through the prompt itself: no [waypoint-role] marker in the messages, no x-waypoint-* headers.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { nodeClock, nodeIO } from '../../../../src/core/node/nodeHost.js';
import { registerReferencePolicies } from '../../../../src/core/llm/reference/policies.js';
import { architectures } from '../../../../src/architectures/registry.js';
import { startReferenceServer } from '../../../../src/core/llm/reference/server.js';
import { launchRun } from '../../../../src/core/runs/launch.js';
import type { ChatMessage } from '../../../../src/protocol/trace.js';
import { roleFromPrompt } from '../../../helpers/roleFromPrompt.js';
import { createPyodideSandbox } from '../../../../src/core/sandbox/index.js';
import { createTabletopSimulator } from '../../../../src/core/sim/mujoco/index.js';

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}


test('the API key is sent to the endpoint and never written to the trace or the cache; no role marker or role header reaches it', async () => {
  const KEY = 'sk-waypoint-secret-7f3a9c';
  registerReferencePolicies(architectures);
  const upstream = await startReferenceServer({ port: 0 });
  // A proxy in front of the reference server that records the Authorization headers it sees.
  const seen: string[] = [];
  const bodies: string[] = [];
  const roleHeaders: string[] = [];
  const proxy = createServer(async (req, res) => {
    seen.push(String(req.headers.authorization));
    roleHeaders.push(...Object.keys(req.headers).filter((h) => h.startsWith('x-waypoint')));
    const body = await new Promise<string>((r) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => r(b));
    });
    bodies.push(body);
    // The fake endpoint tells roles apart by the opening of their system prompts, as a model would, then asks the
    // reference server (with the role header) for the answer.
    const role = req.method === 'POST' ? (roleFromPrompt((JSON.parse(body) as { messages: ChatMessage[] }).messages)?.role ?? 'unknown') : 'unknown';
    const up = await fetch(upstream.url.replace(/\/v1$/, '') + req.url, {
      method: req.method,
      body: req.method === 'POST' ? body : undefined,
      headers: { 'content-type': 'application/json', 'x-waypoint-arch': 'malmm', 'x-waypoint-role': role },
    });
    res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
    res.end(await up.text());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  const port = (proxy.address() as { port: number }).port;
  const ws = mkdtempSync(join(tmpdir(), 'waypoint-secret-'));
  try {
    const r = await launchRun(
      { workspace: ws, arch: 'malmm', task: 'stack_blocks_2', seed: 0, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model: { kind: 'openai', model: 'reference', baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: KEY } },
      { io: nodeIO, clock: nodeClock, architectures, createSimulator: () => createTabletopSimulator(), createSandbox: () => createPyodideSandbox() },
    );
    assert.equal(r.success, true, `${r.reason} ${r.message ?? ''}`);
    assert.ok(seen.length > 0 && seen.every((h) => h === `Bearer ${KEY}`), 'the key reached the endpoint');
    assert.deepEqual(roleHeaders, [], 'no x-waypoint-* header reaches a real endpoint');
    assert.ok(bodies.length > 10 && bodies.every((b) => !b.includes('waypoint-role')), 'no role marker inside the messages');
    const files = allFiles(ws);
    assert.ok(files.some((f) => f.includes('/.waypoint/cache/')), 'the cache was written');
    for (const f of files) assert.equal(readFileSync(f, 'utf8').includes(KEY), false, `key found in ${f}`);
  } finally {
    proxy.close();
    await upstream.close();
    rmSync(ws, { recursive: true, force: true });
  }
});

// `waypoint judge` against a real model (any OpenAI-compatible endpoint that is not our reference server): the
// role travels only inside the prompt, never as x-waypoint-* headers (those are for the scripted reference judge).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { judgeCommand } from '../../../src/cli/judge.js';
import { fixtureSweep } from '../../helpers/fixtureSweep.js';

test('waypoint judge with --model openai:<name> sends no x-waypoint-* header to the endpoint', async () => {
  const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.method === 'GET') return res.end(JSON.stringify({ object: 'list', data: [{ id: 'judge-x', object: 'model' }] }));
      const content = '{"labels": [{"label": "collision", "turn": 3, "evidence": "hit the bowl"}]}';
      res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 0, model: 'judge-x', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }], usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const ws = mkdtempSync(join(tmpdir(), 'waypoint-judge-headers-'));
  const stderr = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    fixtureSweep(ws);
    const out = new PassThrough();
    let printed = '';
    out.on('data', (c) => (printed += String(c)));
    const port = (server.address() as { port: number }).port;
    const code = await judgeCommand('fixture', { model: 'openai:judge-x', 'base-url': `http://127.0.0.1:${port}/v1`, 'api-key-env': 'WAYPOINT_TEST_NO_SUCH_KEY', workspace: ws, temperature: undefined, 'max-tokens': undefined, 'model-seed': undefined }, out);
    process.stderr.write = stderr;
    assert.equal(code, 0, printed);
    assert.match(printed, /proposed by judge-x @ http/);
    const posts = seen.filter((s) => s.method === 'POST');
    assert.ok(posts.length > 0, 'the judge asked the endpoint');
    for (const s of seen) assert.deepEqual(Object.keys(s.headers).filter((h) => h.startsWith('x-waypoint')), [], `${s.method} ${s.url}`);
  } finally {
    process.stderr.write = stderr;
    server.close();
    rmSync(ws, { recursive: true, force: true });
  }
});

// The documented path: `waypoint serve-model` in one process, `waypoint run --model openai:reference --base-url <its
// URL>` in another, through the openai SDK as with a real model. It succeeds, and the trace says the model was the
// scripted reference, not an LLM.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';

const cli = join(process.cwd(), 'dist', 'cli.mjs');

test('run --model openai:reference --base-url <serve-model URL> succeeds; the banner says how', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'waypoint-servemodel-run-'));
  const server = spawn(process.execPath, [cli, 'serve-model', '--port', '0'], { cwd: ws, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const banner: string[] = [];
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: server.stdout! }).on('line', (line) => {
        banner.push(line);
        if (line.startsWith('use it:')) resolve(/listening on (\S+)/.exec(banner[0])?.[1] ?? '');
      });
      server.once('exit', (code) => reject(new Error(`serve-model exited (${code}): ${banner.join('\n')}`)));
    });
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.equal(banner[1], 'models: reference, reference-flawed (GET /v1/models)');
    assert.equal(banner[2], `use it: waypoint run --model reference --base-url ${url}   (or --model openai:reference, the same)`);
    for (const model of ['openai:reference', 'reference']) {
      const r = spawnSync(process.execPath, [cli, 'run', '--model', model, '--base-url', url, '--task', 'stack_blocks_2', '--seed', '1', '--quiet'], { cwd: ws, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', OPENAI_API_KEY: '' } });
      assert.equal(r.status, 0, `${model}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout, /^SUCCESS · task_completed/m);
      const trace = /^trace: (.+trace\.jsonl)$/m.exec(r.stdout)![1];
      const start = JSON.parse(readFileSync(trace, 'utf8').split('\n')[0]) as { model: { provider: string; label: string; baseUrl: string } };
      assert.deepEqual([start.model.provider, start.model.label, start.model.baseUrl], ['reference', 'reference (scripted, not an LLM)', url]);
    }
  } finally {
    const exited = new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
    server.kill('SIGTERM');
    await exited;
    rmSync(ws, { recursive: true, force: true });
  }
});

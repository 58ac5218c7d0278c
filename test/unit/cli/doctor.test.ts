// `waypoint doctor` as a user runs it: dist/cli.mjs against a local fake endpoint (needs `npm run build`). Exit
// statuses, lines as printed, the key read from the named variable and never printed; and the flag it recommends
// for models that refuse max_tokens reaching the wire in a real run.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startFakeServer, type FakeServer } from '../core/llm/helpers/fakeServer.js';
import { answer, KEY, openaiFake } from '../core/llm/doctor/providerFakes.js';

const cli = join(process.cwd(), 'dist', 'cli.mjs');
const ws = mkdtempSync(join(tmpdir(), 'waypoint-doctor-'));
let openai: FakeServer;
before(async () => {
  openai = await startFakeServer(openaiFake());
});
after(async () => {
  await openai.close();
  rmSync(ws, { recursive: true, force: true });
});

/** The CLI as a child process (async: the fake endpoint lives in this process's event loop). */
function doctor(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, 'doctor', ...args], { cwd: ws, env: { ...process.env, NO_COLOR: '1', OPENAI_API_KEY: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

test('doctor against an OpenAI-compatible endpoint: probe lines, architectures, the run command; exit 0; the key never printed', async () => {
  const r = await doctor(['--model', 'openai:gpt-4o-mini', '--base-url', openai.url, '--api-key-env', 'MY_KEY'], { MY_KEY: KEY });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.equal(lines[0], `Checking openai:gpt-4o-mini at ${openai.url}`);
  assert.match(r.stdout, /\n {2}✓ chat completion +answered "ready"/);
  assert.match(r.stdout, /\n {2}✓ embeddings +1536 dimensions from text-embedding-3-small/);
  assert.match(r.stdout, /\nArchitectures with gpt-4o-mini on OpenAI:\n {2}\? malmm +needs ≈\d+ tokens of context/);
  assert.match(r.stdout, new RegExp(`\\nRun with:\\n  waypoint run --model openai:gpt-4o-mini --base-url ${openai.url.replace(/[.]/g, '\\.')} --api-key-env MY_KEY --embedding-model text-embedding-3-small\\n`));
  assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY));
  assert.equal(r.stderr, '');
});

test('doctor --json: the findings and verdicts for tools', async () => {
  const r = await doctor(['--model', 'openai:gpt-4o-mini', '--base-url', openai.url, '--json'], { OPENAI_API_KEY: KEY });
  assert.equal(r.status, 0);
  const j = JSON.parse(r.stdout) as { model: string; exitCode: number; findings: { chatOk: boolean; probes: { id: string }[] }; architectures: { id: string }[] };
  assert.equal(j.model, 'openai:gpt-4o-mini');
  assert.equal(j.exitCode, 0);
  assert.equal(j.findings.chatOk, true);
  assert.equal(j.findings.probes.length, 12);
  assert.deepEqual(j.architectures.map((a) => a.id), ['malmm', 'roco', 'actctx', 'llamar', 'trajgen']);
  assert.ok(!r.stdout.includes(KEY));
});

test('doctor against nothing: one line on stdout, exit 3; bad input: one line on stderr, exit 2', async () => {
  const port = await closedPort();
  const dead = await doctor(['--model', 'openai:m', '--base-url', `http://127.0.0.1:${port}/v1`]);
  assert.equal(dead.status, 3);
  assert.equal(dead.stdout, `✗ connection refused at 127.0.0.1:${port}: nothing is listening there (is the server running? is the port right?)\n`);
  assert.equal(dead.stderr, '');
  const noKey = await doctor(['--model', 'openai:gpt-4o-mini', '--base-url', openai.url]);
  assert.equal(noKey.status, 3);
  assert.match(noKey.stdout, /^✗ key missing or rejected \(HTTP 401\) at GET .*: no key was sent: set \$OPENAI_API_KEY or name another variable with --api-key-env\n$/);
  const missing = await doctor([]);
  assert.equal(missing.status, 2);
  assert.equal(missing.stderr, 'waypoint doctor: --model is required: openai:<model-name> (or reference, to check the reference server)\n');
  const azure = await doctor(['--model', 'openai:gpt4o', '--base-url', 'https://res.openai.azure.com/openai/deployments/gpt4o']);
  assert.equal(azure.status, 2);
  assert.match(azure.stderr, /needs --azure-api-version \(e\.g\. 2024-10-21\); or check the v1 endpoint https:\/\/res\.openai\.azure\.com\/openai\/v1/);
});

test('doctor --model reference checks an in-process reference server and names it a scripted policy', async () => {
  const r = await doctor(['--model', 'reference']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Waypoint's reference server \(a scripted policy, not an LLM\)/);
  assert.match(r.stdout, /Run with:\n {2}waypoint run --model reference --base-url http:\/\/127\.0\.0\.1:\d+\/v1\n/);
});

test('doctor --help documents the exit statuses', () => {
  const r = spawnSync(process.execPath, [cli, 'doctor', '--help'], { encoding: 'utf8' });
  assert.equal(r.status, 0);
  assert.match(r.stdout, /Exit status: 0 chat completions work .*, 3 they do not .*, 2 bad input\./);
});

test('run --max-tokens-field max_completion_tokens: the output limit goes in that field', async () => {
  const bodies: Record<string, unknown>[] = [];
  const s = await startFakeServer((req, res) => {
    if (req.path.startsWith('/v1/chat/completions')) {
      bodies.push(JSON.parse(req.body) as Record<string, unknown>);
      return answer(res, JSON.parse(req.body), {});
    }
    res.writeHead(404).end();
  });
  try {
    const r = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [cli, 'run', '--arch', 'llamar', '--task', 'wash_bowl_mug_pot_pan', '--model', 'openai:gpt-5-mini', '--base-url', s.url, '--max-tokens-field', 'max_completion_tokens', '--no-cache', '--quiet'], { cwd: ws, env: { ...process.env, NO_COLOR: '1' }, stdio: 'ignore' });
      child.on('close', resolve);
    });
    assert.notEqual(r, 2, 'the run started');
    assert.ok(bodies.length > 0);
    for (const b of bodies) {
      assert.equal(typeof b.max_completion_tokens, 'number', JSON.stringify(b).slice(0, 200));
      assert.equal(b.max_tokens, undefined);
    }
  } finally {
    await s.close();
  }
});

async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

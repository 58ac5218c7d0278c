// Exit statuses a script can trust: a failure of the machinery (the endpoint refusing the credentials, the
// simulator dying, the sandbox not starting) exits 3 and its trace ends with an infrastructure reason, never 1 (the
// task failed). The unreachable endpoint's case is in cli.test.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const cli = join(process.cwd(), 'dist', 'cli.mjs');
const ws = mkdtempSync(join(tmpdir(), 'waypoint-exit-'));
after(() => rmSync(ws, { recursive: true, force: true }));

/** The CLI in a child process, without blocking this one (a test's own HTTP server must keep answering). */
function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: ws, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function endOf(stdout: string): { reason: string; success: boolean } {
  const trace = /^trace: (.+trace\.jsonl)$/m.exec(stdout)?.[1] ?? assert.fail(`no trace path in: ${stdout}`);
  return JSON.parse(readFileSync(trace, 'utf8').trim().split('\n').at(-1)!) as { reason: string; success: boolean };
}

test('the endpoint refuses the credentials (HTTP 401): exit 3, model_error, said to be no task failure', async () => {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  try {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
    const r = await run(['run', '--model', 'openai:gpt-4o-mini', '--base-url', url, '--task', 'stack_blocks_2', '--quiet'], { OPENAI_API_KEY: 'sk-wrong' });
    assert.equal(r.status, 3, r.stdout + r.stderr);
    assert.equal(endOf(r.stdout).reason, 'model_error');
    assert.match(r.stdout, /^FAILURE · model_error \(.*not authorised \(HTTP 401\).*\) · the model endpoint failed: an infrastructure failure, not a task failure$/m);
    assert.match(r.stderr, /^waypoint run: infrastructure failure \(model_error\), not a task failure: /m);
  } finally {
    server.close();
  }
});

test('the simulator dies mid-episode: exit 3, simulator_error', async () => {
  const sim = `stdio:${process.execPath} ${join(process.cwd(), 'test', 'fixtures', 'sims', 'dyingSim.mjs')} ${cli} act 2`;
  const r = await run(['run', '--task', 'stack_blocks_2', '--quiet', '--sim', sim]);
  assert.equal(r.status, 3, r.stdout + r.stderr);
  assert.equal(endOf(r.stdout).reason, 'simulator_error');
  assert.match(r.stdout, /disconnected during act\(execute_trajectory\): exited with code 3/);
  assert.match(r.stdout, / · the simulator failed: an infrastructure failure, not a task failure$/m);
});

test('the code sandbox cannot start (--host-python without a python3): exit 3, sandbox_error, no crash', async () => {
  const r = await run(['run', '--task', 'stack_blocks_2', '--quiet', '--host-python'], { PATH: join(ws, 'no-such-bin') });
  assert.equal(r.status, 3, r.stdout + r.stderr);
  assert.equal(endOf(r.stdout).reason, 'sandbox_error');
  // The loop does not wait for the sandbox: the failure surfaces at the first code block, as an infrastructure failure.
  assert.match(r.stderr, /^waypoint run: infrastructure failure \(sandbox_error\), not a task failure: code sandbox failed to start: cannot start python3: spawn python3 ENOENT$/m);
  assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
});

test('a task the architecture cannot run is bad input (exit 2), not a simulator failure', async () => {
  const r = await run(['run', '--arch', 'roco', '--task', 'stack_blocks']);
  assert.equal(r.status, 2, r.stdout + r.stderr);
  // Refused before the episode starts (the preflight compares the task's robot API with the architecture's), with
  // that architecture's tasks as the valid choices.
  assert.match(r.stderr, /^waypoint run: task 'stack_blocks' \(1 arm\) works with the robot API malmm, not roco's 'roco'; roco's tasks on waypoint-tabletop: sort_cubes, /m);
});

test('--help states every exit status', async () => {
  const r = await run(['run', '--help']);
  assert.equal(r.status, 0);
  const help = r.stdout.replace(/\s+/g, ' ');
  assert.match(help, /0 task success, 1 task failure, 2 bad input or a run that could not start, 3 infrastructure failure \(the model endpoint unreachable or refusing the credentials, the simulator dead or disconnected, the sandbox not starting/);
  assert.match(help, /130\/143 interrupted/);
});

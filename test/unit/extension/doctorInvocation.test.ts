// "Waypoint: Check Model Endpoint" without VS Code: the doctor command line for each provider setting (the key in
// the child's environment, never its arguments), then that command line run against a fake endpoint the way the
// extension runs it (`--advice vscode`: settings and commands, not flags). Needs `npm run build` (dist/cli.mjs).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DOCTOR_KEY_ENV, doctorInvocation } from '../../../src/extension/doctorInvocation.js';
import { parseSettings } from '../../../src/extension/settings.js';
import { KEY, openaiFake } from '../core/llm/doctor/providerFakes.js';
import { startFakeServer, type FakeServer } from '../core/llm/helpers/fakeServer.js';

let server: FakeServer;
before(async () => {
  server = await startFakeServer(openaiFake({ reasoning: true }));
});
after(() => server.close());

const model = (extra: Record<string, unknown> = {}) => parseSettings((k) => ({ 'model.provider': 'openai', 'model.baseUrl': server.url, 'model.name': 'gpt-5-mini', ...extra })[k as string]).settings.model;

test('openai: model, base URL and the key variable in the arguments; the key only in the environment', () => {
  const inv = doctorInvocation(model(), { kind: 'openai', key: KEY });
  assert.deepEqual(inv.args, ['doctor', '--model', 'openai:gpt-5-mini', '--base-url', server.url, '--api-key-env', DOCTOR_KEY_ENV]);
  assert.equal(inv.env[DOCTOR_KEY_ENV], KEY);
  assert.ok(!inv.args.join(' ').includes(KEY) && !inv.intro.includes(KEY));
  // No stored key: the variable is set empty, so a key in the user's own environment is not picked up instead.
  assert.equal(doctorInvocation(model(), { kind: 'openai' }).env[DOCTOR_KEY_ENV], '');
});

test('reference and vscode-lm: the scripted profile in-process; the Language Model bridge with its token', () => {
  assert.deepEqual(doctorInvocation(model({ 'model.provider': 'reference-flawed' }), { kind: 'reference' }).args.slice(0, 3), ['doctor', '--model', 'reference-flawed']);
  const lm = doctorInvocation(model({ 'model.provider': 'vscode-lm' }), { kind: 'vscode-lm', baseUrl: 'http://127.0.0.1:5/v1', token: 'tok-123', model: 'vscode-lm/copilot/gpt-4o' });
  assert.deepEqual(lm.args, ['doctor', '--model', 'openai:vscode-lm/copilot/gpt-4o', '--base-url', 'http://127.0.0.1:5/v1', '--api-key-env', DOCTOR_KEY_ENV]);
  assert.equal(lm.env[DOCTOR_KEY_ENV], 'tok-123');
  assert.match(lm.intro, /does not apply outside it/);
});

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(process.cwd(), 'dist', 'cli.mjs'), ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

test('the extension\'s command line against a fake: advice as settings; a missing key points to "Set API Key…"', async () => {
  const inv = doctorInvocation(model(), { kind: 'openai', key: KEY });
  const r = await runCli([...inv.args, '--advice', 'vscode'], inv.env);
  assert.equal(r.code, 0);
  assert.match(r.stdout, new RegExp(`\\nSettings:\\n  waypoint\\.model\\.provider: openai\\n  waypoint\\.model\\.baseUrl: ${server.url.replace(/\./g, '\\.')}\\n  waypoint\\.model\\.name: gpt-5-mini\\n  waypoint\\.model\\.maxTokensField: max_completion_tokens\\n`));
  assert.match(r.stdout, /"Waypoint: Copy Prompt to Workspace"/);
  assert.ok(!r.stdout.includes('Run with:') && !r.stdout.includes(KEY));
  const noKey = doctorInvocation(model(), { kind: 'openai' });
  const denied = await runCli([...noKey.args, '--advice', 'vscode'], { ...noKey.env, OPENAI_API_KEY: KEY });
  assert.equal(denied.code, 3);
  assert.match(denied.stdout, /^✗ key missing or rejected \(HTTP 401\) at GET .*: no key is stored for this endpoint: store one with "Waypoint: Set API Key…"\n$/);
});

// API keys: `waypoint.setApiKey <key>` stores the key in SecretStorage, never in settings or workspace files, and a
// run against an OpenAI-compatible endpoint sends it (checked with a fake endpoint on loopback that answers 401).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activeExtension, e2eEnv, filesContaining, note, within, wsUri } from './helpers.js';

// Looks like a key, is unique per run, and is easy to grep for.
const KEY = `sk-waypoint-e2e-${randomBytes(12).toString('hex')}`;

function placesToSearch(): string[] {
  const env = e2eEnv();
  return [env.workspace, ...(env.userDataDir ? [env.userDataDir] : [])];
}

/** `waypoint.setApiKey <key> [baseUrl]`: keys are kept per endpoint origin (default: waypoint.model.baseUrl). */
async function setKeyWithArgument(baseUrl?: string): Promise<unknown> {
  try {
    const args = baseUrl ? [KEY, baseUrl] : [KEY];
    return await within(10_000, 'waypoint.setApiKey ignored its argument and waited for typed input (the command must accept the key as its first argument, for scripts and tests)', vscode.commands.executeCommand('waypoint.setApiKey', ...args));
  } catch (e) {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    throw e;
  }
}

describe('API key in SecretStorage', function () {
  before(async function () {
    await activeExtension();
  });

  it('waypoint.setApiKey <key> keeps the key out of settings.json and every file', async function () {
    assert.equal(await setKeyWithArgument(), true, 'waypoint.setApiKey <key> answers true when it stored the key');
    const env = e2eEnv();
    const leaks = placesToSearch().flatMap((root) => filesContaining(root, KEY));
    assert.deepEqual(leaks, [], 'the key is in no file of the workspace or the user-data-dir (settings.json included)');
    if (env.userDataDir) note('userSettingsChecked', join(env.userDataDir, 'User', 'settings.json'));
  });

  it('a run against an OpenAI-compatible endpoint sends the stored key, and the trace does not contain it', async function () {
    this.timeout(120_000);
    const seen: string[] = [];
    const server: Server = createServer((req, res) => {
      seen.push(String(req.headers.authorization ?? ''));
      req.resume();
      // 401: the client classifies it as an auth error and does not retry, so the episode ends at once.
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'e2e fake endpoint: key received', type: 'invalid_request_error', code: 'invalid_api_key' } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const cfg = () => vscode.workspace.getConfiguration('waypoint');
    try {
      assert.equal(await setKeyWithArgument(baseUrl), true, 'the key for the fake endpoint is stored');
      await cfg().update('model.provider', 'openai', vscode.ConfigurationTarget.Global);
      await cfg().update('model.baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
      await cfg().update('model.name', 'e2e-fake-model', vscode.ConfigurationTarget.Global);
      const handle = await within(30_000, 'waypoint.runLiveTest did not return', vscode.commands.executeCommand<{ started?: Promise<string | undefined>; done?: Promise<unknown> } | undefined>('waypoint.runLiveTest', wsUri('prompts', 'malmm', 'coder.prompt')));
      assert.ok(handle?.done, 'the run started (waypoint.runLiveTest returned a run handle)');
      await within(90_000, 'the run against the fake endpoint did not end', handle.done);
      assert.ok(seen.length > 0, 'the fake endpoint received a request');
      assert.ok(seen.every((h) => h === `Bearer ${KEY}`), `every request carried the stored key (got ${JSON.stringify(seen.map((h) => h.slice(0, 24)))})`);
      note('fakeEndpointRequests', seen.length);
    } finally {
      for (const k of ['model.provider', 'model.baseUrl', 'model.name']) await cfg().update(k, undefined, vscode.ConfigurationTarget.Global);
      await new Promise((r) => server.close(r));
    }
    const leaks = placesToSearch().flatMap((root) => filesContaining(root, KEY));
    assert.deepEqual(leaks, [], 'after the run the key is in no trace, log or settings file');
  });

  after(async function () {
    await vscode.commands.executeCommand('waypoint.clearApiKey');
  });
  // (The fake endpoint's key goes with its ephemeral port's origin; nothing else can reach it.)
});

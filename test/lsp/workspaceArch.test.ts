// The language server (dist/lsp.js) and the architectures a workspace brings: a prompt in a copy of
// examples/architectures/cap is checked against cap's manifest (an undefined variable is an error naming the
// role's variables) and `waypoint.arch:` completes to cap, whether the folder is the workspace's own
// .waypoint/architectures/cap or one found through the client's architecturePaths; an untrusted client gets none
// of it (an architecture is code), and an edited folder is loaded again when the client reports the change.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CompletionRequest, DidChangeWatchedFilesNotification, FileChangeType, type CompletionList, type PublishDiagnosticsParams } from 'vscode-languageserver/node';
import { LspClient, REPO, assertBundleFresh } from './lspClient.js';

const T = { timeout: 60_000 };
const CAP = join(REPO, 'examples/architectures/cap');
let tmp: string;

before(() => {
  assertBundleFresh();
  tmp = mkdtempSync(join(tmpdir(), 'waypoint-lsp-arch-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of the example under `root/<rel>/cap`; returns the policy prompt's path. */
function copyCap(root: string, rel: string): string {
  cpSync(CAP, join(root, rel, 'cap'), { recursive: true });
  return join(root, rel, 'cap', 'prompts', 'policy.prompt');
}

/** A diagnostic's text (a string, or markup for clients that ask for it). */
const msgOf = (m: string | { value: string }) => (typeof m === 'string' ? m : m.value);
const undefinedName = (d: PublishDiagnosticsParams) => d.diagnostics.find((x) => msgOf(x.message).includes("'undefined_name'"));

async function openWithUndefinedName(client: LspClient, file: string): Promise<{ uri: string; text: string; diag: PublishDiagnosticsParams }> {
  const text = `${readFileSync(file, 'utf8')}\n{{undefined_name}}\n`;
  const uri = pathToFileURL(file).href;
  return { uri, text, diag: await client.open(uri, text) };
}

async function archCompletions(client: LspClient, uri: string, text: string): Promise<string[]> {
  const line = text.split('\n').findIndex((l) => l.startsWith('waypoint.arch:'));
  const r = (await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line, character: text.split('\n')[line]!.length } })) as CompletionList;
  return r.items.map((i) => i.label);
}

test("a prompt in the workspace's .waypoint/architectures/cap is checked against cap's manifest", T, async () => {
  const ws = join(tmp, 'own');
  const file = copyCap(ws, '.waypoint/architectures');
  const client = new LspClient();
  try {
    await client.initialize(pathToFileURL(ws).href, undefined, { trusted: true });
    const { uri, text, diag } = await openWithUndefinedName(client, file);
    const d = undefinedName(diag);
    assert.ok(d, `a diagnostic for undefined_name: ${JSON.stringify(diag.diagnostics)}`);
    assert.equal(d.severity, 1, 'an error, as for a built-in role');
    assert.match(msgOf(d.message), /cap's policy prompt is given task, objects/);
    assert.equal(d.range.start.line, text.split('\n').findIndex((l) => l.includes('{{undefined_name}}')));
    assert.ok(!diag.diagnostics.some((x) => /No architecture 'cap'/.test(msgOf(x.message))), 'cap is known');
    assert.ok((await archCompletions(client, uri, text)).includes('cap'), 'waypoint.arch: completes to cap');
  } finally {
    await client.stop();
  }
});

test('a folder named in architecturePaths (relative to the workspace) is loaded too; an untrusted client loads none', T, async () => {
  const ws = join(tmp, 'viaPath');
  const file = copyCap(ws, 'shared/archs');
  const trusted = new LspClient();
  try {
    await trusted.initialize(pathToFileURL(ws).href, undefined, { trusted: true, architecturePaths: ['shared/archs'] });
    const { diag } = await openWithUndefinedName(trusted, file);
    assert.match(msgOf(undefinedName(diag)?.message ?? ''), /cap's policy prompt is given/);
  } finally {
    await trusted.stop();
  }
  const restricted = new LspClient();
  try {
    await restricted.initialize(pathToFileURL(ws).href, undefined, { trusted: false, architecturePaths: ['shared/archs'] });
    const { diag } = await openWithUndefinedName(restricted, file);
    assert.ok(diag.diagnostics.some((x) => /No architecture 'cap'/.test(msgOf(x.message))), `not loaded in an untrusted workspace: ${JSON.stringify(diag.diagnostics)}`);
  } finally {
    await restricted.stop();
  }
});

test('a broken folder is refused with file:line on the server log and the other architectures keep working; a fix is picked up', T, async () => {
  const ws = join(tmp, 'broken');
  const file = copyCap(ws, '.waypoint/architectures');
  const loop = join(ws, '.waypoint/architectures/cap/loop.ts');
  const good = readFileSync(loop, 'utf8');
  writeFileSync(loop, `${good}\nexport const broken = ;\n`);
  const client = new LspClient();
  try {
    await client.initialize(pathToFileURL(ws).href, undefined, { trusted: true });
    const { uri, text, diag } = await openWithUndefinedName(client, file);
    assert.ok(diag.diagnostics.some((x) => /No architecture 'cap'/.test(msgOf(x.message))), 'cap refused');
    // A built-in prompt is still checked against its manifest.
    const malmm = join(REPO, 'src/architectures/malmm/prompts/coder.prompt');
    const m = await client.open(pathToFileURL(malmm).href, `${readFileSync(malmm, 'utf8')}\n{{undefined_name}}\n`);
    assert.match(msgOf(undefinedName(m)?.message ?? ''), /malmm's coder prompt is given/);
    // The fix, reported as the client's file watcher would: cap loads and the open prompt is checked again.
    writeFileSync(loop, good);
    await client.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(loop).href, type: FileChangeType.Changed }] });
    const again = await client.diagnostics(uri, (p) => msgOf(undefinedName(p)?.message ?? '').includes("cap's policy prompt"));
    assert.equal(undefinedName(again)?.severity, 1);
    assert.ok(text.includes('waypoint.arch: cap'));
  } finally {
    await client.stop();
  }
  assert.match(client.stderr.join('') + client.logs.join('\n'), /loop\.ts:\d+: architecture 'cap' refused/);
});

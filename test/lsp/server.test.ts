// The .prompt language server over stdio (dist/lsp.js): capabilities, pushed diagnostics of every kind, edits,
// completion, hover (with the latest run's values), symbols, folding and waypoint/lastRunValues.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CompletionRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  InsertTextFormat,
  type CompletionItem,
  type CompletionList,
  type DocumentSymbol,
  type Hover,
  type MarkupContent,
  type SymbolInformation,
} from 'vscode-languageserver/node';
import { LastRunValues } from '../../src/protocol/lsp.js';
import { TraceEvent } from '../../src/protocol/trace.js';
import { LspClient, REPO, assertBundleFresh } from './lspClient.js';

const T = { timeout: 30_000 };
const fixture = (name: string) => readFileSync(join(REPO, 'test/fixtures/prompts', name), 'utf8');
const lineOf = (text: string, s: string) => text.split('\n').findIndex((l) => l.includes(s));

/** A run trace with role calls of `role`, each line validated against the real schema. */
function writeRun(root: string, runId: string, role: string, variables: Record<string, unknown>[], startedAt = '2026-11-21T00:00:00Z'): void {
  const dir = join(root, '.waypoint/runs', runId);
  mkdirSync(dir, { recursive: true });
  const start = {
    seq: 0, tMs: 0, type: 'episode_start', schemaVersion: 1, runId, arch: 'malmm', agentVariant: 'malmm', task: 'stack', taskDescription: 'Stack the blocks',
    seed: 0, variant: 'default', ablations: {}, model: { provider: 'reference', model: 'ref', label: 'reference (scripted, not an LLM)' }, prompts: [],
    simulator: { name: 'mujoco' }, options: { maxTurns: 10, maxConsecutiveErrors: 5, persistNamespace: false, codeTimeoutSecs: 10 }, startedAt,
  };
  const calls = variables.map((v, i) => ({
    seq: i + 1, tMs: i + 1, type: 'role_call', turn: i, callId: `c${i}`, role, messages: [{ role: 'system', content: 'x' }], model: 'ref', params: {}, promptPath: 'prompts/malmm/coder.prompt', variables: v,
  }));
  writeFileSync(join(dir, 'trace.jsonl'), [start, ...calls].map((e) => JSON.stringify(TraceEvent.parse(e)) + '\n').join(''));
}

describe('language server over stdio', () => {
  let client: LspClient;
  let root: string;
  const uri = (name: string) => pathToFileURL(join(root, name)).href;

  before(async () => {
    assertBundleFresh();
    root = mkdtempSync(join(tmpdir(), 'waypoint-lsp-'));
    writeRun(root, '20261120-100000-malmm-stack-s0-aaaa', 'agent', [{ task: 'an older task' }]);
    writeRun(root, '20261121-100000-malmm-stack-s0-bbbb', 'agent', [{ task: 'first turn' }, { task: 'stack the red block on the blue one', state: 'x'.repeat(1000) }]);
    writeRun(root, '20261122-100000-malmm-stack-s0-cccc', 'planner', [{ task: 'planner only' }]);
    // A sweep's run, named by its episode key (sorts after every timestamped id by name), started earlier.
    writeRun(root, 'malmm-stack-malmm-s0-5e1f', 'coder', [{ task: 'an older sweep episode' }], '2026-11-19T00:00:00Z');
    writeFileSync(join(root, 'coder.prompt'), fixture('good.prompt'));
    client = new LspClient();
    await client.initialize(pathToFileURL(root).href);
  });
  after(async () => {
    if (client) assert.equal(await client.stop(), 0);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test('initialize advertises push diagnostics (no pull), completion triggers, hover, symbols, folding', T, async () => {
    const probe = new LspClient();
    const r = await probe.initialize(null);
    assert.equal(r.capabilities.textDocumentSync, 2);
    assert.equal(r.capabilities.diagnosticProvider, undefined);
    assert.deepEqual(r.capabilities.completionProvider?.triggerCharacters, ['{', '#', '/', '"', '(', '@']);
    assert.equal(r.capabilities.hoverProvider, true);
    assert.ok(r.capabilities.documentSymbolProvider);
    assert.equal(r.capabilities.foldingRangeProvider, true);
    assert.equal(await probe.stop(), 0);
  });

  test('diagnostics of each kind are pushed on open, with file positions', T, async () => {
    const expect: Record<string, [string, string][]> = {
      'good.prompt': [],
      'yamlError.prompt': [['yaml', '5:0']],
      'hbsError.prompt': [['hbs-parse', '10:27']],
      'unknownNames.prompt': [['undefined-variable', '9:8'], ['unknown-helper', '10:7'], ['undefined-variable', '11:8']],
      'ablationErrors.prompt': [['ablation-duplicate', '12:12'], ['ablation-invalid-id', '15:12'], ['ablation-unclosed', '18:0']],
      'budget.prompt': [['budget', '6:30']],
      'missingRole.prompt': [['missing-role', '0:0']],
    };
    for (const [name, want] of Object.entries(expect)) {
      const p = await client.open(uri(name), fixture(name));
      assert.deepEqual(p.diagnostics.map((d) => [d.code, `${d.range.start.line}:${d.range.start.character}`]), want, name);
      assert.ok(p.diagnostics.every((d) => d.source === 'waypoint'));
    }
    const dup = (await client.diagnostics(uri('ablationErrors.prompt'))).diagnostics[0];
    assert.equal(dup.relatedInformation?.[0].location.range.start.line, 9);
    const budget = (await client.diagnostics(uri('budget.prompt'))).diagnostics[0];
    assert.match(String(budget.message), /estimate/);
    const closed = await client.close(uri('budget.prompt'));
    assert.deepEqual(closed.diagnostics, []);
  });

  test('an edit republishes diagnostics for the new version', T, async () => {
    const u = uri('edit.prompt');
    const text = fixture('unknownNames.prompt');
    const first = await client.open(u, text);
    assert.equal(first.diagnostics.length, 3);
    const fixed = text.replace('{{tsk}}', '{{task}}').replace('{{#if (shout task)}}loud{{/if}}\n', '').replace('{{#each items}}{{name}}{{/each}}\n', '');
    const second = await client.change(u, 2, fixed);
    assert.deepEqual(second.diagnostics, []);
    const broken = await client.change(u, 3, fixed + '{{#if task}}\n');
    assert.deepEqual(broken.diagnostics.map((d) => d.code), ['hbs-parse']);
  });

  test("a misspelt variable ({{axess}}) is an error on its range naming the role's variables; a copy under prompts/malmm/ without waypoint keys too; an edit clears it", T, async () => {
    const text = readFileSync(join(REPO, 'src/architectures/malmm/prompts/planner.prompt'), 'utf8').replace('{{axes}}', '{{axess}}');
    const line = lineOf(text, '{{axess}}');
    const col = text.split('\n')[line]!.indexOf('axess');
    const want = { start: { line, character: col }, end: { line, character: col + 5 } };
    const typo = (await client.open(uri('typo-planner.prompt'), text)).diagnostics.filter((d) => d.code === 'undefined-variable');
    assert.equal(typo.length, 1);
    assert.deepEqual(typo[0]!.range, want);
    assert.equal(typo[0]!.severity, 1, 'an error');
    assert.equal(typo[0]!.message, "Undefined variable 'axess' (did you mean 'axes'?): malmm's planner prompt is given task, table_top_z, x_range, y_range, axes; 'axess' would render empty");
    // A workspace override is the planner's prompt by its place, whatever its front matter says.
    const bare = text.replace(/^waypoint\.(arch|role): .*\n/gm, '');
    const bareLine = lineOf(bare, '{{axess}}');
    const overrideUri = pathToFileURL(join(root, 'prompts', 'malmm', 'planner.prompt')).href;
    const override = (await client.open(overrideUri, bare)).diagnostics.filter((d) => d.code === 'undefined-variable');
    assert.deepEqual(override.map((d) => [d.range.start.line, d.range.start.character]), [[bareLine, col]]);
    const fixed = await client.change(overrideUri, 2, bare.replace('{{axess}}', '{{axes}}'));
    assert.deepEqual(fixed.diagnostics.filter((d) => d.code === 'undefined-variable'), []);
  });

  test('completion: documented variables, an ablation snippet, ablation ids, robot API names', T, async () => {
    const u = uri('complete.prompt');
    const text = fixture('good.prompt');
    await client.open(u, text);
    const complete = async (line: number, character: number) => {
      const r = (await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: u }, position: { line, character } })) as CompletionList;
      return r.items;
    };
    const byLabel = (items: CompletionItem[], l: string) => items.find((i) => i.label === l);
    const taskLine = lineOf(text, 'Task: {{task}}');
    const vars = await complete(taskLine, 10);
    const task = byLabel(vars, 'task');
    assert.equal(task?.detail, 'string');
    assert.deepEqual(task?.documentation, { kind: 'markdown', value: 'the natural-language task instruction' });
    assert.deepEqual(task?.textEdit && 'range' in task.textEdit ? task.textEdit.range : undefined, { start: { line: taskLine, character: 8 }, end: { line: taskLine, character: 10 } });
    assert.ok(byLabel(vars, 'history'));

    const ablLine = lineOf(text, '{{#ablation "coder.step_by_step.wait"');
    const ids = await complete(ablLine, 13);
    assert.deepEqual(ids.map((i) => i.label), ['coder.step_by_step', 'coder.step_by_step.wait']);

    const blockLine = lineOf(text, '{{#if ee_yaw}}');
    const helpers = await complete(blockLine, 3);
    const snippet = byLabel(helpers, 'ablation');
    assert.equal(snippet?.insertTextFormat, InsertTextFormat.Snippet);

    const apiLine = lineOf(text, 'Call execute_trajectory');
    const api = await complete(apiLine, 'You are the Coder. Call exec'.length);
    assert.deepEqual(api.map((i) => i.label), ['execute_trajectory', 'open_gripper', 'close_gripper', 'task_completed']);
  });

  test('hover: variable doc with its value in the latest run, helper, API signature, ablation label', T, async () => {
    const u = uri('coder.prompt');
    const text = fixture('good.prompt');
    await client.open(u, text);
    const hover = async (s: string, dx: number) => {
      const h = (await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri: u }, position: { line: lineOf(text, s), character: text.split('\n')[lineOf(text, s)].indexOf(s) + dx } })) as Hover | null;
      return h ? (h.contents as MarkupContent) : undefined;
    };
    const task = await hover('Task: {{task}}', 9);
    assert.equal(task?.kind, 'markdown');
    assert.match(task!.value, /\*\*task\*\* `string` · required\n\nthe natural-language task instruction/);
    assert.match(task!.value, /Value in the latest run \(`20261121-100000-malmm-stack-s0-bbbb`, turn 1\):\n```text\nstack the red block on the blue one\n```/);
    const state = await hover('State: {{state}}', 10);
    assert.match(state!.value, /x{300}… \(1000 chars\)/, 'long values are cut');
    const yaw = await hover('{{#if ee_yaw}}', 8);
    assert.match(yaw!.value, /Not set in the latest run/);
    assert.match((await hover('{{history}}', 3))!.value, /^\*\*history\*\* \(helper\)/);
    assert.match((await hover('execute_trajectory', 3))!.value, /execute_trajectory\(position: list\[float\], orientation: float\) -> None/);
    assert.match((await hover('{{#ablation "coder.step_by_step"', 15))!.value, /`coder.step_by_step` — One step per block/);
  });

  test('documentSymbol is hierarchical and foldingRange covers front matter and ablations', T, async () => {
    const u = uri('outline.prompt');
    await client.open(u, fixture('good.prompt'));
    const syms = (await client.conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: u } })) as DocumentSymbol[];
    assert.deepEqual(syms.map((s) => s.name), ['front matter', 'system message', 'user message']);
    const rules = syms[1].children!.find((c) => c.name === 'CODE RULES')!;
    assert.deepEqual(rules.children!.map((c) => [c.name, c.detail, c.children!.map((x) => x.name)]), [['coder.step_by_step', 'One step per block', ['coder.step_by_step.wait', 'else']]]);
    const folds = await client.conn.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: u } });
    assert.ok(folds);
    assert.deepEqual(folds.find((f) => f.startLine === 0), { startLine: 0, endLine: 13 });
    assert.deepEqual(folds.find((f) => f.startLine === 24), { startLine: 24, endLine: 30, kind: 'region' });
    assert.deepEqual(folds.find((f) => f.startLine === 33), { startLine: 33, endLine: 34, kind: 'comment' });
  });

  test('waypoint/lastRunValues answers from the newest trace (by start time) with a call of the role', T, async () => {
    // coder.prompt is on disk; the request works whether or not the document is open.
    const r = LastRunValues.result.parse(await client.conn.sendRequest(LastRunValues.method, { uri: uri('coder.prompt') }));
    assert.equal(r?.runId, '20261121-100000-malmm-stack-s0-bbbb');
    assert.equal(r?.turn, 1);
    assert.equal(r?.role, 'agent');
    assert.equal(r?.variables.task, 'stack the red block on the blue one');
    assert.ok(r?.tracePath.endsWith('20261121-100000-malmm-stack-s0-bbbb/trace.jsonl'));
    const noRuns = await client.open(uri('researcher.prompt'), fixture('good.prompt').replace('waypoint.role: agent', 'waypoint.role: researcher'));
    assert.deepEqual(noRuns.diagnostics, []);
    assert.equal(await client.conn.sendRequest(LastRunValues.method, { uri: uri('researcher.prompt') }), null);
    await assert.rejects(client.conn.sendRequest(LastRunValues.method, { nope: 1 }), /invalid params/);
  });
});

test('a client without hierarchical symbols, snippets or markdown gets flat symbols and plain text', T, async () => {
  assertBundleFresh();
  const client = new LspClient();
  try {
    await client.initialize(null, {});
    const u = 'file:///tmp/waypoint-plain/coder.prompt';
    const text = fixture('good.prompt');
    await client.open(u, text);
    const syms = (await client.conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: u } })) as SymbolInformation[];
    assert.ok(syms.every((s) => 'location' in s));
    assert.equal(syms.find((s) => s.name === 'coder.step_by_step.wait')?.containerName, 'coder.step_by_step');
    const line = lineOf(text, '{{#if ee_yaw}}');
    const list = (await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: u }, position: { line, character: 3 } })) as CompletionList;
    const abl = list.items.find((i) => i.label === 'ablation')!;
    assert.equal(abl.insertTextFormat, undefined);
    assert.ok(abl.textEdit && !abl.textEdit.newText.includes('$'), 'snippet placeholders removed');
    const h = (await client.conn.sendRequest(HoverRequest.type, { textDocument: { uri: u }, position: { line: lineOf(text, 'Task: {{task}}'), character: 9 } })) as Hover;
    assert.equal((h.contents as MarkupContent).kind, 'plaintext');
  } finally {
    assert.equal(await client.stop(), 0);
  }
});

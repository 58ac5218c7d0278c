// The debugger in the real VS Code: `⏵ Debug live test` starts a `waypoint` session (dist/dap.js as a separate
// process), a breakpoint in the Coder prompt is verified and stops before the Coder's turn, the stack and the
// variables come from the session, step over moves to the next role turn, Restart Frame after an edit forks the run
// (and the run viewer opens the fork), and stopping the session closes the trace as cancelled.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { readTrace } from '../../../src/core/trace/reader.js';
import { activeExtension, codeLenses, note, runViewerTabs, waitFor, within, wsUri } from './helpers.js';

interface DapMessage {
  type: string;
  event?: string;
  command?: string;
  body?: Record<string, unknown>;
}

const CODER = wsUri('prompts', 'malmm', 'coder.prompt');

describe('debugger', function () {
  const seen: DapMessage[] = [];
  let tracker: vscode.Disposable | undefined;
  let session: vscode.DebugSession | undefined;
  let original = '';

  before(async function () {
    await activeExtension();
    tracker = vscode.debug.registerDebugAdapterTrackerFactory('waypoint', {
      createDebugAdapterTracker: () => ({ onDidSendMessage: (m: DapMessage) => void seen.push(m) }),
    });
    original = readFileSync(CODER.fsPath, 'utf8');
  });

  after(async function () {
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    if (session) await vscode.debug.stopDebugging(session).then(undefined, () => undefined);
    tracker?.dispose();
    // Leave the prompt as the other suites expect it.
    const doc = await vscode.workspace.openTextDocument(CODER);
    if (doc.getText() !== original) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(CODER, new vscode.Range(0, 0, doc.lineCount, 0), original);
      await vscode.workspace.applyEdit(edit);
      await doc.save();
    }
  });

  const stops = () => seen.filter((m) => m.type === 'event' && m.event === 'stopped');
  async function nextStop(after: number, what: string, timeoutMs = 120_000): Promise<DapMessage> {
    return waitFor(what, timeoutMs, () => stops()[after], 100);
  }

  it('⏵ Debug live test: a verified breakpoint in coder.prompt stops before the Coder’s turn, with stack and variables', async function () {
    this.timeout(240_000);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(CODER));
    const line = original.split('\n').findIndex((l) => l.startsWith('CODE GENERATION:'));
    vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(CODER, new vscode.Position(line, 0)))]);
    const lens = await waitFor('the Debug live test lens', 15_000, async () => (await codeLenses(CODER)).find((l) => l.command?.title === '$(debug-alt) Debug live test'));
    const started = new Promise<vscode.DebugSession>((r) => {
      const d = vscode.debug.onDidStartDebugSession((s) => {
        if (s.type === 'waypoint') {
          d.dispose();
          r(s);
        }
      });
    });
    const ok = await within(60_000, 'the debug command did not return', vscode.commands.executeCommand<boolean>(lens.command!.command, ...(lens.command!.arguments ?? [])));
    assert.equal(ok, true, 'startDebugging succeeded');
    session = await within(30_000, 'no waypoint debug session started', started);
    const verified = await waitFor('the breakpoint verified by the adapter', 60_000, () =>
      seen.find((m) => m.type === 'response' && m.command === 'setBreakpoints' && ((m.body?.breakpoints as { verified: boolean }[] | undefined) ?? []).some((b) => b.verified)),
    );
    assert.ok(verified);
    const stop = await nextStop(0, 'a stop at the breakpoint');
    assert.equal(stop.body?.reason, 'breakpoint');
    const frames = ((await session.customRequest('stackTrace', { threadId: 1 })) as { stackFrames: { id: number; name: string; line: number; source?: { path?: string } }[] }).stackFrames;
    assert.match(frames[0]!.name, /^Coder · turn \d+$/);
    // A remote window (code-server) hands paths back as vscode-remote:// URIs.
    assert.ok(decodeURIComponent(frames[0]!.source?.path ?? '').endsWith(CODER.fsPath), `the frame's source is coder.prompt: ${frames[0]!.source?.path}`);
    assert.equal(frames[0]!.line, line + 1);
    const scopes = ((await session.customRequest('scopes', { frameId: frames[0]!.id })) as { scopes: { name: string; variablesReference: number }[] }).scopes;
    assert.deepEqual(scopes.map((s) => s.name).slice(0, 3), ['Context', 'Messages', 'Parsed output']);
    const messages = ((await session.customRequest('variables', { variablesReference: scopes[1]!.variablesReference })) as { variables: { name: string; value: string }[] }).variables;
    assert.match(messages[0]!.value, /You are an AI that writes Python code/);
    await waitFor('the run viewer beside the session', 30_000, () => runViewerTabs().length > 0);
    note('debugFirstStop', { frame: frames[0]!.name, scopes: scopes.map((s) => s.name) });
  });

  it('step over moves to the next role turn', async function () {
    this.timeout(120_000);
    const n = stops().length;
    await vscode.commands.executeCommand('workbench.action.debug.stepOver');
    const stop = await nextStop(n, 'a stop after step over');
    assert.equal(stop.body?.reason, 'step');
    const frames = ((await session!.customRequest('stackTrace', { threadId: 1 })) as { stackFrames: { name: string }[] }).stackFrames;
    assert.match(frames[0]!.name, / · turn \d+$/);
  });

  it('Restart Frame after editing the prompt forks the run; the fork’s turn sends the edit; the viewer opens the fork', async function () {
    this.timeout(180_000);
    // Back to the Coder's turn (the breakpoint is a stop of its own when walking back).
    let n = stops().length;
    await session!.customRequest('reverseContinue', { threadId: 1 });
    await nextStop(n, 'a stop after reverse continue');
    const frames = ((await session!.customRequest('stackTrace', { threadId: 1 })) as { stackFrames: { id: number; name: string; canRestart?: boolean }[] }).stackFrames;
    const coderFrame = frames.find((f) => f.canRestart && f.name.startsWith('Coder'));
    assert.ok(coderFrame, `a restartable Coder frame: ${frames.map((f) => f.name).join(' | ')}`);
    const doc = await vscode.workspace.openTextDocument(CODER);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(CODER, new vscode.Range(0, 0, doc.lineCount, 0), original.replace('CODE GENERATION:', 'CODE GENERATION (edited in the debugger):'));
    await vscode.workspace.applyEdit(edit);
    await doc.save();
    const tabs = runViewerTabs().length;
    n = stops().length;
    await session!.customRequest('restartFrame', { frameId: coderFrame.id });
    const stop = await nextStop(n, 'a stop at the restarted turn');
    assert.equal(stop.body?.reason, 'restart');
    const top = ((await session!.customRequest('stackTrace', { threadId: 1 })) as { stackFrames: { id: number }[] }).stackFrames[0]!;
    const msgs = await session!.customRequest('evaluate', { expression: 'messages[0].content', frameId: top.id, context: 'watch' });
    assert.match((msgs as { result: string }).result, /CODE GENERATION \(edited in the debugger\):/);
    const status = (await session!.customRequest('waypoint/status')) as { modelCalls: number; tracePath: string; forks: number };
    assert.equal(status.forks, 1);
    assert.equal(status.modelCalls, 0);
    const start = readTrace(readFileSync(status.tracePath, 'utf8')).events[0];
    assert.ok(start?.type === 'episode_start' && start.fork, 'the fork records its parent');
    await waitFor('a run viewer for the fork', 30_000, () => runViewerTabs().length > tabs);
    note('debugFork', { tracePath: status.tracePath, via: start.type === 'episode_start' ? start.fork?.via : undefined });
  });

  it('stopping the session ends the episode and marks the trace cancelled', async function () {
    this.timeout(60_000);
    const status = (await session!.customRequest('waypoint/status')) as { tracePath: string };
    const ended = new Promise<void>((r) => {
      const d = vscode.debug.onDidTerminateDebugSession((s) => {
        if (s.id === session!.id) {
          d.dispose();
          r();
        }
      });
    });
    await vscode.debug.stopDebugging(session);
    await within(30_000, 'the session did not end', ended);
    session = undefined;
    const events = await waitFor('episode_end in the fork trace', 20_000, () => {
      const ev = readTrace(readFileSync(status.tracePath, 'utf8')).events;
      return ev.some((e) => e.type === 'episode_end') ? ev : undefined;
    });
    const end = events[events.length - 1];
    assert.equal(end?.type === 'episode_end' && end.reason, 'cancelled');
  });
});

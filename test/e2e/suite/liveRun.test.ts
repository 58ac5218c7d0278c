// A live test run from the command (the Run lens's command and arguments): one episode against the embedded
// MuJoCo simulator with the reference model, ending with a trace under .waypoint/runs and a run viewer panel.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { readTrace } from '../../../src/core/trace/reader.js';
import type { TraceEvent } from '../../../src/protocol/trace.js';
import { activeExtension, codeLenses, e2eEnv, note, runFolders, runViewerTabs, waitFor, within, wsUri } from './helpers.js';

const RUN_TIMEOUT_MS = 240_000;

function finishedTrace(path: string): TraceEvent[] | undefined {
  if (!existsSync(path)) return undefined;
  const { events } = readTrace(readFileSync(path, 'utf8'));
  return events.some((e) => e.type === 'episode_end') ? events : undefined;
}

describe('live test run', function () {
  before(async function () {
    await activeExtension();
  });

  it('the Run lens command runs an episode to a trace under .waypoint/runs and opens a run viewer', async function () {
    this.timeout(RUN_TIMEOUT_MS + 60_000);
    const env = e2eEnv();
    const uri = wsUri('prompts', 'malmm', 'coder.prompt');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const lens = await waitFor('the ▶ Run live test lens', 15_000, async () => (await codeLenses(uri)).find((l) => l.command?.title === '▶ Run live test'));
    const runsBefore = new Set(runFolders());
    const tabsBefore = runViewerTabs().length;
    const t0 = Date.now();
    const handle = await within(60_000, `${lens.command!.command} did not return`, vscode.commands.executeCommand<{ started?: Promise<string | undefined>; done?: Promise<unknown> } | undefined>(lens.command!.command, ...(lens.command!.arguments ?? [])));
    // The command hands back {started, done} to callers in the same extension host; else find the run on disk.
    let tracePath: string | undefined;
    if (handle?.started) tracePath = await within(60_000, 'the run did not start (no trace path)', handle.started);
    tracePath ??= await waitFor('a new run folder under .waypoint/runs', 60_000, () => {
      const fresh = runFolders().filter((r) => !runsBefore.has(r));
      return fresh.length > 0 ? join(env.workspace, '.waypoint', 'runs', fresh[0], 'trace.jsonl') : undefined;
    });
    assert.ok(tracePath, 'the run has a trace path');
    assert.equal(join(tracePath, '..', '..'), join(env.workspace, '.waypoint', 'runs'), `the trace is under .waypoint/runs: ${tracePath}`);
    const events = await waitFor(`episode_end in ${tracePath}`, RUN_TIMEOUT_MS, () => finishedTrace(tracePath), 250);
    const runMs = Date.now() - t0;
    const start = events[0];
    const end = events.find((e) => e.type === 'episode_end');
    assert.equal(start.type, 'episode_start');
    assert.ok(end && end.type === 'episode_end');
    note('liveRun', { runMs, tracePath, success: end.success, reason: end.reason, turns: end.metrics.turns, modelCalls: end.metrics.modelCalls, events: events.length });
    console.log(`live run: ${end.success ? 'success' : `failure (${end.reason})`} in ${(runMs / 1000).toFixed(1)} s, ${end.metrics.turns} turns, ${events.length} events`);
    assert.equal(end.success, true, `the reference model's episode succeeds (reason ${end.reason}${end.message ? `: ${end.message}` : ''})`);
    if (handle?.done) await within(30_000, 'the run handle did not settle after episode_end', handle.done);
    await waitFor('a run viewer panel (webview tab of type waypoint.runViewer)', 20_000, () => runViewerTabs().length > tabsBefore || runViewerTabs().length > 0);
  });

  it('waypoint.openRun opens a trace from outside the workspace in a run viewer', async function () {
    const env = e2eEnv();
    const before = runViewerTabs().length;
    const opened = await within(20_000, 'waypoint.openRun did not return', vscode.commands.executeCommand<string | undefined>('waypoint.openRun', env.fixtureTrace));
    assert.equal(opened, env.fixtureTrace, 'openRun answers with the trace path it opened');
    const tabs = await waitFor('one more run viewer tab', 20_000, () => (runViewerTabs().length > before ? runViewerTabs() : undefined));
    note('runViewerTabs', tabs.map((t) => t.label));
  });
});

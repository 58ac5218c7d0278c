// `waypoint.openRunAtTurn`: the run viewer at the turn a test's failure began. Called from a failure message's link
// (`{tracePath, turn}`) or from the message's context menu in the Test Results (`{test, message}`: the last
// outcome of that test in .waypoint/test-results.json, so it works after a reload too).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ctx } from '../ctx.js';
import { fromStored, parseResults, TEST_RESULTS_FILE } from './resultsStore.js';

async function target(ctx: Ctx, arg: unknown): Promise<{ tracePath?: string; turn?: number }> {
  if (typeof arg === 'string') return { tracePath: arg };
  if (!arg || typeof arg !== 'object') return {};
  const a = arg as { tracePath?: unknown; turn?: unknown; test?: { id?: unknown } };
  if (typeof a.tracePath === 'string') return { tracePath: a.tracePath, ...(typeof a.turn === 'number' ? { turn: a.turn } : {}) };
  const id = a.test?.id;
  const root = ctx.workspaceRoot();
  if (typeof id !== 'string' || !root) return {};
  const text = await readFile(join(root, TEST_RESULTS_FILE), 'utf8').catch(() => undefined);
  const stored = text ? parseResults(text).results.get(id) : undefined;
  if (!stored) return {};
  const o = fromStored(stored, root);
  return { ...(o.tracePath ? { tracePath: o.tracePath } : {}), ...(o.turn !== undefined ? { turn: o.turn } : {}) };
}

export async function openRunAtTurn(ctx: Ctx, arg: unknown): Promise<string | undefined> {
  const { tracePath, turn } = await target(ctx, arg);
  if (!tracePath) throw new Error('no run is recorded for this test yet (run it first)');
  if (!existsSync(tracePath)) throw new Error(`the run's trace is gone: ${tracePath}`);
  const { RunViewerPanel } = await import('../panels/runViewerPanel.js');
  const panel = RunViewerPanel.createOrShow(ctx, tracePath, ctx.liveRuns.get(tracePath));
  if (turn !== undefined) panel.showTurn(turn);
  return tracePath;
}

// `waypoint.openSweep`: the comparison view of a sweep run by `waypoint sweep` (a folder under
// .waypoint/sweeps/ with a plan.json). Argument: the sweep's folder or name; without one, a pick of the workspace's
// sweeps, newest first.
import * as vscode from 'vscode';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { PLAN_FILE } from '../../core/sweep/scheduler.js';
import type { Ctx } from '../ctx.js';
import { SweepMatrixPanel } from '../panels/sweepMatrixPanel.js';
import { toUri } from './args.js';

function sweepsOf(root: string): { name: string; dir: string; mtime: number }[] {
  const base = join(root, '.waypoint', 'sweeps');
  if (!existsSync(base)) return [];
  return readdirSync(base)
    .map((name) => ({ name, dir: join(base, name) }))
    .filter((s) => existsSync(join(s.dir, PLAN_FILE)))
    .map((s) => ({ ...s, mtime: statSync(join(s.dir, PLAN_FILE)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
}

export async function openSweep(ctx: Ctx, arg?: unknown): Promise<string | undefined> {
  const root = ctx.workspaceRoot();
  let dir: string | undefined;
  const given = typeof arg === 'string' && arg ? arg : toUri(arg)?.fsPath;
  if (given) {
    dir = [given, root && !isAbsolute(given) ? join(root, '.waypoint', 'sweeps', given) : undefined].find((d): d is string => Boolean(d && existsSync(join(d, PLAN_FILE))));
    if (!dir) throw new Error(`no sweep at '${given}': give a folder with a ${PLAN_FILE} or a sweep name under .waypoint/sweeps/`);
  } else {
    const sweeps = root ? sweepsOf(root) : [];
    if (sweeps.length === 0) {
      void vscode.window.showInformationMessage('No sweeps in this workspace yet: run `waypoint sweep <file.yaml>` (docs/sweeps.md), then open it here.');
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      sweeps.map((s) => ({ label: s.name, description: new Date(s.mtime).toLocaleString(), dir: s.dir })),
      { title: 'Waypoint: Open Sweep Comparison', placeHolder: 'Pick a sweep (newest first)' },
    );
    if (!pick) return undefined;
    dir = pick.dir;
  }
  await SweepMatrixPanel.show(ctx, dir);
  return dir;
}

// What both e2e runners need before VS Code starts: where things are, the bundled mocha suite, fresh copies of
// the example workspace.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, stop as stopEsbuild } from 'esbuild';
import { nodeIO } from '../../src/core/node/nodeHost.js';
import { writeExampleWorkspace } from '../../src/core/runs/exampleWorkspace.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const OUT = join(REPO, 'test', 'output', 'e2e');
/** The bundled suite: inside the repository, so VS Code attributes its API calls to the extension under test. */
export const SUITE_OUT = join(OUT, 'suite');
export const FIXTURE_TRACE = join(REPO, 'test', 'fixtures', 'traces', 'malmm-pick-place.jsonl');
// Named like a real run id so the viewer titles it; the Open Run quick pick labels it by its start time.
export const FIXTURE_RUN_ID = '20260314-102205-malmm-pick_place-s7-ee20';
export const FIXTURE_RUN_LABEL = '2026-03-14 10:22:05';

export function sh(cmd: string, args: string[], what: string): void {
  const r = spawnSync(cmd, args, { cwd: REPO, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${what} failed (${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal})`);
}

/** Bundles test/e2e/suite/{index,*.test}.ts to CommonJS (VS Code requires extensionTestsPath). */
export async function bundleSuite(): Promise<void> {
  rmSync(SUITE_OUT, { recursive: true, force: true });
  const dir = join(REPO, 'test', 'e2e', 'suite');
  const entries = readdirSync(dir).filter((n) => n.endsWith('.test.ts') || n === 'index.ts');
  await build({
    entryPoints: entries.map((n) => join(dir, n)),
    outdir: SUITE_OUT,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  await stopEsbuild(); // its service process would otherwise live as long as this one
}

/** A fresh copy of the example workspace (tests write runs and flip variants in it), written as users get it. */
export async function stageWorkspace(parent: string, name: string, opts: { fixtureRun?: boolean; empty?: boolean; settings?: Record<string, unknown> } = {}): Promise<string> {
  const ws = join(parent, name);
  rmSync(ws, { recursive: true, force: true });
  mkdirSync(ws, { recursive: true });
  if (opts.empty) return ws;
  await writeExampleWorkspace(nodeIO, REPO, ws);
  if (opts.fixtureRun) {
    mkdirSync(join(ws, '.waypoint', 'runs', FIXTURE_RUN_ID), { recursive: true });
    cpSync(FIXTURE_TRACE, join(ws, '.waypoint', 'runs', FIXTURE_RUN_ID, 'trace.jsonl'));
  }
  if (opts.settings) {
    mkdirSync(join(ws, '.vscode'), { recursive: true });
    writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify(opts.settings, null, 2));
  }
  return ws;
}

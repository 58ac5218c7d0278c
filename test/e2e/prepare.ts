// What both e2e runners need before VS Code starts: where things are, the bundled mocha suite, fresh copies of
// the example workspace.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, stop as stopEsbuild } from 'esbuild';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const OUT = join(REPO, 'test', 'output', 'e2e');
/** The bundled suite: inside the repository, so VS Code attributes its API calls to the extension under test. */
export const SUITE_OUT = join(OUT, 'suite');
export const FIXTURE_WS = join(REPO, 'test', 'fixtures', 'workspace');
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

/** A fresh copy of the example workspace (tests write runs and flip variants in it). */
export function stageWorkspace(parent: string, name: string, opts: { fixtureRun?: boolean; empty?: boolean; settings?: Record<string, unknown> } = {}): string {
  const ws = join(parent, name);
  rmSync(ws, { recursive: true, force: true });
  if (opts.empty) {
    mkdirSync(ws, { recursive: true });
    return ws;
  }
  if (!existsSync(join(FIXTURE_WS, '.waypoint', 'variants.yaml'))) {
    throw new Error(`${FIXTURE_WS}/.waypoint/variants.yaml is missing (.gitignore has .waypoint/: it needs the exception !test/fixtures/workspace/.waypoint/)`);
  }
  cpSync(FIXTURE_WS, ws, { recursive: true });
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

/** Fixture prompts that differ from the built-in ones (a warning: the example workspace should track them). */
export function fixtureDrift(): string[] {
  const a = join(REPO, 'prompts', 'malmm');
  const b = join(FIXTURE_WS, 'prompts', 'malmm');
  const names = new Set([...readdirSync(a), ...(existsSync(b) ? readdirSync(b) : [])]);
  return [...names].filter((n) => !existsSync(join(a, n)) || !existsSync(join(b, n)) || readFileSync(join(a, n), 'utf8') !== readFileSync(join(b, n), 'utf8')).sort();
}

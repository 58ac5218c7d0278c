// Where the worker script and Pyodide live, and how to start Node with its permission model.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * This module's directory in every build: CommonJS bundle (extension) and tsx-run sources have __dirname; an ES
 * module (the CLI bundle) does not, and import.meta cannot appear in code that also builds to CommonJS, so there
 * the path comes from V8's stack trace of this very function.
 */
function currentDir(): string {
  if (typeof __dirname === 'string') return __dirname;
  // Line 0 is the message; line 1 is this function's own frame (by position: bundles may be minified).
  const frame = new Error().stack?.split('\n')[1];
  const m = frame ? /\(?((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+|file:\/\/\/[A-Za-z]:[^():]+):\d+:\d+\)?\s*$/.exec(frame) : null;
  if (!m?.[1]) throw new Error('cannot locate the sandbox module to find dist/sandboxWorker.mjs; pass workerPath and pyodideDir');
  return dirname(m[1].startsWith('file:') ? fileURLToPath(m[1]) : m[1]);
}

/** Walk up from `start` to the directory whose package.json is named "waypoint". */
export function findPackageRoot(start: string = currentDir()): string {
  let dir = start;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'waypoint') return dir;
      } catch {
        // An unreadable or foreign package.json on the way up is not ours; keep walking.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the waypoint package root above ${start}: no package.json named "waypoint"`);
    dir = parent;
  }
}

export function defaultWorkerPath(root: string = findPackageRoot()): string {
  const path = join(root, 'dist', 'sandboxWorker.mjs');
  if (!existsSync(path)) throw new Error(`sandbox worker not built: ${path} is missing (run \`npm run build\`)`);
  return realpathSync(path);
}

/** The pyodide package directory (pyodide.mjs, pyodide.asm.wasm, python_stdlib.zip, ...). */
export function defaultPyodideDir(root: string = findPackageRoot()): string {
  const direct = join(root, 'node_modules', 'pyodide');
  if (existsSync(join(direct, 'pyodide.mjs'))) return realpathSync(direct);
  try {
    return realpathSync(dirname(createRequire(join(root, 'package.json')).resolve('pyodide')));
  } catch (e) {
    throw new Error(`cannot find the pyodide package from ${root}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** `--permission` is stable from Node 22.13 / 23.5; older Node 20-22 spell it `--experimental-permission`. */
export function permissionFlag(nodeVersion: string = process.versions.node): string {
  const [major = 0, minor = 0] = nodeVersion.split('.').map(Number);
  const stable = major >= 24 || (major === 23 && minor >= 5) || (major === 22 && minor >= 13);
  return stable ? '--permission' : '--experimental-permission';
}

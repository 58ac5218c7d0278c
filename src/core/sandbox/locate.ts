// Where the worker script and Pyodide live, and how to start Node with its permission model.
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The package root lookup is shared with the CLI and the extension.
import { findPackageRoot } from '../node/packageRoot.js';

export { findPackageRoot };

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

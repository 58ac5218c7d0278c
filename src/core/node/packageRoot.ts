import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of Waypoint's package.json, found by walking up from a module's location. Works from the bundles in
 * dist/, from sources run through tsx, and from an installed extension.
 */
export function findPackageRoot(from: string = typeof __dirname !== 'undefined' ? __dirname : dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'waypoint') return dir;
      } catch {
        // not ours; keep walking
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the waypoint package root above ${from}: no package.json named "waypoint"`);
    dir = up;
  }
}

/**
 * The root of the built-in architectures' prompt files in a package (`<root>/<arch>/prompts/<file>`): they ship in
 * the architectures' own folders (.vscodeignore names them) and are read at run time, so a user can open them.
 */
export function builtInPromptRoot(packageRoot: string = findPackageRoot()): string {
  return join(packageRoot, 'src', 'architectures');
}

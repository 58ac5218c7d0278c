// One folder per architecture (issue 23): src/architectures/<id>/ holds all an architecture owns (manifest, loop,
// prompts, reference policies, views, README), so no other path under src/, webview/ or prompts/ carries an
// architecture's name. The simulator's robot APIs are the exception: they are named after the API they serve
// (src/core/apis/<api>.ts, src/core/sim/mujoco/apis/), and any client may call them.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { CANONICAL_ARCHITECTURE_IDS } from '../../../src/architectures/registry.js';

const ROOT = process.cwd();
/** The built-in architectures' ids and the API name LM Trajectory Generators' robot functions go by. */
const NAMES = [...CANONICAL_ARCHITECTURE_IDS, 'lmtg'];
const ROBOT_APIS = [/^src\/core\/apis\/[^/]+\.ts$/, /^src\/core\/sim\/mujoco\/apis\//];

function paths(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) paths(p, out);
    else out.push(relative(ROOT, p));
  }
  return out;
}

/** The words of a path segment: `rocoRounds.ts` is roco, rounds, ts; `protocol.ts` is protocol, ts. */
const words = (segment: string) => (segment.match(/[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])/g) ?? []).map((w) => w.toLowerCase());

/** Paths outside src/architectures/ that carry an architecture's name, robot-API files excepted. */
function misplaced(list: readonly string[]): string[] {
  return list.filter((p) => !p.startsWith('src/architectures/') && !ROBOT_APIS.some((re) => re.test(p)) && p.split('/').some((s) => words(s).some((w) => NAMES.includes(w))));
}

test('no file outside src/architectures/ has an architecture in its path, but the robot APIs named after theirs', () => {
  const list = ['src', 'webview', 'prompts'].flatMap((d) => paths(join(ROOT, d)));
  assert.ok(list.length > 400, `scanned ${list.length} files`);
  assert.deepEqual(misplaced(list), []);
});

test('the name check finds an architecture in a folder, a file name or a camelCase word, and nothing else', () => {
  assert.deepEqual(
    misplaced([
      'src/core/sim/mujoco/tasks/malmm/closeJar.ts',
      'webview/runViewer/rocoRounds.ts',
      'src/core/trace/projections/trajgenPaths.ts',
      'prompts/llamar/actor.prompt',
      'webview/runViewer/actctxPlanTab.ts',
      'src/core/sim/mujoco/robot/lmtgFollower.ts',
      // allowed: the architecture's own folder, the robot APIs, words that only contain a name's letters
      'src/architectures/roco/view/roundsTab.ts',
      'src/core/apis/roco.ts',
      'src/core/sim/mujoco/apis/actctx/checks.ts',
      'src/protocol/trace.ts',
      'src/core/sim/mujoco/tasks/rlbench/closeJar.ts',
    ]),
    ['src/core/sim/mujoco/tasks/malmm/closeJar.ts', 'webview/runViewer/rocoRounds.ts', 'src/core/trace/projections/trajgenPaths.ts', 'prompts/llamar/actor.prompt', 'webview/runViewer/actctxPlanTab.ts', 'src/core/sim/mujoco/robot/lmtgFollower.ts'],
  );
});

test('each built-in architecture is a folder with its manifest, definition, prompts, reference policies and README', () => {
  for (const id of CANONICAL_ARCHITECTURE_IDS) {
    const dir = join(ROOT, 'src', 'architectures', id);
    const missing = ['manifest.ts', 'index.ts', 'README.md', 'prompts', 'reference/index.ts'].filter((f) => !existsSync(join(dir, f)));
    assert.deepEqual(missing, [], `src/architectures/${id}/`);
    assert.ok(readdirSync(join(dir, 'prompts')).some((f) => f.endsWith('.prompt')), `src/architectures/${id}/prompts/ holds its prompts`);
  }
  // The registry files beside the folders, and nothing else: a stray folder would be an architecture the registry does not list.
  const folders = readdirSync(join(ROOT, 'src', 'architectures')).filter((n) => statSync(join(ROOT, 'src', 'architectures', n)).isDirectory());
  assert.deepEqual(folders.sort(), [...CANONICAL_ARCHITECTURE_IDS].sort());
});

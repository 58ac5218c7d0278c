// The extension host's workspace architectures (src/extension/workspaceArchitectures.ts) with the real loader: a
// copy of examples/architectures/cap in a workspace is registered where the Agents view, live runs and the Testing
// view look (the registry, the manifests, the test catalog); a broken folder is a refusal with file:line and the
// rest stays; an edit or a removed folder is followed by the next reload; nothing loads in Restricted Mode. And the
// `waypoint.architectures.paths` setting becomes the $WAYPOINT_ARCHITECTURE_PATH of the processes it starts.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { architectureManifests } from '../../../src/architectures/manifests.js';
import { architectures } from '../../../src/architectures/registry.js';
import { parseVariants } from '../../../src/core/prompt/variants.js';
import { testCatalog } from '../../../src/extension/testing/catalog.js';
import { buildAgentsTree } from '../../../src/extension/views/agentsModel.js';
import { architectureEnv, architectureRoots, isUnderAny, reloadLines, WorkspaceArchitectureHost } from '../../../src/extension/workspaceArchitectures.js';

const tmp = mkdtempSync(join(tmpdir(), 'waypoint-ext-archs-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const CAP = join(process.cwd(), 'examples/architectures/cap');

test('cap from the workspace is registered for the views, runs and tests; a broken folder is refused with file:line; edits and removals follow', async () => {
  const ws = join(tmp, 'ws');
  const capDir = join(ws, '.waypoint/architectures/cap');
  cpSync(CAP, capDir, { recursive: true });
  // A second architecture folder, named through the setting, with a syntax error.
  const bad = join(tmp, 'shared', 'bad');
  cpSync(CAP, bad, { recursive: true });
  writeFileSync(join(bad, 'index.ts'), readFileSync(join(bad, 'index.ts'), 'utf8').replace("id: 'cap'", "id: 'bad'"));
  writeFileSync(join(bad, 'loop.ts'), `${readFileSync(join(bad, 'loop.ts'), 'utf8')}\nexport const x = ;\n`);

  const host = new WorkspaceArchitectureHost();
  const r = await host.reload({ folders: [ws], paths: [join('..', 'shared')], trusted: true });
  assert.deepEqual(r.loaded.map((l) => l.id), ['cap']);
  assert.equal(r.refused.length, 1);
  assert.equal(r.refused[0]!.id, 'bad');
  assert.equal(r.refused[0]!.file, join(bad, 'loop.ts'));
  assert.ok((r.refused[0]!.line ?? 0) > 1, 'the line of the error');
  assert.match(reloadLines(r).warn[0]!, /loop\.ts:\d+: architecture 'bad' refused/);

  // Where the extension's features look: live runs (architectures.get), the prompt checks and the Testing view.
  assert.equal(architectures.get('cap').folder, capDir);
  assert.ok(architectureManifests.find('cap'));
  assert.ok(testCatalog().archs.has('cap'), 'tests.yaml may name arch: cap');
  assert.ok(testCatalog().archs.get('cap')!.tasks.includes('stack_blocks'));
  for (const id of ['malmm', 'roco', 'actctx', 'llamar', 'trajgen']) assert.ok(architectures.find(id), `${id} still there`);
  assert.ok(!architectures.find('bad'));

  // The Agents view: cap with its prompt in its own folder, and the refused folder as an error item at file:line.
  const tree = buildAgentsTree(architectures.list(), { builtInPromptRoot: '/ext/src/architectures', overrides: new Set() }, parseVariants('v', ''), host.last.refused);
  const cap = tree.find((n) => n.id === 'cap');
  assert.ok(cap && cap.kind === 'arch');
  const prompts = cap.children.find((c) => c.kind === 'folder' && c.label === 'Prompts');
  assert.deepEqual(prompts?.kind === 'folder' ? prompts.children.map((p) => (p.kind === 'prompt' ? p.path : '')) : [], [`${capDir}/prompts/policy.prompt`]);
  const error = tree.find((n) => n.kind === 'error');
  assert.ok(error && error.kind === 'error');
  assert.equal(error.label, 'bad');
  assert.equal(error.path, join(bad, 'loop.ts'));
  assert.equal(error.line, r.refused[0]!.line);
  assert.match(error.tooltip, /loop\.ts:\d+: architecture 'bad' refused/);

  // A run or sweep process is told to load the same roots.
  assert.deepEqual(host.roots(), [join(ws, '.waypoint/architectures'), resolve(ws, '..', 'shared')]);

  // An edit is picked up: the definition is loaded again (and the old one taken out, not refused as taken).
  writeFileSync(join(capDir, 'manifest.ts'), readFileSync(join(capDir, 'manifest.ts'), 'utf8').replace("label: 'Code as Policies'", "label: 'CaP edited'"));
  const edited = await host.reload({ folders: [ws], paths: [], trusted: true });
  assert.deepEqual(edited.refused, []);
  assert.equal(architectures.get('cap').label, 'CaP edited');

  // The folder is gone: so is the architecture, everywhere.
  rmSync(capDir, { recursive: true });
  const gone = await host.reload({ folders: [ws], paths: [], trusted: true });
  assert.deepEqual(gone.loaded, []);
  assert.equal(architectures.find('cap'), undefined);
  assert.equal(architectureManifests.find('cap'), undefined);
  assert.ok(!testCatalog().archs.has('cap'));
});

test('Restricted Mode loads nothing (an architecture is code); ready() waits for a load in progress', async () => {
  const ws = join(tmp, 'untrusted');
  cpSync(CAP, join(ws, '.waypoint/architectures/cap'), { recursive: true });
  const host = new WorkspaceArchitectureHost();
  const r = await host.reload({ folders: [ws], paths: [], trusted: false });
  assert.match(r.skipped ?? '', /Restricted Mode/);
  assert.equal(architectures.find('cap'), undefined);

  let release!: () => void;
  const gate = new Promise<void>((res) => (release = res));
  const slow = new WorkspaceArchitectureHost(async () => {
    await gate;
    return { loaded: [], refused: [] };
  });
  void slow.reload({ folders: [ws], paths: [], trusted: true });
  let ready = false;
  const waiting = slow.ready().then(() => (ready = true));
  await new Promise((res) => setTimeout(res, 20));
  assert.equal(ready, false, 'a command naming an architecture waits for the load');
  release();
  await waiting;
  assert.equal(ready, true);
});

test('waypoint.architectures.paths becomes $WAYPOINT_ARCHITECTURE_PATH for the CLI and the debug adapter', () => {
  const ws = resolve('/w/project');
  const other = resolve('/w/second');
  const env = architectureEnv({ folders: [ws, other], paths: ['archs', resolve('/opt/archs')] }, { WAYPOINT_ARCHITECTURE_PATH: resolve('/home/me/archs') });
  assert.deepEqual(env.WAYPOINT_ARCHITECTURE_PATH!.split(delimiter), [join(other, '.waypoint/architectures'), join(ws, 'archs'), resolve('/opt/archs'), resolve('/home/me/archs')]);
  // Nothing to add: no variable (the child's own environment stands).
  assert.deepEqual(architectureEnv({ folders: [ws], paths: [] }, {}), {});
  // Without a folder, a relative path means nothing; an absolute one stands.
  assert.deepEqual(architectureEnv({ folders: [], paths: ['rel', resolve('/abs')] }, {}), { WAYPOINT_ARCHITECTURE_PATH: resolve('/abs') });
  // The roots the extension host itself loads are the same folders, its first folder as the workspace.
  assert.deepEqual(architectureRoots({ folders: [ws, other], paths: ['archs'] }, {}), { workspace: ws, roots: [join(other, '.waypoint/architectures'), join(ws, 'archs')] });
});

test('a saved file reloads the architectures only when it lies inside a root', () => {
  const roots = ['/ws/.waypoint/architectures', '/elsewhere/archs'];
  assert.equal(isUnderAny('/ws/.waypoint/architectures/cap/loop.ts', roots), true);
  assert.equal(isUnderAny('/elsewhere/archs/x/manifest.ts', roots), true);
  assert.equal(isUnderAny('/ws/.waypoint/architectures', roots), false, 'the root itself is not a file in it');
  assert.equal(isUnderAny('/ws/.waypoint/architectures-old/cap/loop.ts', roots), false, 'a sibling whose name starts the same');
  assert.equal(isUnderAny('/ws/prompts/malmm/coder.prompt', roots), false);
  assert.equal(isUnderAny('/ws/.waypoint/architectures/cap/loop.ts', []), false);
});

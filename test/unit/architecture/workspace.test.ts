// The workspace-architecture loader (src/core/architecture/workspace.ts with src/core/node/loadModule.ts): real
// folders in a temp dir, compiled by the real esbuild and imported. Each refusal names the file (and the line,
// where there is one) and the cause; a broken folder never stops a good one.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { loadArchitectureFolder, loadWorkspaceArchitectures, refusalLine, type LoadedArchitecture, type RefusedArchitecture } from '../../../src/core/architecture/workspace.js';
import { compileAndImport, originalPosition } from '../../../src/core/node/loadModule.js';
import { nodeIO } from '../../../src/core/node/nodeHost.js';
import { resolvePromptPaths } from '../../../src/core/runs/promptPaths.js';

const root = mkdtempSync(join(tmpdir(), 'wp-ws-arch-'));
after(() => rmSync(root, { recursive: true, force: true }));

const MANIFEST = `{
  id: 'ID', label: 'Mine', description: 'a test architecture', paper: 'none', api: 'malmm', simulator: 'tabletop',
  roles: [{ id: 'policy', label: 'Policy', promptFile: 'policy.prompt', description: 'writes code', variables: { task: 'string' } }],
  topologies: { one: { label: 'One', description: 'one call', roles: ['policy'] } },
  defaultTopology: 'one',
  LIMITS
}`;

/** A folder `<ws>/.waypoint/architectures/<id>/` with the given files (index.ts a valid definition unless replaced). */
function folder(ws: string, id: string, files: Record<string, string> = {}, manifest: { limits?: string } = {}): string {
  const dir = join(ws, '.waypoint', 'architectures', id);
  const all: Record<string, string> = {
    'index.ts': [
      "import type { ArchitectureDefinition } from 'waypoint/architecture';",
      "import { limitNumber } from 'waypoint/architecture';",
      `const def: ArchitectureDefinition = { ...${MANIFEST.replace('ID', id).replace('LIMITS', manifest.limits ?? '')}, run: async (ctx) => ({ reason: 'single_pass_done', agentClaimedDone: limitNumber(ctx.limits, 'maxWallSecs') > 0 }) };`,
      'export default def;',
    ].join('\n'),
    'prompts/policy.prompt': '---\nwaypoint.arch: x\n---\n{{task}}\n',
    ...files,
  };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

let n = 0;
const workspace = () => join(root, `ws${n++}`);

async function loadOne(dir: string, taken: string[] = []): Promise<LoadedArchitecture | RefusedArchitecture> {
  return loadArchitectureFolder(nodeIO, dir, new Set(taken), compileAndImport);
}

function refused(r: LoadedArchitecture | RefusedArchitecture): RefusedArchitecture {
  assert.ok(!('def' in r), `expected a refusal, got architecture '${'def' in r ? r.def.id : ''}'`);
  return r;
}

test('a valid folder loads: the definition with its folder, a callable loop, the public module shared with the host', async () => {
  const dir = folder(workspace(), 'mine');
  const r = await loadOne(dir);
  assert.ok('def' in r, 'def' in r ? '' : refusalLine(r));
  assert.equal(r.def.id, 'mine');
  assert.equal(r.def.folder, dir);
  // Absent declarations default to empty, so the registry and the CLI can read them.
  assert.deepEqual([r.def.limits, r.def.endReasons, r.def.metrics, r.def.builtInVariants], [[], {}, {}, {}]);
  // limitNumber came from the host through `waypoint/architecture`: the loop calls it.
  const outcome = await r.def.run({ limits: { maxWallSecs: 5 } } as never);
  assert.deepEqual(outcome, { reason: 'single_pass_done', agentClaimedDone: true });
  // Its prompts resolve from the folder, not from the built-in root.
  const paths = await resolvePromptPaths(nodeIO, r.def, { workspace: root, builtInPromptRoot: '/nowhere' });
  assert.deepEqual(paths, { policy: join(dir, 'prompts', 'policy.prompt') });
});

test('a syntax error is refused at its file and line, in the entry or in a file it imports', async () => {
  const a = refused(await loadOne(folder(workspace(), 'syntax', { 'index.ts': 'const a = 1;\nexport default {\n  id: ,\n};\n' })));
  assert.match(a.file, /syntax[\\/]index\.ts$/);
  assert.equal(a.line, 3);
  assert.match(a.message, /Unexpected ","/);
  const b = refused(await loadOne(folder(workspace(), 'deep', { 'index.ts': "import { x } from './loop.js';\nexport default x;\n", 'loop.ts': '// a comment\nexport const x = {;\n' })));
  assert.match(b.file, /deep[\\/]loop\.ts$/);
  assert.equal(b.line, 2);
  assert.match(refusalLine(b), /loop\.ts:2: architecture 'deep' refused: /);
});

test('an import the public module does not export, or a file that is not there, is refused at the importing line', async () => {
  const a = refused(await loadOne(folder(workspace(), 'badimport', { 'index.ts': "\nimport { runEpisode } from 'waypoint/architecture';\nexport default runEpisode;\n" })));
  assert.equal(a.line, 2);
  assert.match(a.message, /No matching export .*runEpisode/);
  const b = refused(await loadOne(folder(workspace(), 'nofile', { 'index.ts': "import x from './missing.js';\nexport default x;\n" })));
  assert.equal(b.line, 1);
  assert.match(b.message, /Could not resolve "\.\/missing\.js"/);
});

test('an exception at the top level is refused at the line that threw, through the source map', async () => {
  const r = refused(await loadOne(folder(workspace(), 'throws', { 'index.ts': "import { x } from './helper.js';\nexport default x;\n", 'helper.ts': "export const x = 1;\n\nthrow new Error('no robot today');\n" })));
  assert.match(r.file, /throws[\\/]helper\.ts$/);
  assert.equal(r.line, 3);
  assert.match(r.message, /importing it threw: no robot today/);
});

test('a module without the definition, or a definition of the wrong shape, is refused naming what is wrong', async () => {
  const none = refused(await loadOne(folder(workspace(), 'noexport', { 'index.ts': 'export const something = 1;\n' })));
  assert.match(none.message, /exports no architecture: export the ArchitectureDefinition as default/);
  const shape = refused(await loadOne(folder(workspace(), 'shape', { 'index.ts': "export default { id: 'other', api: 'telepathy', roles: [] };\n" })));
  assert.match(shape.message, /its id is "other" but the folder is named 'shape'/);
  assert.match(shape.message, /'run' must be a function/);
  assert.match(shape.message, /'api' must name a robot API family .*got "telepathy"/);
  assert.match(shape.message, /'roles' must be a non-empty array/);
  // The named export `architecture` is the other place a definition may be.
  const dir = folder(workspace(), 'named');
  writeFileSync(join(dir, 'index.ts'), (await import('node:fs')).readFileSync(join(dir, 'index.ts'), 'utf8').replace('export default def;', 'export { def as architecture };'));
  assert.ok('def' in (await loadOne(dir)));
});

test("a manifest the registry would refuse is refused with manifestProblems' words", async () => {
  const r = refused(await loadOne(folder(workspace(), 'limits', {}, { limits: "limits: [{ id: 'maxWallSecs', label: 'x', type: 'int', default: 3, description: 'x' }, { id: 'tries', label: 't', type: 'int', default: 0, min: 1, description: 't' }]" })));
  assert.match(r.message, /declares limit 'maxWallSecs', which is the engine's own limit/);
  assert.match(r.message, /limit 'tries' with type int but its default 0 is below the minimum 1/);
});

test('a role whose prompt file is missing is refused at the path it looked for', async () => {
  const dir = folder(workspace(), 'noprompt');
  rmSync(join(dir, 'prompts'), { recursive: true });
  const r = refused(await loadOne(dir));
  assert.equal(r.file, join(dir, 'prompts', 'policy.prompt'));
  assert.match(r.message, /role 'policy' names prompt file policy\.prompt/);
});

test('an id taken by a built-in is refused, and so is a folder name that is not an id', async () => {
  const taken = refused(await loadOne(folder(workspace(), 'malmm'), ['malmm', 'roco']));
  assert.match(taken.message, /the id 'malmm' is already taken/);
  const bad = refused(await loadOne(folder(workspace(), 'My Arch')));
  assert.match(bad.message, /must be lower-case letters/);
});

test('a JavaScript module (.mjs) loads the same way', async () => {
  const dir = folder(workspace(), 'plainjs');
  rmSync(join(dir, 'index.ts'));
  writeFileSync(join(dir, 'index.mjs'), `export default { ...${MANIFEST.replace('ID', 'plainjs').replace('LIMITS', '')}, run: async () => ({ reason: 'single_pass_done', agentClaimedDone: false }) };\n`);
  const r = await loadOne(dir);
  assert.ok('def' in r, 'def' in r ? '' : refusalLine(r));
});

test('a workspace with a broken folder still loads the good ones, and a second folder with an id taken earlier is refused', async () => {
  const ws = workspace();
  folder(ws, 'good');
  folder(ws, 'broken', { 'index.ts': 'export default {' });
  const extra = join(root, 'extra');
  folder(extra, 'good');
  const r = await loadWorkspaceArchitectures(nodeIO, { workspace: ws, extraRoots: [join(extra, '.waypoint', 'architectures')], taken: ['malmm'], load: compileAndImport });
  assert.deepEqual(r.loaded.map((l) => l.def.id), ['good']);
  assert.deepEqual(r.refused.map((x) => [x.id, /taken/.test(x.message) ? 'taken' : 'syntax']), [['broken', 'syntax'], ['good', 'taken']]);
  // No folder at all is no architectures, not an error.
  assert.deepEqual(await loadWorkspaceArchitectures(nodeIO, { workspace: join(root, 'empty'), taken: [], load: compileAndImport }), { loaded: [], refused: [] });
});

test('source-map decoding finds the original line of a generated one', () => {
  // "AAAA;AACA;AAEA": generated lines 0, 1, 2 map to source lines 0, 1, 3.
  assert.deepEqual(originalPosition('AAAA;AACA;AAEA', 2), { source: 0, line: 3 });
  assert.equal(originalPosition('AAAA', 4), undefined);
});

// package.json and the code must agree: commands, settings, views, activation, packaging (the mock-debug trap).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { firstUnmet, unmetMessage } from '../../../src/extension/commandGate.js';
import { COMMAND_CATALOG, COMMAND_PREFIX } from '../../../src/extension/commands/catalog.js';
import { RESTRICTED_KEYS, SETTING_DEFAULTS } from '../../../src/extension/settings.js';
import { WALKTHROUGH_COMMANDS, walkthroughContextKey } from '../../../src/extension/walkthrough.js';

const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8'));

test('every catalog command is contributed with its title, and nothing else is', () => {
  const contributed = new Map<string, string>(pkg.contributes.commands.map((c: { command: string; title: string }) => [c.command, c.title]));
  for (const [name, meta] of Object.entries(COMMAND_CATALOG)) assert.equal(contributed.get(COMMAND_PREFIX + name), meta.title, name);
  assert.equal(contributed.size, Object.keys(COMMAND_CATALOG).length);
  for (const id of contributed.keys()) assert.match(id, /^waypoint\.[a-z][A-Za-z]+$/);
});

test('every setting the code reads is declared with the same default, and vice versa', () => {
  const props = pkg.contributes.configuration.properties as Record<string, { default: unknown }>;
  for (const [key, def] of Object.entries(SETTING_DEFAULTS)) assert.deepEqual(props[`waypoint.${key}`]?.default, def, key);
  assert.equal(Object.keys(props).length, Object.keys(SETTING_DEFAULTS).length);
  assert.deepEqual([...pkg.capabilities.untrustedWorkspaces.restrictedConfigurations].sort(), RESTRICTED_KEYS.map((k) => `waypoint.${k}`).sort());
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
});

test('manifest: entry, engine, lazy activation, language, grammar, views', () => {
  assert.equal(pkg.main, './dist/extension.mjs');
  assert.equal(pkg.engines.vscode, '^1.100.0');
  assert.ok(!pkg.activationEvents.includes('*'));
  for (const e of ['onLanguage:waypoint-prompt', 'workspaceContains:.waypoint', 'onView:waypoint.runs', 'onWebviewPanel:waypoint.runViewer']) assert.ok(pkg.activationEvents.includes(e), e);
  const lang = pkg.contributes.languages.find((l: { id: string }) => l.id === 'waypoint-prompt');
  assert.deepEqual(lang.extensions, ['.prompt']);
  const grammar = pkg.contributes.grammars.find((g: { language: string }) => g.language === 'waypoint-prompt');
  assert.equal(grammar.scopeName, 'source.waypoint-prompt');
  for (const f of [lang.configuration, grammar.path, pkg.contributes.viewsContainers.activitybar[0].icon]) JSON.parse(f.endsWith('.json') ? readFileSync(join(process.cwd(), f), 'utf8') : '{}');
  assert.deepEqual(pkg.contributes.views.waypoint.map((v: { id: string }) => v.id), ['waypoint.runs', 'waypoint.agents', 'waypoint.simulator']);
});

test('Testing view: a failure message’s menus run the command its link runs, for the context value the runner sets', async () => {
  const { FAILURE_CONTEXT, OPEN_RUN_COMMAND } = await import('../../../src/extension/testing/results.js');
  for (const menu of ['testing/message/context', 'testing/message/content']) {
    assert.deepEqual(pkg.contributes.menus[menu].map((m: { command: string; when: string }) => [m.command, m.when]), [[OPEN_RUN_COMMAND, `testMessage == ${FAILURE_CONTEXT}`]], menu);
  }
  assert.ok(pkg.contributes.menus.commandPalette.some((m: { command: string; when: string }) => m.command === OPEN_RUN_COMMAND && m.when === 'false'), 'hidden from the palette: it needs a test or a run');
  assert.ok(pkg.activationEvents.includes(`onCommand:${OPEN_RUN_COMMAND}`));
});

test('.vscodeignore is a whitelist naming every file the manifest and runtime need', () => {
  const lines = readFileSync(join(process.cwd(), '.vscodeignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  assert.equal(lines[0], '**');
  for (const need of ['!dist/extension.mjs', '!dist/ext/*.mjs', '!dist/runWorker.js', '!dist/languageClient.js', '!dist/exporter.js', '!dist/lsp.js', '!dist/package.json', '!dist/sandboxWorker.mjs', '!media/**', '!prompts/**', '!node_modules/mujoco-js/dist/mujoco_wasm.js', '!node_modules/pyodide/pyodide.asm.wasm', '!node_modules/pyodide/python_stdlib.zip']) {
    assert.ok(lines.includes(need), need);
  }
});

test('the gate names the first unmet requirement, in the order declared', () => {
  const s = { trusted: false, hasFolder: false, serverRunning: true };
  assert.equal(firstUnmet(['folder', 'trust'], s), 'folder');
  assert.equal(firstUnmet(['trust'], s), 'trust');
  assert.equal(firstUnmet(['server'], s), undefined);
  assert.equal(firstUnmet(undefined, s), undefined);
  assert.match(unmetMessage('Run Live Test', 'trust'), /^Run Live Test is disabled in Restricted Mode: .*no generated code/);
});

test('the waypoint debugger: program in the package, launch attributes equal to the adapter’s schema, breakpoints in .prompt files', async () => {
  const { LaunchArguments, DEBUG_TYPE } = await import('../../../src/protocol/dap.js');
  const { z } = await import('zod');
  const dbg = pkg.contributes.debuggers.find((d: { type: string }) => d.type === DEBUG_TYPE);
  assert.ok(dbg, 'contributes.debuggers has the waypoint type');
  assert.equal(dbg.program, './dist/dap.js');
  assert.ok(readFileSync(join(process.cwd(), '.vscodeignore'), 'utf8').split('\n').includes('!dist/dap.js'), 'the adapter is packaged');
  assert.deepEqual(pkg.contributes.breakpoints, [{ language: 'waypoint-prompt' }]);
  for (const e of ['onDebugResolve:waypoint', 'onCommand:waypoint.debugLiveTest']) assert.ok(pkg.activationEvents.includes(e), e);
  const schema = z.toJSONSchema(LaunchArguments) as { properties: Record<string, { type?: string; minimum?: number; maximum?: number }> };
  const declared = dbg.configurationAttributes.launch.properties as Record<string, { type: string | string[]; minimum?: number; maximum?: number }>;
  assert.deepEqual(Object.keys(declared).sort(), Object.keys(schema.properties).sort());
  for (const [k, v] of Object.entries(schema.properties)) {
    assert.equal(declared[k]!.type, v.type, `${k}: type`);
    // zod states an integer's safe range as bounds; only bounds the schema sets itself must match.
    if (v.minimum !== undefined && Math.abs(v.minimum) !== Number.MAX_SAFE_INTEGER) assert.equal(declared[k]!.minimum, v.minimum, `${k}: minimum`);
    if (v.maximum !== undefined && Math.abs(v.maximum) !== Number.MAX_SAFE_INTEGER) assert.equal(declared[k]!.maximum, v.maximum, `${k}: maximum`);
  }
  for (const c of dbg.initialConfigurations) {
    const own = Object.fromEntries(Object.entries(c).filter(([k]) => !['type', 'request', 'name'].includes(k)).map(([k, v]) => [k, v === '' ? 'x' : v]));
    assert.ok(LaunchArguments.safeParse(own).success, `initial configuration "${c.name}" is valid`);
  }
});

test('walkthrough: every step is completed by the command its button runs, a contributed waypoint command, and its page ships', () => {
  const [walk, ...more] = pkg.contributes.walkthroughs as { id: string; title: string; steps: { id: string; description: string; media: { markdown?: string }; completionEvents: string[] }[] }[];
  assert.equal(more.length, 0);
  assert.equal(walk.id, 'gettingStarted');
  const declared = new Set((pkg.contributes.commands as { command: string }[]).map((c) => c.command));
  assert.deepEqual(walk.steps.map((s) => s.id), ['openExample', 'runLiveTest', 'flipAblation', 'compare']);
  const ignore = readFileSync(join(process.cwd(), '.vscodeignore'), 'utf8');
  for (const step of walk.steps) {
    const button = /\(command:(waypoint\.[A-Za-z]+)\)/.exec(step.description)?.[1];
    assert.ok(button && declared.has(button), `${step.id}: its button runs a contributed command (${button})`);
    // The context key covers the same command run from a CodeLens or tree item (a delegated command, which
    // onCommand does not see); registerCommands sets it.
    const name = button!.slice('waypoint.'.length);
    assert.ok(WALKTHROUGH_COMMANDS.has(name), `${step.id}: ${name} sets its walkthrough context key`);
    assert.deepEqual(step.completionEvents, [`onCommand:${button}`, `onContext:${walkthroughContextKey(name)}`], `${step.id}: completed by the same command`);
    assert.ok(pkg.activationEvents.includes(`onCommand:${button}`), `${step.id}: the command activates the extension`);
    assert.ok(step.media.markdown && readFileSync(join(process.cwd(), step.media.markdown), 'utf8').startsWith('## '), `${step.id}: page ${step.media.markdown}`);
    assert.ok(step.media.markdown.startsWith('media/') && ignore.includes('!media/**'), `${step.id}: its page is packaged`);
  }
  assert.ok(ignore.includes('!examples/workspace/**'), 'the example template is packaged');
});

// The Testing view's discovery in the real extension host: the default set in a workspace without a tests file,
// and a bad .waypoint/tests.yaml as a diagnostic on its line plus an error item (its good entries still listed).
// Refreshed through VS Code's own "Refresh Tests" command, which calls the controller's refresh handler.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { activeExtension, waitFor, wsUri } from './helpers.js';

interface Snap {
  id: string;
  label: string;
  error?: string;
  line?: number;
  children: Snap[];
}
interface TestingApi {
  snapshot(): Snap[];
}

const TESTS = wsUri('.waypoint', 'tests.yaml');
const leaves = (nodes: Snap[]): string[] => nodes.flatMap((n) => (n.children.length ? leaves(n.children) : [n.id]));

describe('Testing view', function () {
  let testing: TestingApi;

  before(async function () {
    const ext = await activeExtension();
    // The controller is created just after activation returns.
    testing = await waitFor('the Testing controller', 30_000, () => (ext.exports as { testing?: TestingApi }).testing);
  });

  after(async function () {
    rmSync(TESTS.fsPath, { force: true });
    await vscode.commands.executeCommand('testing.refreshTests');
  });

  async function refreshUntil<T>(what: string, probe: () => T | undefined | false): Promise<T> {
    await vscode.commands.executeCommand('testing.refreshTests');
    return waitFor(what, 30_000, probe, 200);
  }

  it('without a tests file: each architecture’s default task, seed 0', async function () {
    rmSync(TESTS.fsPath, { force: true });
    const snap = await refreshUntil('the default set', () => {
      const s = testing.snapshot();
      return s.length === 5 ? s : undefined;
    });
    assert.deepEqual(snap.map((n) => n.label), ['MALMM', 'RoCo', 'Action Contextualization', 'LLaMAR', 'LM Trajectory Generators']);
    assert.deepEqual(leaves(snap), ['malmm/stack_blocks/s0', 'roco/sort_cubes/s0', 'actctx/clear_table_bin/s0', 'llamar/1_put_bread_lettuce_tomato_fridge/s0', 'trajgen/draw_shape/s0']);
  });

  it('a bad tests.yaml: a diagnostic on the line, an error item, and its good entries still listed', async function () {
    mkdirSync(dirname(TESTS.fsPath), { recursive: true });
    writeFileSync(TESTS.fsPath, ['tests:', '  - architecture: malmm', '    seeds: [2]', '  - architecture: roco', '    tasks: [sort_cube]', ''].join('\n'));
    const diag = await refreshUntil('a diagnostic for the unknown task', () => vscode.languages.getDiagnostics(TESTS).find((d) => d.message.startsWith("unknown task 'sort_cube'")));
    assert.equal(diag.range.start.line, 4, 'on line 5, the task');
    assert.equal(diag.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(diag.source, 'waypoint tests');
    const snap = testing.snapshot();
    assert.deepEqual(leaves(snap.filter((n) => !n.id.startsWith('problem:'))), ['malmm/stack_blocks/s2']);
    const problem = snap.find((n) => n.id.startsWith('problem:'));
    assert.ok(problem, `an error item: ${JSON.stringify(snap.map((n) => n.id))}`);
    assert.match(problem.error ?? '', /^line 5: unknown task 'sort_cube' for roco/);
    assert.equal(problem.line, 5);

    // Broken YAML: only the error item, the diagnostic on the line YAML names.
    writeFileSync(TESTS.fsPath, ['tests:', '  - architecture: malmm', '    seeds: [0, 1', ''].join('\n'));
    const syntax = await refreshUntil('a diagnostic for the broken YAML', () => vscode.languages.getDiagnostics(TESTS).find((d) => d.message.startsWith('invalid YAML')));
    assert.ok(syntax.range.start.line >= 2, `line ${syntax.range.start.line + 1}`);
    assert.deepEqual(testing.snapshot().map((n) => n.id), ['problem:.waypoint/tests.yaml']);
  });

  it('fixing the file clears the diagnostics', async function () {
    writeFileSync(TESTS.fsPath, ['tests:', '  - architecture: malmm', '    seeds: [0, 1]', ''].join('\n'));
    await refreshUntil('no diagnostics', () => vscode.languages.getDiagnostics(TESTS).length === 0);
    assert.deepEqual(leaves(testing.snapshot()), ['malmm/stack_blocks/s0', 'malmm/stack_blocks/s1']);
  });
});

// Outside VS Code the report page defines the theme variables itself: every `--vscode-*` variable the run viewer
// or one of the @vscode-elements components it uses reads must be defined in every report theme, or that
// component falls back to its built-in dark colour (the unreadable light-theme "Messages the role saw").
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPORT_THEMES, THEME_VARIABLES } from '../../../../src/core/trace/reportThemes.js';

const ROOT = process.cwd();
const ELEMENTS = join(ROOT, 'node_modules', '@vscode-elements', 'elements', 'dist');

function variablesIn(text: string, onlyVar = false): string[] {
  // In the components' JS, only var(--vscode-…) reads count (their doc comments name some that are not read).
  const re = onlyVar ? /var\(\s*--vscode-([A-Za-z0-9-]+)/g : /--vscode-([A-Za-z0-9-]+)/g;
  return [...text.matchAll(re)].map((m) => m[1].replace(/-+$/, ''));
}

function viewerVariables(): Set<string> {
  const names = new Set<string>();
  const components = new Set<string>(['includes']);
  for (const dir of ['webview/runViewer', 'webview/common']) {
    for (const f of readdirSync(join(ROOT, dir)).filter((n) => /\.(ts|css)$/.test(n))) {
      const text = readFileSync(join(ROOT, dir, f), 'utf8');
      for (const v of variablesIn(text)) names.add(v);
      for (const m of text.matchAll(/@vscode-elements\/elements\/dist\/([\w-]+)\//g)) components.add(m[1]);
    }
  }
  for (const c of components) {
    for (const f of readdirSync(join(ELEMENTS, c)).filter((n) => n.endsWith('.js'))) for (const v of variablesIn(readFileSync(join(ELEMENTS, c, f), 'utf8'), true)) names.add(v);
  }
  return names;
}

test('every theme variable the run viewer and its components read is defined in each report theme', () => {
  const used = viewerVariables();
  assert.ok(used.size > 50, `${used.size} variables found`);
  assert.ok(used.has('sideBar-background'), 'vscode-collapsible reads sideBar-background');
  for (const theme of REPORT_THEMES) {
    const missing = [...used].filter((v) => !(v in THEME_VARIABLES[theme])).sort();
    assert.deepEqual(missing, [], `${theme} theme lacks ${missing.join(', ')}`);
  }
});

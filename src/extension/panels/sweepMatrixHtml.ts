// The sweep comparison webview's HTML (pure): the bundled script and one inline style, both by nonce, and a CSP
// that allows nothing else. Colours are the theme's variables; significance is shown by colour and by text (the
// cell says "better"/"worse"), never by colour alone.
import { compareCsp } from './compareHtml.js';
import { renderWebviewPage } from './webviewPage.js';

const CSS = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 16px 24px; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 1.6em; } h3 { font-size: 1em; margin-top: 1.2em; } h4 { margin: 0.8em 0 0.3em; }
.sub { color: var(--vscode-descriptionForeground); }
.error { color: var(--vscode-errorForeground); }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid var(--vscode-panel-border, var(--vscode-editorWidget-border, #8884)); padding: 4px 10px; text-align: left; vertical-align: top; }
thead th { background: var(--vscode-editorWidget-background); }
.matrix td { text-align: center; min-width: 9em; }
.matrix .ci, .matrix .p { font-size: 0.9em; color: var(--vscode-descriptionForeground); }
.matrix th .prompt-version { font-weight: normal; font-family: var(--vscode-editor-font-family, monospace); font-size: 0.85em; color: var(--vscode-descriptionForeground); }
.cell.baseline, th.baseline { background: var(--vscode-editor-inactiveSelectionBackground, #8882); }
.cell.sig.better { background: color-mix(in srgb, var(--vscode-testing-iconPassed, #2a2) 28%, transparent); }
.cell.sig.worse { background: color-mix(in srgb, var(--vscode-testing-iconFailed, #d33) 28%, transparent); }
.legend .cell { padding: 1px 6px; border-radius: 3px; }
.legend .cell.ns { border: 1px solid var(--vscode-panel-border, #8884); }
.episodes tr.failed td:nth-child(4) { color: var(--vscode-testing-iconFailed, var(--vscode-errorForeground)); }
.episodes tr.ok td:nth-child(4) { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); }
.pair-form select, .pair-form button, select { background: var(--vscode-dropdown-background); color: var(--vscode-dropdown-foreground); border: 1px solid var(--vscode-dropdown-border, #8886); padding: 2px 4px; }
.pair-form button { background: var(--vscode-button-background); color: var(--vscode-button-foreground); cursor: pointer; }
pre { margin: 0; white-space: pre-wrap; word-break: break-word; font-family: var(--vscode-editor-font-family, monospace); font-size: var(--vscode-editor-font-size, 12px); }
.pdiff pre { border: 1px solid var(--vscode-panel-border, #8884); padding: 4px; max-height: 18em; overflow: auto; }
.pdiff .add { background: var(--vscode-diffEditor-insertedLineBackground, #2a24); }
.pdiff .del { background: var(--vscode-diffEditor-removedLineBackground, #d334); }
.pdiff .ctx { color: var(--vscode-descriptionForeground); }
.episodes td.judge { font-style: italic; }
.episodes .proposal { border: 1px dashed var(--vscode-editorWarning-foreground, #c80); border-radius: 3px; padding: 0 3px; }
.sxs { width: 100%; table-layout: fixed; }
.sxs th:first-child { width: 4em; }
.sxs tr.same td { color: var(--vscode-descriptionForeground); }
.sxs tr.diverge { outline: 2px solid var(--vscode-editorWarning-foreground, #c80); }
.sxs tr.diverge th { color: var(--vscode-editorWarning-foreground, #c80); }
.sxs td.err pre { color: var(--vscode-errorForeground); }
.sxs .role { font-weight: bold; margin-bottom: 2px; }
a { color: var(--vscode-textLink-foreground); text-decoration: none; }
a:focus, select:focus, button:focus { outline: 1px solid var(--vscode-focusBorder); }
`;

export function renderSweepMatrixHtml(o: { cspSource: string; scriptUri: string; nonce: string; title: string }): string {
  return renderWebviewPage({ who: 'renderSweepMatrixHtml', csp: compareCsp(o.cspSource, o.nonce), nonce: o.nonce, title: o.title, scriptUri: o.scriptUri, head: `<style nonce="${o.nonce}">${CSS}</style>` });
}

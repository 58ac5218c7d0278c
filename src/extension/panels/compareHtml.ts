// The comparison webview's HTML (pure): the bundled script and one inline style element, both by nonce, and a
// CSP that allows nothing else (no network, no other scripts or styles). Colours are the theme's variables.
import { renderWebviewPage } from './webviewPage.js';

export interface CompareHtmlOptions {
  cspSource: string;
  /** webview.asWebviewUri(dist/webview/compare.js) as a string */
  scriptUri: string;
  nonce: string;
  title: string;
}


export function compareCsp(cspSource: string, nonce: string): string {
  return ["default-src 'none'", `script-src 'nonce-${nonce}'`, `style-src 'nonce-${nonce}'`, `img-src ${cspSource}`, `font-src ${cspSource}`].join('; ');
}

const CSS = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 16px; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
.sub { color: var(--vscode-descriptionForeground); }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid var(--vscode-panel-border, var(--vscode-editorWidget-border)); padding: 4px 10px; text-align: left; }
thead th { background: var(--vscode-editorWidget-background); }
.matrix td, .matrix thead th { text-align: center; min-width: 2em; }
.matrix thead th.differs { outline: 2px solid var(--vscode-editorWarning-foreground); }
.cell.success, .cell.success a { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); }
.cell.failure, .cell.failure a { color: var(--vscode-testing-iconFailed, var(--vscode-errorForeground)); }
.cell.missing { color: var(--vscode-disabledForeground); }
a { color: var(--vscode-textLink-foreground); text-decoration: none; }
a:focus { outline: 1px solid var(--vscode-focusBorder); }
`;

export function renderCompareHtml(o: CompareHtmlOptions): string {
  return renderWebviewPage({
    who: 'renderCompareHtml',
    csp: compareCsp(o.cspSource, o.nonce),
    nonce: o.nonce,
    title: o.title,
    scriptUri: o.scriptUri,
    head: `<style nonce="${o.nonce}">${CSS}</style>`,
  });
}

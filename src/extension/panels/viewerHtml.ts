// The run viewer webview's HTML (pure): the bundled script by nonce, its CSS, and a CSP that allows nothing else
// (STYLE rule 8): no inline script, no network; styles, fonts and images only from the webview's own resources.
// 'unsafe-inline' styles are needed because Monaco and Lit insert <style> elements (webview/runViewer/README.md).
import { escapeHtml, renderWebviewPage } from './webviewPage.js';

export interface ViewerHtmlOptions {
  /** webview.cspSource */
  cspSource: string;
  /** webview.asWebviewUri(dist/webview/runViewer.js) as a string */
  scriptUri: string;
  /** webview.asWebviewUri(dist/webview/runViewer.css) as a string */
  cssUri: string;
  nonce: string;
  title: string;
}

export function viewerCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'unsafe-inline'`,
    `font-src ${cspSource}`,
    // data: for the images a role saw, drawn from the trace's own bytes (images only; scripts stay nonce-bound).
    `img-src ${cspSource} data:`,
  ].join('; ');
}

export function renderViewerHtml(o: ViewerHtmlOptions): string {
  return renderWebviewPage({
    who: 'renderViewerHtml',
    csp: viewerCsp(o.cspSource, o.nonce),
    nonce: o.nonce,
    title: o.title,
    scriptUri: o.scriptUri,
    head: `<link rel="stylesheet" href="${escapeHtml(o.cssUri)}">`,
  });
}

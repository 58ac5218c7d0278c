// The run viewer webview's HTML (pure): the bundled script by nonce, its CSS, and a CSP that allows nothing else
// (STYLE rule 8): no inline script, no network; styles, fonts and images only from the webview's own resources.
// 'unsafe-inline' styles are needed because Monaco and Lit insert <style> elements (webview/runViewer/README.md).
import { randomBytes } from 'node:crypto';

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

/** 16 random bytes, base64: a fresh script nonce per page load. */
export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}

/** Escapes text for element content and double-quoted attributes (single quotes, which the CSP uses, stay). */
function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

export function viewerCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'unsafe-inline'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}`,
  ].join('; ');
}

export function renderViewerHtml(o: ViewerHtmlOptions): string {
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(o.nonce)) throw new Error('renderViewerHtml: nonce must be at least 16 base64 characters');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(viewerCsp(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${escapeHtml(o.cssUri)}">
<title>${escapeHtml(o.title)}</title>
</head>
<body>
<div id="app"></div>
<script nonce="${o.nonce}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>
`;
}

// The page every Waypoint webview panel loads (pure): one bundled script by nonce, an empty #app, the panel's CSP.
// Each panel supplies its CSP and what goes into <head> besides it (a stylesheet link or a nonce'd style).
import { randomBytes } from 'node:crypto';

/** 16 random bytes, base64: a fresh script nonce per page load. */
export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}

/** Escapes text for element content and double-quoted attributes (single quotes, which the CSP uses, stay). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

export function renderWebviewPage(o: { who: string; csp: string; nonce: string; title: string; scriptUri: string; head: string }): string {
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(o.nonce)) throw new Error(`${o.who}: nonce must be at least 16 base64 characters`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(o.csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(o.title)}</title>
${o.head}
</head>
<body>
<div id="app"></div>
<script nonce="${o.nonce}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>
`;
}

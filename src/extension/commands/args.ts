// Command arguments arrive as strings (CodeLens, e2e tests), URIs (menus) or tree nodes: one converter.
import * as vscode from 'vscode';

export function toUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string' && arg) return /^[a-z][\w+.-]*:/i.test(arg) && !/^[a-z]:[\\/]/i.test(arg) ? vscode.Uri.parse(arg) : vscode.Uri.file(arg);
  if (arg && typeof arg === 'object' && typeof (arg as { path?: unknown }).path === 'string' && (arg as { kind?: unknown }).kind === 'prompt') return vscode.Uri.file((arg as { path: string }).path);
  return undefined;
}

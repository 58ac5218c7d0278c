// Lazy bundle `monaco` (dist/webview/runViewer.monaco.js + .css): Monaco's diff editor with Python colouring, for
// the retry diffs (diff.ts). Loaded by webview/common/lazyBundle.ts when a diff is first shown.
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/diffEditor/register';
import * as python from 'monaco-editor/languages/definitions/python/python';
import { registerBundle } from '../../common/lazyBundle.js';

export interface MonacoBundle {
  monaco: typeof monaco;
  python: typeof python;
}

registerBundle('monaco', { monaco, python } satisfies MonacoBundle);

// The view registry: each architecture's part of the run viewer (its view/ folder: projections, tabs, summary
// sections), bundled into the webview. The viewer (webview/runViewer/extraTabs.ts) knows architectures only
// through this list; nothing under src/core imports it.
import type { ArchitectureView } from '../../webview/runViewer/extraTabs.js';
import { actctxView, type ActctxInspectors } from './actctx/view/index.js';
import { llamarView, type LlamarInspectors } from './llamar/view/index.js';
import { rocoView } from './roco/view/index.js';
import { trajgenView } from './trajgen/view/index.js';

export const ARCHITECTURE_VIEWS: readonly ArchitectureView[] = [actctxView, rocoView, llamarView, trajgenView];

/** What the architectures' views let the viewer's test hook read (webview/runViewer/debugHook.ts). */
export type ArchitectureInspectors = ActctxInspectors & LlamarInspectors;

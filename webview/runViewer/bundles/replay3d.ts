// Lazy bundle `replay3d` (dist/webview/runViewer.replay3d.js): the three.js renderer of the 3D tab
// (replay3dView.ts). Loaded by webview/common/lazyBundle.ts when the tab is first opened.
import { registerBundle } from '../../common/lazyBundle.js';
import { Replay3dView } from '../replay3dView.js';

export interface Replay3dBundle {
  Replay3dView: typeof Replay3dView;
}

registerBundle('replay3d', { Replay3dView } satisfies Replay3dBundle);

/** The run viewer's webview type (package.json activation event onWebviewPanel:waypoint.runViewer). */
export const RUN_VIEWER_VIEW_TYPE = 'waypoint.runViewer';

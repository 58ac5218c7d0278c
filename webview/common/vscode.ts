// Typed access to the webview API. Inside VS Code, acquireVsCodeApi() (callable once per page); elsewhere (the
// static HTML report, tests) a stub: state lives in memory and posted messages go to `window.__waypointHostStub`
// when a page defines one (html.ts does), so the same viewer runs outside the editor.
import type { ViewToHost } from '../../src/protocol/webview.js';

export interface WebviewApi<S> {
  postMessage(message: ViewToHost): void;
  getState(): S | undefined;
  setState(state: S): void;
  /** True when running inside VS Code. */
  readonly inVsCode: boolean;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  interface Window {
    acquireVsCodeApi?: () => VsCodeApi;
    __waypointHostStub?: (message: ViewToHost) => void;
  }
}

let cached: WebviewApi<unknown> | undefined;

export function getWebviewApi<S>(): WebviewApi<S> {
  if (cached) return cached as WebviewApi<S>;
  if (typeof window.acquireVsCodeApi === 'function') {
    const api = window.acquireVsCodeApi();
    cached = {
      inVsCode: true,
      postMessage: (m) => api.postMessage(m),
      getState: () => api.getState() ?? undefined,
      setState: (s) => api.setState(s),
    };
  } else {
    let state: unknown;
    cached = {
      inVsCode: false,
      postMessage: (m) => window.__waypointHostStub?.(m),
      getState: () => state,
      setState: (s) => {
        state = s;
      },
    };
  }
  return cached as WebviewApi<S>;
}

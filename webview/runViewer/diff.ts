// Side-by-side code diff between a failed block and its retry, with Monaco's diff editor.
// Workers: the webview CSP (default-src 'none', scripts by nonce) allows no worker (no blob:, no worker-src), so
// getWorker throws and Monaco's EditorWorkerClient falls back to its in-process worker (EditorWorker on the main
// thread; it logs "Could not create web worker(s)" once). Diffs of code blocks are small, so the cost is fine.
// Monaco injects <style> elements, so the CSP needs style-src 'unsafe-inline' for it.
// Monaco is a lazy bundle of its own (bundles/monaco.ts, loaded by common/lazyBundle.ts when a diff is first shown):
// inside the viewer's bundle it was 2.8 MB the page parsed before every first paint.
import type * as Monaco from 'monaco-editor/editor/editor.api';
import { loadBundle } from '../common/lazyBundle.js';
import type { MonacoBundle } from './bundles/monaco.js';

type MonacoApi = typeof Monaco;
let loading: Promise<MonacoApi> | undefined;
function loadMonaco(): Promise<MonacoApi> {
  loading ??= loadBundle<MonacoBundle>('monaco', true).then(({ monaco, python }) => {
    monaco.languages.register({ id: 'python', extensions: ['.py'], aliases: ['Python'] });
    monaco.languages.setMonarchTokensProvider('python', python.language);
    monaco.languages.setLanguageConfiguration('python', python.conf);
    defineReadableThemes(monaco);
    return monaco;
  });
  loading.catch(() => (loading = undefined));
  return loading;
}

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker?: (workerId: string, label: string) => Worker };
  }
}

window.MonacoEnvironment = {
  getWorker(_id: string, label: string): Worker {
    throw new Error(`web workers are disabled by the webview's content security policy (${label}); using the main thread`);
  },
};

function themeName(): string {
  const c = document.body.classList;
  if (c.contains('vscode-high-contrast-light')) return 'waypoint-hc-light';
  if (c.contains('vscode-high-contrast')) return 'waypoint-hc-black';
  if (c.contains('vscode-light')) return 'waypoint-vs';
  return 'waypoint-vs-dark';
}

/**
 * Monaco's built-in themes with the colours that fall under 4.5:1 raised: comments in vs-dark (#608b4e) and the
 * dimmed line numbers of a diff (which are text the user reads, here the line a traceback names).
 */
function defineReadableThemes(monaco: MonacoApi): void {
  const themes = [
    { name: 'waypoint-vs', base: 'vs', comment: '008000', lines: '#237893' },
    { name: 'waypoint-vs-dark', base: 'vs-dark', comment: '6a9955', lines: '#858585' },
    { name: 'waypoint-hc-black', base: 'hc-black', comment: '7ca668', lines: '#ffffff' },
    { name: 'waypoint-hc-light', base: 'hc-light', comment: '515151', lines: '#292929' },
  ] as const;
  for (const t of themes) {
    monaco.editor.defineTheme(t.name, {
      base: t.base,
      inherit: true,
      rules: [{ token: 'comment', foreground: t.comment }],
      colors: {
        'editorLineNumber.foreground': t.lines,
        'editorLineNumber.dimmedForeground': t.lines,
        // The light themes' second bracket colour (#319331) is 3.9:1 on white.
        ...(t.base === 'vs' || t.base === 'hc-light' ? { 'editorBracketHighlight.foreground2': '#267326' } : {}),
      },
    });
  }
}

const LINE_PX = 19;
const MAX_HEIGHT_PX = 480;

export class CodeDiffView {
  private editor: Monaco.editor.IStandaloneDiffEditor | undefined;
  private models: Monaco.editor.ITextModel[] = [];
  private lastSides: { original: string; modified: string } | undefined;
  /** Bumped by every show/dispose, so a diff that finishes loading after the user moved on is dropped. */
  private generation = 0;

  /** Renders the diff into `host` (replacing a previous one). `language` is the code block's language. */
  show(host: HTMLElement, original: string, modified: string, language: string): void {
    this.dispose();
    const gen = this.generation;
    host.classList.add('diff-host', 'loading');
    loadMonaco().then(
      (monaco) => {
        if (gen !== this.generation || !host.isConnected) return;
        host.classList.remove('loading');
        this.create(monaco, host, original, modified, language);
      },
      (err: unknown) => {
        host.classList.remove('loading');
        host.textContent = `The diff editor failed to load: ${err instanceof Error ? err.message : String(err)}`;
      },
    );
  }

  private create(monaco: MonacoApi, host: HTMLElement, original: string, modified: string, language: string): void {
    const lang = language === 'python' || language === 'py' ? 'python' : 'plaintext';
    const a = monaco.editor.createModel(original, lang);
    const b = monaco.editor.createModel(modified, lang);
    this.models = [a, b];
    this.editor = monaco.editor.createDiffEditor(host, {
      readOnly: true,
      originalEditable: false,
      renderSideBySide: true,
      // Keep both sides visible even in a narrow panel (the point of the view is before vs after).
      useInlineViewWhenSpaceIsLimited: false,
      renderSideBySideInlineBreakpoint: 0,
      automaticLayout: true,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      lineHeight: LINE_PX,
      fontSize: 12,
      renderOverviewRuler: false,
      enableSplitViewResizing: true,
      theme: themeName(),
      wordWrap: 'on',
      diffWordWrap: 'on',
      contextmenu: false,
      hideUnchangedRegions: { enabled: false },
    });
    this.editor.setModel({ original: a, modified: b });
    this.lastSides = { original, modified };
    // Size the host to the taller side's content (CSSOM, which the CSP allows), up to a cap, so short blocks
    // show whole and long ones scroll.
    const fit = () => {
      const ed = this.editor;
      if (!ed) return;
      const px = Math.max(ed.getOriginalEditor().getContentHeight(), ed.getModifiedEditor().getContentHeight());
      host.style.height = `${Math.min(MAX_HEIGHT_PX, Math.max(4 * LINE_PX, px + 4))}px`;
    };
    this.editor.getOriginalEditor().onDidContentSizeChange(fit);
    this.editor.getModifiedEditor().onDidContentSizeChange(fit);
    this.editor.onDidUpdateDiff(fit);
    fit();
  }

  /** What the two editors hold (for the test hook). */
  sides(): { original: string; modified: string; sideBySide: boolean; originalDom: boolean; modifiedDom: boolean } | undefined {
    if (!this.editor || !this.lastSides) return undefined;
    const ed = this.editor;
    return {
      original: ed.getOriginalEditor().getValue(),
      modified: ed.getModifiedEditor().getValue(),
      sideBySide: ed.getOriginalEditor().getLayoutInfo().width > 0 && ed.getModifiedEditor().getLayoutInfo().width > 0,
      originalDom: !!ed.getOriginalEditor().getDomNode(),
      modifiedDom: !!ed.getModifiedEditor().getDomNode(),
    };
  }

  /** Line changes once Monaco has computed them (async). */
  async lineChanges(): Promise<Monaco.editor.ILineChange[]> {
    const ed = this.editor;
    if (!ed) return [];
    const now = ed.getLineChanges();
    if (now) return now;
    await new Promise<void>((resolve) => {
      const d = ed.onDidUpdateDiff(() => {
        d.dispose();
        resolve();
      });
    });
    return ed.getLineChanges() ?? [];
  }

  dispose(): void {
    this.generation++;
    this.editor?.dispose();
    this.editor = undefined;
    for (const m of this.models) m.dispose();
    this.models = [];
    this.lastSides = undefined;
  }
}

// Run header (task, architecture/variant, model label, result badge) and the reader's warnings banner.
import type { RunSummary } from '../../src/core/trace/projections/runSummary.js';
import type { ViewerWarning } from '../../src/protocol/webview.js';
import { clear, h } from '../common/dom.js';

export function renderHeader(el: HTMLElement, s: RunSummary, runId: string | undefined, live: boolean, openRun?: (runId: string) => void): void {
  clear(el);
  const hd = s.header;
  const r = s.result;
  const badge =
    r.status === 'running'
      ? h('span', { class: 'result result-running' }, live ? 'running…' : 'incomplete (no episode_end)')
      : r.notStarted
        ? h('span', { class: 'result result-not-started', title: r.message ?? '' }, `✖ not started · ${r.reason}`, r.message ? ` · ${r.message}` : '')
        : h('span', { class: `result result-${r.status}`, title: r.message ?? '' }, r.status === 'success' ? '✔ success' : `✖ failure · ${r.reason}`, r.status === 'failure' && r.message ? ` · ${r.message}` : '');
  el.appendChild(
    h('div', { class: 'header-main' },
      h('h1', null, hd ? hd.task : runId ?? 'run'),
      badge,
      r.claimMismatch ? h('span', { class: 'result result-failure', title: 'agentClaimedDone disagrees with the simulator success check' }, r.agentClaimedDone ? 'agent claimed done' : 'agent did not claim done') : null),
  );
  if (!hd) return;
  if (hd.taskDescription) el.appendChild(h('p', { class: 'task-desc' }, hd.taskDescription));
  if (hd.fork) {
    const f = hd.fork;
    const changed = f.changedFiles.length ? `changed: ${f.changedFiles.join(', ')}` : 'no prompt file changed';
    const how = f.via === 'snapshot' ? 'simulator restored from its state at that turn' : 'earlier turns re-run';
    el.appendChild(
      h('p', { class: 'fork-line', title: `Turns before ${f.turn} replayed ${f.replayedCalls} recorded answers (no model calls); ${how}.` },
        `⎇ fork of ${f.parentRunId} at turn ${f.turn}${f.role ? ` (${f.role})` : ''} · ${changed} · ${f.replayedCalls} earlier answers replayed, ${how} `,
        openRun ? h('vscode-button', { secondary: true, class: 'open-original', onclick: () => openRun(f.parentRunId) }, 'Open the original') : null),
    );
  }
  // A run refused at the start records empty fields (no topology, simulator or variant yet): no empty chips.
  const chip = (k: string, v: string, cls = '') => (v ? h('span', { class: `chip ${cls}` }, h('span', { class: 'k' }, k), ' ', h('span', { class: 'v' }, v)) : null);
  el.appendChild(
    h('div', { class: 'chips' },
      chip('arch', hd.agentVariant ? `${hd.arch} / ${hd.agentVariant}` : hd.arch),
      chip('variant', hd.variant),
      chip('model', hd.modelLabel, hd.modelProvider === 'reference' ? 'model-reference' : ''),
      chip('seed', String(hd.seed)),
      chip('sim', hd.simulator),
      // What a vision model was shown: a switch that is on while the simulator sends no frames is worth a warning.
      hd.vision ? chip('vision', s.metrics.imagesSent > 0 ? `${s.metrics.imagesSent} image${s.metrics.imagesSent === 1 ? '' : 's'} in ${s.metrics.requestsWithImages} request${s.metrics.requestsWithImages === 1 ? '' : 's'}` : `on · no image sent${r.status === 'running' ? ' yet' : ' (the simulator returned no camera frames, or the architecture sends none)'}`, s.metrics.imagesSent > 0 ? '' : 'vision-none') : null,
      chip('run', hd.runId)),
  );
}

/** Reader warnings (truncated/corrupt lines) first, then the view's own notes (ignored messages, failed requests). */
export function renderWarnings(el: HTMLElement, warnings: readonly ViewerWarning[], viewNotes: readonly string[], dismissNotes: () => void): void {
  clear(el);
  el.classList.toggle('hidden', warnings.length === 0 && viewNotes.length === 0);
  const list = (items: string[]) => {
    const ul = h('ul', null, items.slice(0, 5).map((m) => h('li', null, m)));
    if (items.length > 5) ul.appendChild(h('li', null, `… and ${items.length - 5} more`));
    return ul;
  };
  if (warnings.length) {
    const truncated = warnings.some((w) => w.kind === 'truncated_last_line');
    el.appendChild(h('strong', null, truncated ? '⚠ This trace is truncated: the run stopped while writing it.' : '⚠ Some lines of this trace could not be read.'));
    el.appendChild(list(warnings.map((w) => w.message)));
  }
  if (viewNotes.length) {
    el.appendChild(h('div', { class: 'notes-head' }, h('strong', null, 'Viewer: '), h('vscode-button', { secondary: true, class: 'dismiss', onclick: dismissNotes }, 'Dismiss')));
    el.appendChild(list([...viewNotes]));
  }
}

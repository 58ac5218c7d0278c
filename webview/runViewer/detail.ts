// Detail pane for one turn: what the role saw (messages, system prompt collapsed), the raw response, the parsed
// output or format error, cost, the prompt file (click to open), the retry diff, executions with their state
// diff, observations, checks and engine errors.
import type { ChatMessage, EventOf } from '../../src/protocol/trace.js';
import type { RunProjection } from '../../src/core/trace/projections/runProjection.js';
import type { MotionAction } from '../../src/core/trace/projections/motionScores.js';
import type { CallDetail, TurnDetail, TurnRow } from '../../src/core/trace/projections/turns.js';
import { routeTarget } from '../../src/core/trace/projections/turns.js';
import { h } from '../common/dom.js';
import { renderMarkdown } from '../common/markdown.js';
import { renderStateDiff } from './stateTable.js';
import { roleClass, roleLabel } from './roles.js';

export interface DetailContext {
  proj: RunProjection;
  openPrompt(path: string, line?: number): void;
  /** Mounts the Monaco diff into `host` once it is in the document. */
  mountDiff(host: HTMLElement, original: string, modified: string, language: string): void;
  selectTurn(turn: number): void;
}

export function renderDetail(ctx: DetailContext, row: TurnRow | undefined, emptyNote?: string): { el: HTMLElement; afterMount: () => void } {
  const mounts: (() => void)[] = [];
  if (!row) return { el: h('div', { class: 'detail empty' }, emptyNote ?? 'Select a turn in the timeline (j/k or ↑/↓).'), afterMount: () => {} };
  const d = ctx.proj.timeline.detail(row.turn)!;
  const el = h(
    'div',
    { class: 'detail', 'data-turn': row.turn },
    h('h2', { class: 'detail-title' }, `Turn ${row.turn} `, h('span', { class: `role-badge ${roleClass(row.role)}` }, roleLabel(row.role)), row.routeTo ? h('span', { class: 'route' }, ` → ${row.routeTo}`) : null, ' ', outcomeBadge(row)),
    row.flags.length ? h('ul', { class: 'flags' }, row.flags.map((f) => h('li', { class: `flag flag-${f.kind}` }, `⚠ ${f.message}`))) : null,
  );
  const diffs = ctx.proj.retries.forTurn(row.turn);
  for (const diff of diffs) {
    const host = h('div', { class: 'diff-editor', 'data-diff': diff.id });
    const before = diff.before;
    // One numbering: the turns that wrote the code (the role's turns in the timeline), not the ones that ran it.
    const role = roleLabel(diff.role);
    el.appendChild(
      h('section', { class: 'retry' },
        h('h3', null, `Retry diff: ${role} turn ${before.sourceTurn} (failed) → ${role} turn ${diff.after.sourceTurn} (${diff.fixed ? 'fixed' : 'failed again'})`),
        h('p', { class: 'error-line' }, `${before.error?.type ?? 'Error'}: ${before.error?.message ?? `exit code ${before.exitCode}`}${before.error?.line ? ` (line ${before.error.line})` : ''} · error ${diff.consecutiveErrors} in a row`),
        h('div', { class: 'diff-labels' }, h('span', null, `before · ${role} turn ${before.sourceTurn}`), h('span', null, `after · ${role} turn ${diff.after.sourceTurn}`)),
        host,
      ),
    );
    mounts.push(() => ctx.mountDiff(host, before.code, diff.after.code, 'python'));
  }
  for (const c of d.calls) el.appendChild(renderCall(ctx, c));
  for (const x of d.executions) el.appendChild(renderExecution(x));
  const actions = ctx.proj.motion.forTurn(row.turn);
  if (actions.length) el.appendChild(renderMotionTable(actions));
  for (const sd of ctx.proj.states.forTurn(row.turn)) el.appendChild(renderStateDiff(sd));
  for (const a of d.actions) el.appendChild(renderActionResults(a));
  for (const c of d.checks) el.appendChild(h('p', { class: c.ok ? 'check ok' : 'check failed' }, `${c.ok ? '✔' : '✖'} check ${c.name}: ${c.message}`));
  for (const e of d.errors) el.appendChild(h('p', { class: 'engine-error' }, `✖ ${e.kind}: ${e.message}${e.file ? ` (${e.file}${e.line ? `:${e.line}` : ''})` : ''}`));
  // Turn 0 is the task statement the chat opens with (in SA and MA no Supervisor exists to say it).
  if (d.calls.length === 0 && d.executions.length === 0) for (const m of d.chat) el.appendChild(h('section', { class: 'chat' }, h('h3', null, row.turn === 0 ? 'The chat opens with' : `${m.speaker} says`), renderMarkdown(m.content)));
  for (const o of d.observations) el.appendChild(collapsible(`Observation (state text, ${o.state.objects.length} objects)`, h('pre', { class: 'observation' }, o.text), d.calls.length === 0 && d.executions.length === 0 && d.chat.length === 0));
  if (d.trajectorySamples) el.appendChild(h('p', { class: 'muted' }, `${d.trajectorySamples} trajectory sample${d.trajectorySamples === 1 ? '' : 's'} (see Plots).`));
  return { el, afterMount: () => mounts.forEach((m) => m()) };
}

/** A structured (joint) action's results: per agent the action, ok or not, what it said and the simulator's reason. */
function renderActionResults(a: EventOf<'action_result'>): HTMLElement {
  return h('section', { class: 'actions' },
    h('h3', null, `Actions${a.step !== undefined ? ` of step ${a.step}` : ''}`),
    h('table', { class: 'metrics actions-table' },
      h('tbody', null, a.results.map((r) =>
        h('tr', { class: r.ok ? '' : 'failed' },
          h('th', null, r.agent),
          h('td', null, r.name),
          h('td', null, r.ok ? '✔' : '✖'),
          h('td', null, (r.ok ? r.output : r.error) ?? '', typeof r.value === 'string' ? h('div', { class: 'muted' }, r.value) : null))))));
}

function outcomeBadge(row: TurnRow): HTMLElement {
  const text: Record<TurnRow['outcome'], string> = {
    ok: 'ok', pending: 'waiting', model_error: 'model error', format_error: 'format error', code_error: 'code error', check_failed: 'check failed', engine_error: 'engine error',
  };
  return h('span', { class: `outcome outcome-${row.outcome}` }, text[row.outcome]);
}

function renderCall(ctx: DetailContext, c: CallDetail): HTMLElement {
  const call = c.call;
  const r = c.response;
  const meta = h('div', { class: 'meta' });
  const item = (k: string, v: string) => meta.appendChild(h('span', { class: 'kv' }, h('span', { class: 'k' }, k), ' ', h('span', { class: 'v' }, v)));
  if (call) item('model', call.model);
  if (r?.usage) item('tokens', `${r.usage.promptTokens} in / ${r.usage.completionTokens} out`);
  if (r) {
    item('latency', `${r.latencyMs.toFixed(0)} ms`);
    item('cache', r.cached ? 'hit' : 'miss');
    if (r.attempts > 1) item('attempts', String(r.attempts));
  }
  if (call?.params.temperature !== undefined) item('temperature', String(call.params.temperature));
  const sec = h('section', { class: 'call', 'data-call': c.callId }, meta);
  if (call) {
    sec.appendChild(
      h('p', { class: 'prompt-path' }, 'prompt ',
        h('a', { href: '#', class: 'prompt-link', title: 'Open the prompt file', 'data-path': call.promptPath, onclick: (ev: Event) => { ev.preventDefault(); ctx.openPrompt(call.promptPath); } }, call.promptPath)),
    );
  }
  // What came out first (parsed output or the error), then the raw answer, then what went in.
  if (c.parsed) sec.appendChild(renderParsed(c.parsed));
  if (r) {
    if (r.ok) sec.appendChild(collapsible('Raw response', h('pre', { class: 'raw-response' }, r.text ?? ''), !c.parsed?.ok));
    else sec.appendChild(h('p', { class: 'model-error' }, `✖ model error (${r.error?.kind ?? 'unknown'}${r.error?.status ? ` ${r.error.status}` : ''}): ${r.error?.message ?? ''}`));
  } else if (call) {
    sec.appendChild(h('p', { class: 'muted' }, 'Waiting for the model…'));
  }
  if (call) {
    sec.appendChild(renderMessages(call.messages));
    const vars = Object.keys(call.variables);
    if (vars.length) sec.appendChild(collapsible(`Template variables (${vars.length})`, h('pre', { class: 'json' }, JSON.stringify(call.variables, null, 2)), false));
  }
  return sec;
}

// Image types the viewer draws from a trace's bytes (as data: URLs, which its CSP allows for images only).
const SHOWN_IMAGE = /^image\/(png|jpeg|gif|webp)$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A message with parts: its text parts as Markdown, each image as a thumbnail captioned with its alt text. */
function renderParts(parts: NonNullable<ChatMessage['parts']>): HTMLElement {
  const body = h('div', { class: 'msg-parts' });
  const images = h('div', { class: 'msg-images' });
  for (const p of parts) {
    if (p.type === 'text') body.appendChild(renderMarkdown(p.text));
    else {
      const caption = p.alt ?? `image ${p.sha256.slice(0, 12)}`;
      const drawable = p.dataBase64 !== undefined && SHOWN_IMAGE.test(p.mediaType) && BASE64.test(p.dataBase64);
      images.appendChild(
        h(
          'figure',
          { class: 'msg-image', 'data-sha256': p.sha256 },
          drawable ? h('img', { src: `data:${p.mediaType};base64,${p.dataBase64}`, alt: caption, title: `${caption} · sha256 ${p.sha256.slice(0, 12)}` }) : h('span', { class: 'muted' }, '(image not in this trace)'),
          h('figcaption', null, caption),
        ),
      );
    }
  }
  if (images.childElementCount > 0) body.appendChild(images);
  return body;
}

function renderMessages(messages: ChatMessage[]): HTMLElement {
  const approxTokens = Math.round(messages.reduce((n, m) => n + m.content.length, 0) / 4);
  const list = h('div', { class: 'messages' });
  messages.forEach((m, i) => {
    const who = m.name ? `${m.role} (${m.name})` : m.role;
    const body = m.parts?.some((p) => p.type === 'image') ? renderParts(m.parts) : renderMarkdown(m.content);
    if (m.role === 'system') list.appendChild(collapsible(`system prompt · ${m.content.length} chars`, body, false, 'msg msg-system'));
    else list.appendChild(h('div', { class: `msg msg-${m.role}`, 'data-index': i }, h('div', { class: 'msg-head' }, who), body));
  });
  return collapsible(`Messages the role saw (${messages.length}, ~${approxTokens} tokens)`, list, true);
}

function renderParsed(p: EventOf<'parsed_output'>): HTMLElement {
  if (!p.ok) return h('section', { class: 'format-error' }, h('h3', null, `Format error (${p.kind})`), h('p', null, p.error ?? 'the answer could not be parsed'));
  let body: HTMLElement;
  if (p.kind === 'route') body = h('p', { class: 'route' }, `→ ${routeTarget(p.value) ?? JSON.stringify(p.value)}`);
  else if (p.kind === 'code' && typeof p.value === 'string') body = h('pre', { class: 'code', 'data-lang': 'python' }, h('code', null, p.value));
  else if (typeof p.value === 'string') body = renderMarkdown(p.value);
  else body = h('pre', { class: 'json' }, JSON.stringify(p.value, null, 2));
  return h('section', { class: 'parsed' }, h('h3', null, `Parsed output (${p.kind})`), body);
}

function renderExecution(x: EventOf<'code_execution'>): HTMLElement {
  return h(
    'section',
    { class: `execution ${x.ok ? 'ok' : 'failed'}` },
    h('h3', null, `Execution of ${roleLabel(x.role)}'s block · exit ${x.exitCode} · ${x.durationMs.toFixed(0)} ms${x.namespacePersisted ? ' · shared namespace' : ''}`),
    h('pre', { class: 'code', 'data-lang': x.language }, h('code', null, x.code)),
    x.error ? h('p', { class: 'error-line' }, `${x.error.type}: ${x.error.message}${x.error.line ? ` (line ${x.error.line})` : ''}`) : null,
    x.stdout ? h('pre', { class: 'stdout' }, x.stdout) : null,
    x.apiCalls.length
      ? h('table', { class: 'api-calls' },
          h('thead', null, h('tr', null, h('th', null, 'call'), h('th', null, 'arguments'), h('th', null, 'result'))),
          h('tbody', null, x.apiCalls.map((c) => h('tr', { class: c.ok ? '' : 'failed' }, h('td', null, c.fn), h('td', null, JSON.stringify(c.args)), h('td', null, c.ok ? 'ok' : `✖ ${c.error ?? 'failed'}`)))))
      : null,
  );
}

/** The turn's robot actions with their motion scores (Action Contextualization's M_I, M_E, M_T). */
function renderMotionTable(actions: MotionAction[]): HTMLElement {
  const num = (v: number | null, digits: number, scale = 1) => (v === null ? '–' : (v * scale).toFixed(digits));
  const cols = ['#', 'call', 'arguments', 'start (s)', 'M_I', 'M_E', 'M_T', 'clearance (mm)', 'closest pair', 'collisions', 'held tilt (°)'];
  return h('section', { class: 'motion-scores-turn' },
    h('h3', null, 'Motion scores'),
    h('table', { class: 'api-calls motion-table' },
      h('thead', null, h('tr', null, cols.map((c) => h('th', null, c)))),
      h('tbody', null, actions.map((a) =>
        h('tr', { 'data-action': a.index, class: [a.ok ? '' : 'failed', a.moved ? '' : 'no-motion', a.collisionCount ? 'collided' : ''].filter(Boolean).join(' ') || undefined, title: a.moved ? undefined : 'did not move (M_I = M_E = -1)' },
          h('td', { class: 'num' }, String(a.index)), h('td', null, a.fn), h('td', null, a.args),
          h('td', { class: 'num' }, a.startSecs.toFixed(2)),
          h('td', { class: 'num' }, num(a.mI, 3)), h('td', { class: 'num' }, num(a.mE, 3)), h('td', { class: 'num' }, num(a.mT, 3)),
          h('td', { class: 'num' }, num(a.minClearanceM, 1, 1000)), h('td', null, a.closestPair ? a.closestPair.join(' ↔ ') : '–'),
          h('td', { class: 'num' }, String(a.collisionCount)), h('td', { class: 'num' }, num(a.maxHeldTiltRad, 1, 180 / Math.PI)))))));
}

export function collapsible(heading: string, body: HTMLElement, open: boolean, cls = ''): HTMLElement {
  const el = h('vscode-collapsible', { heading, class: cls || undefined, open: open || undefined });
  el.appendChild(body);
  return el;
}

export type { TurnDetail };

// Turn timeline: one row per turn with a coloured role badge, the Supervisor's routing, the outcome and cost.
import type { TurnRow } from '../../src/core/trace/projections/turns.js';
import { clear, h } from '../common/dom.js';
import { roleClass, roleLabel } from './roles.js';

/** `forkTurn`: in a fork, turns before it replayed the original's answers; that turn is where it branched. */
export function renderTimeline(el: HTMLElement, rows: readonly TurnRow[], selected: number | undefined, onSelect: (turn: number) => void, emptyNote?: string, forkTurn?: number): void {
  clear(el);
  if (rows.length === 0 && emptyNote) el.appendChild(h('p', { class: 'empty-note' }, emptyNote));
  for (const r of rows) {
    const forkClass = forkTurn === undefined ? '' : r.turn < forkTurn ? ' replayed' : r.turn === forkTurn ? ' fork-point' : '';
    const err = r.outcome !== 'ok' && r.outcome !== 'pending';
    const cost = [
      r.promptTokens !== undefined ? `${r.promptTokens}+${r.completionTokens ?? 0} tok` : '',
      r.latencyMs !== undefined ? `${r.latencyMs.toFixed(0)} ms` : '',
      r.cached ? 'cached' : '',
    ].filter(Boolean).join(' · ');
    el.appendChild(
      h('div', {
        class: `turn-row outcome-${r.outcome}${err ? ' has-error' : ''}${r.turn === selected ? ' selected' : ''}${forkClass}`,
        role: 'option',
        'aria-selected': r.turn === selected ? 'true' : 'false',
        'data-turn': r.turn,
        title: r.errorText ?? r.summary,
        onclick: () => onSelect(r.turn),
      },
        h('span', { class: 'turn-no', ...(forkClass === ' fork-point' ? { title: 'the fork branched here' } : {}) }, forkClass === ' fork-point' ? `⎇${r.turn}` : String(r.turn)),
        h('span', { class: `role-badge ${roleClass(r.role)}` }, roleLabel(r.role)),
        h('span', { class: 'turn-main' },
          h('span', { class: r.routeTo ? 'summary route' : 'summary' }, r.summary),
          cost ? h('span', { class: 'cost' }, cost) : null,
          r.flags.length ? h('span', { class: 'flags-inline', title: r.flags.map((f) => f.message).join('\n') }, `⚠ ${r.flags.map((f) => f.message).join('; ')}`) : null),
        err ? h('span', { class: 'err-mark', 'aria-label': r.outcome }, '✖') : null,
      ),
    );
  }
}

export function markTimeline(el: HTMLElement, selected: number | undefined, hover: number | undefined): void {
  for (const row of el.querySelectorAll<HTMLElement>('.turn-row')) {
    const t = Number(row.dataset.turn);
    row.classList.toggle('selected', t === selected);
    row.setAttribute('aria-selected', t === selected ? 'true' : 'false');
    row.classList.toggle('hovered', t === hover);
  }
}

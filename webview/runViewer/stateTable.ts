// State diff table after one execution: moved objects (more than the threshold), red when an object moved that
// was neither held nor named in the block's calls; grasp status before/after; drops.
import type { StateDiff } from '../../src/core/trace/projections/stateDiffs.js';
import { h } from '../common/dom.js';

const mm = (m: number) => `${(m * 1000).toFixed(1)} mm`;
const vec = (v: readonly number[]) => `[${v.map((x) => x.toFixed(4)).join(', ')}]`;

export function renderStateDiff(d: StateDiff): HTMLElement {
  const grasp = d.graspedBefore === d.graspedAfter
    ? d.graspedAfter ? `holding ${d.graspedAfter}` : 'nothing held'
    : `${d.graspedBefore ?? 'nothing'} → ${d.graspedAfter ?? 'nothing'}`;
  return h(
    'section',
    { class: 'state-diff', 'data-turn': d.turn },
    h('h3', null, `State change after turn ${d.turn}'s execution`),
    h('p', { class: 'grasp' },
      `Grasp: ${grasp} · gripper ${d.gripperOpenBefore ? 'open' : 'closed'} → ${d.gripperOpenAfter ? 'open' : 'closed'} · end effector moved ${mm(d.ee.deltaM)}`),
    d.dropped ? h('p', { class: 'drop' }, `✖ ${d.dropped} was dropped: held before, not after, and open_gripper was not called`) : null,
    d.unexpected.length ? h('p', { class: 'unexpected-note' }, `✖ moved but not the grasped/target object: ${d.unexpected.join(', ')} (collision?)`) : null,
    d.moved.length === 0
      ? h('p', { class: 'muted' }, `No object moved more than 1 mm (${d.unchanged} unchanged).`)
      : h('table', { class: 'state-table' },
          h('thead', null, h('tr', null, h('th', null, 'object'), h('th', null, 'before (m)'), h('th', null, 'after (m)'), h('th', null, 'moved'), h('th', null, ''))),
          h('tbody', null, d.moved.map((m) =>
            h('tr', { class: m.expected ? 'expected' : 'unexpected', 'data-object': m.name },
              h('td', null, m.name), h('td', null, vec(m.before)), h('td', null, vec(m.after)), h('td', { class: 'num' }, mm(m.deltaM)),
              h('td', null, m.expected ? (m.name === d.graspedAfter || m.name === d.graspedBefore ? 'held' : 'target') : 'not the target')))),
        ),
    d.appeared.length || d.disappeared.length ? h('p', { class: 'muted' }, `appeared: ${d.appeared.join(', ') || '—'} · disappeared: ${d.disappeared.join(', ') || '—'}`) : null,
  );
}

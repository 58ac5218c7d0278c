// Action Contextualization's part of the run viewer (listed in src/architectures/views.ts): the Plan tab over the
// plan projection, shown for runs with task plans.
import { h } from '../../../../webview/common/dom.js';
import type { ArchitectureView } from '../../../../webview/runViewer/extraTabs.js';
import { PLAN_PROJECTION } from './actctxPlan.js';
import { ActctxPlanTab, type ActctxChartData } from './actctxPlanTab.js';

export interface ActctxInspectors {
  /** The Plan tab's chart (Q per plan execution, trials per run) as drawn. */
  actctxChart(): ActctxChartData | undefined;
}

export const actctxView: ArchitectureView = {
  id: 'actctx',
  projections: [PLAN_PROJECTION],
  create(host) {
    // The viewer shows and hides the tab's header; the one the tab toggles itself stays detached.
    const tab = new ActctxPlanTab({ hoverTurn: host.hoverTurn, selectTurn: host.selectTurn }, h('span'));
    const inspect: ActctxInspectors = { actctxChart: () => tab.data() };
    return {
      tabs: [{ id: 'plan', label: 'Plan', root: h('div', { class: 'plan-pane' }, tab.root), applies: (p) => p.of(PLAN_PROJECTION).attempts.length > 0, update: (p) => tab.update(p.of(PLAN_PROJECTION)) }],
      inspect,
    };
  },
};

// LLaMAR's part of the run viewer (listed in src/architectures/views.ts): the Floor plan and Steps tabs and the
// metrics section of the Summary tab, over the household steps projection. A household has no poses or
// trajectories, so its runs hide the Plots and 3D tabs.
import type { ArchitectureView } from '../../../../webview/runViewer/extraTabs.js';
import type { RunProjection } from '../../../core/trace/projections/runProjection.js';
import { FloorPlanTab, type FloorPlanData } from './floorPlanTab.js';
import './household.css';
import { HOUSEHOLD_PROJECTION } from './householdSteps.js';
import { StepsTab, type StepsData } from './stepsTab.js';
import { householdSummary } from './summarySection.js';

export interface LlamarInspectors {
  /** The floor plan as drawn (household runs): step, cells, objects, robots. */
  floorPlan(): FloorPlanData | undefined;
  /** The Steps tab's rows as drawn. */
  steps(): StepsData | undefined;
  /** Shows step n in the floor plan. */
  showStep(n: number): void;
}

export const llamarView: ArchitectureView = {
  id: 'llamar',
  projections: [HOUSEHOLD_PROJECTION],
  create(host) {
    const floorPlan = new FloorPlanTab(host.selectTurn);
    const steps = new StepsTab(host.selectTurn);
    const active = (p: RunProjection) => p.of(HOUSEHOLD_PROJECTION).active;
    const inspect: LlamarInspectors = { floorPlan: () => floorPlan.data(), steps: () => steps.data(), showStep: (n) => floorPlan.showStep(n) };
    return {
      tabs: [
        { id: 'floorplan', label: 'Floor plan', root: floorPlan.root, applies: active, update: (p) => floorPlan.update(p.of(HOUSEHOLD_PROJECTION).result()) },
        { id: 'steps', label: 'Steps', root: steps.root, applies: active, update: (p) => steps.update(p.of(HOUSEHOLD_PROJECTION).result()) },
      ],
      summaries: (p) => [householdSummary(p.of(HOUSEHOLD_PROJECTION))].filter((x): x is HTMLElement => x !== undefined),
      hides: (p) => (active(p) ? ['plots', '3d'] : []),
      inspect,
    };
  },
};

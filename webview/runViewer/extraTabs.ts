// Tabs and summary sections that only some runs have (an architecture's own views), registered here so the viewer
// shows them when the run's events call for them: one line per view.
import type { RunProjection } from '../../src/core/trace/projections/runProjection.js';
import type { RunViewerUiState } from '../../src/protocol/webview.js';
import { FloorPlanTab } from '../../src/architectures/llamar/view/floorPlanTab.js';
import { householdSummary } from '../../src/architectures/llamar/view/summarySection.js';
import { StepsTab } from '../../src/architectures/llamar/view/stepsTab.js';
import { ReachZonesTab } from './reachZonesTab.js';
import '../../src/architectures/llamar/view/household.css';
import { PerceptionTab } from './perception/perceptionTab.js';
import './perception/perception.css';
import { DetectorTab, PosesTab } from '../../src/architectures/trajgen/view/trajgenTabs.js';
import { DetectionsTab } from '../../src/architectures/trajgen/view/detectionsTab.js';
import { PathsTab } from '../../src/architectures/trajgen/view/pathsTab.js';
import '../../src/architectures/trajgen/view/paths.css';

export interface ExtraTab {
  /** One of RunViewerUiState's tab ids (src/protocol/webview.ts), so the panel can restore it. */
  id: NonNullable<RunViewerUiState['tab']>;
  label: string;
  root: HTMLElement;
  /** Whether the run has what the tab shows (its header is hidden otherwise). */
  applies(proj: RunProjection): boolean;
  update(proj: RunProjection): void;
}

export interface ExtraViews {
  tabs: ExtraTab[];
  /** Sections appended to the Summary tab. */
  summaries(proj: RunProjection): HTMLElement[];
  floorPlan: FloorPlanTab;
  steps: StepsTab;
  perception: PerceptionTab;
}

export function createExtraViews(selectTurn: (turn: number) => void): ExtraViews {
  const floorPlan = new FloorPlanTab(selectTurn);
  const steps = new StepsTab(selectTurn);
  const perception = new PerceptionTab(selectTurn);
  const reach = new ReachZonesTab();
  const household = (p: RunProjection) => p.household.active;
  const poses = new PosesTab(selectTurn);
  const detector = new DetectorTab(selectTurn);
  const paths = new PathsTab(selectTurn);
  const detections = new DetectionsTab(selectTurn);
  return {
    tabs: [
      { id: 'floorplan', label: 'Floor plan', root: floorPlan.root, applies: household, update: (p) => floorPlan.update(p.household.result()) },
      { id: 'steps', label: 'Steps', root: steps.root, applies: household, update: (p) => steps.update(p.household.result()) },
      { id: 'perception', label: 'Perception', root: perception.root, applies: (p) => p.perception.active, update: (p) => perception.update(p.perception.result()) },
      { id: 'poses', label: 'Poses', root: poses.root, applies: (p) => p.trajgen.poses().segments.length > 0, update: (p) => poses.update(p.trajgen.poses()) },
      { id: 'detector', label: 'Detector', root: detector.root, applies: (p) => p.trajgen.detections().length > 0, update: (p) => detector.update(p.trajgen.detections()) },
      { id: 'reach', label: 'Reach', root: reach.root, applies: (p) => p.reach.active, update: (p) => reach.update(p.reach.result()) },
      { id: 'paths', label: 'Paths', root: paths.root, applies: (p) => p.trajgenPaths.steps.length > 0, update: (p) => paths.update(p.trajgenPaths.result(), p.trajgenPaths.version) },
      { id: 'detections', label: 'Detections', root: detections.root, applies: (p) => p.trajgenPaths.detections.length > 0, update: (p) => detections.update(p.trajgenPaths.result(), p.trajgenPaths.version) },
    ],
    summaries: (p) => [householdSummary(p)].filter((x): x is HTMLElement => x !== undefined),
    floorPlan,
    steps,
    perception,
  };
}

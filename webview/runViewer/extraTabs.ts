// Tabs and summary sections that only some runs have, shown when the run's events call for them: the viewer's own
// (perception mode's estimate, multi-arm reach zones) and each architecture's, which the view registry lists
// (src/architectures/views.ts). The viewer knows architectures only through that list and these types.
import { ARCHITECTURE_VIEWS, type ArchitectureInspectors } from '../../src/architectures/views.js';
import type { ProjectionKind, RunProjection } from '../../src/core/trace/projections/runProjection.js';
import type { RunViewerUiState, ViewEvent } from '../../src/protocol/webview.js';
import { PerceptionTab } from './perception/perceptionTab.js';
import './perception/perception.css';
import { ReachZonesTab } from './reachZonesTab.js';

export type TabId = NonNullable<RunViewerUiState['tab']>;

export interface ExtraTab {
  /** One of RunViewerUiState's tab ids (src/protocol/webview.ts), so the panel can restore it. */
  id: TabId;
  label: string;
  root: HTMLElement;
  /** Whether the run has what the tab shows (its header is hidden otherwise). */
  applies(proj: RunProjection): boolean;
  /** Redraws the tab while it is in view. */
  update(proj: RunProjection): void;
  /** A tab that keeps its own copy of the run's events gets them as they arrive. */
  reset?(events: readonly ViewEvent[]): void;
  append?(events: readonly ViewEvent[]): void;
  /** Selected and left, for a tab that draws on its own schedule. */
  show?(): void;
  hide?(): void;
}

/** What the viewer offers an architecture's views. */
export interface ViewHost {
  selectTurn(turn: number): void;
  hoverTurn(turn: number | undefined): void;
}

/** One architecture's part of the run viewer (src/architectures/<id>/view/index.ts). */
export interface ArchitectureView {
  /** The architecture's id in the registry. */
  id: string;
  /** Its projections, fed with the run's events beside the viewer's own (views read them with RunProjection.of). */
  projections: readonly ProjectionKind[];
  create(host: ViewHost): ArchitectureViewParts;
}

export interface ArchitectureViewParts {
  tabs: ExtraTab[];
  /** Sections appended to the Summary tab. */
  summaries?(proj: RunProjection): HTMLElement[];
  /** Tabs of the viewer this run has no use for (a symbolic household has no motion to plot or replay). */
  hides?(proj: RunProjection): readonly TabId[];
  /** What the test hook may read of the views (webview/runViewer/debugHook.ts). */
  inspect?: Partial<ArchitectureInspectors>;
}

export interface ExtraViews {
  tabs: ExtraTab[];
  /** Sections appended to the Summary tab. */
  summaries(proj: RunProjection): HTMLElement[];
  /** The viewer's tabs some view says this run has no use for. */
  hidden(proj: RunProjection): Set<TabId>;
  perception: PerceptionTab;
  inspect: Partial<ArchitectureInspectors>;
}

/** Every architecture's projections, for the viewer's RunProjection. */
export const ARCHITECTURE_PROJECTIONS: readonly ProjectionKind[] = ARCHITECTURE_VIEWS.flatMap((v) => v.projections);

export function createExtraViews(host: ViewHost): ExtraViews {
  const perception = new PerceptionTab(host.selectTurn);
  const reach = new ReachZonesTab();
  const parts = ARCHITECTURE_VIEWS.map((v) => v.create(host));
  return {
    tabs: [
      ...parts.flatMap((p) => p.tabs),
      { id: 'perception', label: 'Perception', root: perception.root, applies: (p) => p.perception.active, update: (p) => perception.update(p.perception.result()) },
      { id: 'reach', label: 'Reach', root: reach.root, applies: (p) => p.reach.active, update: (p) => reach.update(p.reach.result()) },
    ],
    summaries: (p) => parts.flatMap((v) => v.summaries?.(p) ?? []),
    hidden: (p) => new Set(parts.flatMap((v) => v.hides?.(p) ?? [])),
    perception,
    inspect: Object.assign({}, ...parts.map((v) => v.inspect ?? {})) as Partial<ArchitectureInspectors>,
  };
}

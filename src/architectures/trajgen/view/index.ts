// LM Trajectory Generators' part of the run viewer (listed in src/architectures/views.ts): the Poses and Detector
// tabs (generated poses, success-detector verdicts) and the Paths and Detections tabs (generated against executed
// paths, detections), each shown when the run has what it draws.
import type { ArchitectureView } from '../../../../webview/runViewer/extraTabs.js';
import { DetectionsTab } from './detectionsTab.js';
import './paths.css';
import { PathsTab } from './pathsTab.js';
import { DetectorTab, PosesTab } from './trajgenTabs.js';
import { PATHS_PROJECTION } from './trajgenPaths.js';
import { POSES_PROJECTION } from './trajgenViews.js';

export const trajgenView: ArchitectureView = {
  id: 'trajgen',
  projections: [POSES_PROJECTION, PATHS_PROJECTION],
  create(host) {
    const poses = new PosesTab(host.selectTurn);
    const detector = new DetectorTab(host.selectTurn);
    const paths = new PathsTab(host.selectTurn);
    const detections = new DetectionsTab(host.selectTurn);
    return {
      tabs: [
        { id: 'poses', label: 'Poses', root: poses.root, applies: (p) => p.of(POSES_PROJECTION).poses().segments.length > 0, update: (p) => poses.update(p.of(POSES_PROJECTION).poses()) },
        { id: 'detector', label: 'Detector', root: detector.root, applies: (p) => p.of(POSES_PROJECTION).detections().length > 0, update: (p) => detector.update(p.of(POSES_PROJECTION).detections()) },
        { id: 'paths', label: 'Paths', root: paths.root, applies: (p) => p.of(PATHS_PROJECTION).steps.length > 0, update: (p) => paths.update(p.of(PATHS_PROJECTION).result(), p.of(PATHS_PROJECTION).version) },
        { id: 'detections', label: 'Detections', root: detections.root, applies: (p) => p.of(PATHS_PROJECTION).detections.length > 0, update: (p) => detections.update(p.of(PATHS_PROJECTION).result(), p.of(PATHS_PROJECTION).version) },
      ],
    };
  },
};

// Pure projections of trace events into view models (no I/O, no clock); safe to bundle into webviews.
export * from './decimate.js';
export * from './motionScores.js';
export * from './retryDiffs.js';
export * from './runProjection.js';
export * from './runSummary.js';
export * from './scene3d.js';
export * from './stateDiffs.js';
export * from './trajectorySeries.js';
export * from './turns.js';

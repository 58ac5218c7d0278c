// Entry of dist/exporter.js: the run exporters (MCAP with @mcap/core and Foxglove's schemas, ROS 2 CDR, Inspect
// logs) in a bundle of their own, required on the first Export, so activation does not parse them.
export { exportTrace } from '../../core/export/exportTrace.js';

/** argv flag of the live-run child, dist/runWorker.js (kept import-free). */
export const WORKER_FLAG = '--waypoint-run-worker';
/** argv flag of the same bundle when it runs a paired sweep (sweepWorkerMain.ts) instead of one episode. */
export const SWEEP_WORKER_FLAG = '--waypoint-sweep-worker';

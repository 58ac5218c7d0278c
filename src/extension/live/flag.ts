/** argv flag of the live-run child, dist/runWorker.js (kept import-free). */
export const WORKER_FLAG = '--waypoint-run-worker';

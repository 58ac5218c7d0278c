/** argv flag that makes dist/extension.js run as the live-run child instead of an extension (kept import-free). */
export const WORKER_FLAG = '--waypoint-run-worker';

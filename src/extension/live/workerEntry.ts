// Entry of dist/runWorker.js: the child process of a live run (forked by liveRun.ts with WORKER_FLAG) or of a
// paired sweep (sweepRun.ts, SWEEP_WORKER_FLAG). A bundle of its own, so the engine, the simulator and the model
// clients stay out of the extension host's bundle and activation loads only what the editor needs.
import { SWEEP_WORKER_FLAG, WORKER_FLAG } from './flag.js';
import { runSweepWorkerMain } from './sweepWorkerMain.js';
import { runWorkerMain } from './workerMain.js';

if (process.argv.includes(WORKER_FLAG)) void runWorkerMain();
else if (process.argv.includes(SWEEP_WORKER_FLAG)) runSweepWorkerMain();

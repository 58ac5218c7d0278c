// Every `waypoint` command, in the order `waypoint --help` lists them. Adding a command is one file with a
// defineCommand(...) declaration and one line here; its parser and --help come with it.
import { archsCmd } from './archs.js';
import { compareCmd } from './compare.js';
import { debugAdapterCmd } from './debugAdapter.js';
import { demoCmd } from './demo.js';
import { doctorCmd } from './doctor.js';
import { exportCmd } from './export.js';
import { judgeCmd } from './judge.js';
import type { CommandSpec, OptionSpecs } from './options.js';
import { reportCmd } from './report.js';
import { runCmd } from './run.js';
import { runsCmd } from './runs.js';
import { sceneCmd } from './scene.js';
import { serveModelCmd, serveSimCmd } from './serve.js';
import { showCmd } from './show.js';
import { mergeCmd, sweepCmd } from './sweep.js';
import { sweepWorkerCmd } from './sweepWorker.js';
import { tasksCmd } from './tasks.js';

// Each declaration keeps its own option types; the table only needs the common shape.
const all = [demoCmd, runCmd, runsCmd, showCmd, reportCmd, compareCmd, sweepCmd, mergeCmd, judgeCmd, tasksCmd, archsCmd, sceneCmd, exportCmd, doctorCmd, serveModelCmd, serveSimCmd, debugAdapterCmd, sweepWorkerCmd] as const;
export const COMMANDS: readonly CommandSpec<OptionSpecs>[] = all as unknown as readonly CommandSpec<OptionSpecs>[];

// dist/dap.js: the debug adapter the extension starts (a DebugAdapterExecutable over stdio), kept out of the
// extension host so the engine, the simulator and the sandbox never run there.
import { runAdapterOverStdio } from './stdio.js';

runAdapterOverStdio();

// `waypoint debug-adapter`: the Debug Adapter Protocol over stdin/stdout for any DAP client (other editors,
// tests). Same session as dist/dap.js, which the VS Code extension starts.
import { runAdapterOverStdio } from '../dap/stdio.js';
import { defineCommand } from './options.js';

export function debugAdapterCommand(): Promise<number> {
  runAdapterOverStdio();
  // The session owns the process from here; it exits when the client disconnects.
  return new Promise<number>(() => undefined);
}

export const debugAdapterCmd = defineCommand({
  name: 'debug-adapter',
  summary: 'the debugger over the Debug Adapter Protocol on stdin/stdout (docs/debugger.md)',
  options: {},
  exitStatus: 'runs until the client disconnects.',
  run: async () => debugAdapterCommand(),
});

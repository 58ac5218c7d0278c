// `waypoint serve-model` and `waypoint serve-sim`: long-running servers, loopback by default, stopped by SIGINT,
// SIGTERM or SIGHUP (and, when another waypoint process started them, by that process going away).
import { createTabletopSimulator } from '../core/sim/mujoco/index.js';
import { whileCleaningUp } from './lifecycle.js';
import { defineCommand } from './options.js';
import { serveModel } from './serveModel.js';
import { serveSim } from './serveSim.js';

const untilAborted = (signal: AbortSignal) => new Promise<void>((r) => (signal.aborted ? r() : signal.addEventListener('abort', () => r(), { once: true })));

export const serveModelCmd = defineCommand({
  name: 'serve-model',
  summary: 'serve the reference model (a scripted policy, not an LLM) on an OpenAI-compatible endpoint',
  options: {
    port: { type: 'int', min: 0, max: 65535, default: 0, help: 'TCP port; 0 picks a free one' },
    host: { type: 'string', default: '127.0.0.1', help: 'address to bind; anything but loopback is reachable from other machines (no authentication)' },
  },
  description:
    'The server answers per role from the x-waypoint-* request headers (architecture, role, agent). `waypoint run` sends them to an endpoint only after it has said it is this server (the x-waypoint-model header on GET /v1/models), so `--model reference` and `--model openai:reference` with its base URL both work, and a real model never receives them.',
  examples: ['waypoint serve-model --port 8088    # then: waypoint run --model reference --base-url http://127.0.0.1:8088/v1'],
  exitStatus: '0 after SIGINT/SIGTERM/SIGHUP, 2 bad input.',
  run: ({ values }) =>
    whileCleaningUp(async (signal) => {
      const server = await serveModel({ port: values.port, host: values.host }, (line) => process.stdout.write(line + '\n'));
      await untilAborted(signal);
      await server.close();
      return 0;
    }),
});

export const serveSimCmd = defineCommand({
  name: 'serve-sim',
  summary: 'serve the embedded simulator over the simulator protocol (JSON-RPC on stdio, or WebSocket with --ws)',
  options: {
    ws: { type: 'boolean', help: 'serve on a WebSocket port instead of stdin/stdout' },
    port: { type: 'int', min: 0, max: 65535, default: 8765, help: 'WebSocket port (with --ws); 0 picks a free one' },
    host: { type: 'string', default: '127.0.0.1', help: 'WebSocket address to bind (with --ws)' },
  },
  exitStatus: '0 when the client closes (stdio) or after SIGINT/SIGTERM/SIGHUP (ws), 2 bad input.',
  run: async ({ values }) => {
    const log = (line: string) => process.stderr.write(line + '\n');
    // On stdio a signal simply ends the process (the client sees the pipe close); on a port, close it first.
    if (!values.ws) {
      await serveSim({ transport: 'stdio' }, () => createTabletopSimulator(), log);
      return 0;
    }
    return whileCleaningUp(async (signal) => {
      await serveSim({ transport: 'ws', port: values.port, host: values.host }, () => createTabletopSimulator(), log, { signal });
      return 0;
    });
  },
});

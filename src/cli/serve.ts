// `waypoint serve-model` and `waypoint serve-sim`: long-running servers, loopback by default, stopped by SIGINT/SIGTERM.
import { serveModel } from './serveModel.js';
import { serveSim } from './serveSim.js';
import { createTabletopSimulator } from '../core/sim/mujoco/index.js';

function untilSignal(): Promise<void> {
  return new Promise((resolveDone) => {
    const done = () => resolveDone();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

export async function serveModelCommand(a: { port?: string; host?: string }): Promise<number> {
  const server = await serveModel({ port: a.port === undefined ? 0 : Number(a.port), host: a.host }, (line) => process.stdout.write(line + '\n'));
  await untilSignal();
  await server.close();
  return 0;
}

export async function serveSimCommand(a: { ws?: boolean; port?: string; host?: string }): Promise<number> {
  const log = (line: string) => process.stderr.write(line + '\n');
  await serveSim({ transport: a.ws ? 'ws' : 'stdio', port: a.port === undefined ? undefined : Number(a.port), host: a.host }, () => createTabletopSimulator(), log);
  return 0;
}

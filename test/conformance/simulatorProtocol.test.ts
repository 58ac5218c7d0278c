// Runs the conformance suite against every server Waypoint ships or documents: the TS server around the test
// fake (in-process, stdio via serveSim, WebSocket), the Python SDK's example (stdio, WebSocket) and, once it
// exists, the embedded MuJoCo simulator in-process.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { after, before, describe, it } from 'node:test';
import { createInProcessTransportPair, RemoteSimulator } from '../../src/core/sim/remote/index.js';
import { listenWebSocket, serveSimulator, type WebSocketSimServer } from '../../src/core/sim/serve/index.js';
import type { Simulator } from '../../src/core/sim/simulator.js';
import { FakeTabletop } from './fakeSimulator.js';
import { conformanceSuite, scriptedPickAndPlace } from './suite.js';
import { skipWithout } from '../helpers/prereqs.js';

const PY_EXAMPLE = 'bridges/python/examples/toy_tabletop.py';
const noPython = skipWithout('python3');

// The stdio fake is bundled once so each connection starts plain node (~50 ms) instead of tsx (~700 ms).
let fakeStdio = 'stdio:node --import tsx test/conformance/fixtures/fakeSimServer.ts';
before(async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'waypoint-conformance-')), 'fakeSimServer.mjs');
  await build({
    entryPoints: ['test/conformance/fixtures/fakeSimServer.ts'],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    external: ['bufferutil', 'utf-8-validate'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  fakeStdio = `stdio:node ${out}`;
});

async function inProcess(sim: Simulator, snapshots: 'id' | 'blob' = 'id'): Promise<RemoteSimulator> {
  const [client, server] = createInProcessTransportPair();
  serveSimulator(sim, server, { snapshots });
  return RemoteSimulator.over(client);
}

conformanceSuite({ label: 'fake, in-process', connect: () => inProcess(new FakeTabletop()) });
conformanceSuite({ label: 'fake, in-process, blob snapshots', connect: () => inProcess(new FakeTabletop(), 'blob') });
conformanceSuite({ label: 'fake, stdio (serveSim)', connect: () => RemoteSimulator.connect(fakeStdio) });

let wsServer: WebSocketSimServer | undefined;
before(async () => {
  wsServer = await listenWebSocket(async () => new FakeTabletop());
});
after(async () => {
  await wsServer?.close();
});
conformanceSuite({ label: 'fake, WebSocket', connect: () => RemoteSimulator.connect(wsServer!.url) });

conformanceSuite({ label: 'Python example, stdio', connect: () => RemoteSimulator.connect(`stdio:python3 ${PY_EXAMPLE}`), skip: noPython });

/** Starts the Python example as a WebSocket server on a free port; resolves once it prints its URL. */
function startPythonWs(): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [PY_EXAMPLE, '--ws', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (d: string) => {
      err += d;
      const m = /serving on (ws:\/\/\S+)/.exec(err);
      if (m) resolve({ url: m[1]!, child });
    });
    child.on('exit', (code) => reject(new Error(`python WebSocket server exited with ${code}: ${err}`)));
  });
}
let pyWs: { url: string; child: ChildProcess } | undefined;
before(async () => {
  if (!noPython) pyWs = await startPythonWs();
});
after(() => {
  pyWs?.child.kill('SIGTERM');
});
conformanceSuite({ label: 'Python example, WebSocket', connect: () => RemoteSimulator.connect(pyWs!.url), skip: noPython });

// The embedded MuJoCo simulator joins the suite as soon as its factory exists.
const MUJOCO_INDEX = 'src/core/sim/mujoco/index.ts';
if (existsSync(MUJOCO_INDEX)) {
  conformanceSuite({
    label: 'embedded MuJoCo, in-process',
    connect: async () => {
      const mod = (await import('../../src/core/sim/mujoco/index.js' as string)) as { createTabletopSimulator: () => Promise<Simulator> | Simulator };
      return inProcess(await mod.createTabletopSimulator());
    },
  });
}

// Your own simulator: WAYPOINT_CONFORMANCE_SIM="stdio:python3 my_sim.py" node scripts/test.mjs simulatorProtocol
const USER_SIM = process.env.WAYPOINT_CONFORMANCE_SIM;
if (USER_SIM) conformanceSuite({ label: USER_SIM, connect: () => RemoteSimulator.connect(USER_SIM) });

describe('scripted pick-and-place over the protocol', () => {
  for (const [label, connect, skip] of [
    ['fake, in-process', () => inProcess(new FakeTabletop()), false],
    ['Python example, stdio', () => RemoteSimulator.connect(`stdio:python3 ${PY_EXAMPLE}`), noPython],
  ] as const) {
    it(`succeeds on ${label} for three seeds`, { skip }, async () => {
      const sim = await connect();
      try {
        for (const seed of [1, 2, 3]) {
          const r = await scriptedPickAndPlace(sim, seed);
          assert.equal(r.success, true, r.detail);
        }
      } finally {
        await sim.close();
      }
    });
  }

});

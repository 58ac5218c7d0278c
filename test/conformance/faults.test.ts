// Servers that die, hang or write garbage: every pending call must reject with one clear line (never hang, never
// an unhandled rejection), and later calls must fail fast.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { WebSocketServer } from 'ws';
import { RemoteSimulator } from '../../src/core/sim/remote/index.js';

const faulty = (mode: string) => `stdio:node test/conformance/fixtures/faultyServer.mjs ${mode}`;

describe('stdio simulator faults', () => {
  it('a server that dies mid-call rejects the call with the exit status and its last stderr line', async () => {
    const sim = await RemoteSimulator.connect(faulty('die'));
    await assert.rejects(
      sim.call('execute_trajectory', [[0, 0, 0.2], 0]),
      (e: Error) => {
        assert.match(e.message, /^simulator 'faulty-die' disconnected during act\(execute_trajectory\): exited with code 3; stderr: Fatal Python error: Segmentation fault/);
        return true;
      },
    );
    assert.equal(sim.disconnected, true);
    await assert.rejects(sim.observe(), /simulator 'faulty-die' is disconnected \(exited with code 3.*\); cannot observe/);
    await sim.close();
  });

  it('a server that never answers makes the call reject after the configured timeout', async () => {
    const sim = await RemoteSimulator.connect(faulty('silent'), { timeoutSecs: 0.2, methodTimeoutSecs: { initialize: 30 } });
    await assert.rejects(sim.reset('pick_place', 0), /^Error: simulator 'faulty-silent' did not answer reset\(pick_place\) within 0\.2 s$/);
    // The connection itself is still up: the next call times out the same way instead of hanging.
    await assert.rejects(sim.call('open_gripper', []), /did not answer act\(open_gripper\) within 0\.2 s/);
    await sim.close();
  });

  it('a line that is not JSON rejects the pending call and ends the connection', async () => {
    const sim = await RemoteSimulator.connect(faulty('garbage'));
    await assert.rejects(sim.observe(), /^Error: simulator 'faulty-garbage' sent malformed JSON-RPC during observe: not JSON: 'Loading physics plugin\.\.\. done'$/);
    await assert.rejects(sim.check(), /is disconnected \(it sent malformed JSON-RPC: not JSON: .*\); cannot check/);
    await sim.close();
  });

  it('a result of the wrong shape rejects that call naming the field', async () => {
    const sim = await RemoteSimulator.connect(faulty('badresult'));
    await assert.rejects(sim.observe(), /^Error: simulator 'faulty-badresult' sent an invalid observe result: state: /);
    await sim.close();
  });

  it('a server that exits before initialize makes connect reject with its stderr', async () => {
    await assert.rejects(
      RemoteSimulator.connect(faulty('noinit')),
      /disconnected during initialize: exited with code 2; stderr: ImportError: No module named rlbench/,
    );
  });

  it('a command that does not exist makes connect reject with the cause', async () => {
    await assert.rejects(RemoteSimulator.connect('stdio:/nonexistent/waypoint-sim --x'), /could not start '\/nonexistent\/waypoint-sim': .*ENOENT/);
  });

  it('an unknown spec is refused with the accepted forms', async () => {
    await assert.rejects(RemoteSimulator.connect('tcp://localhost:1'), /unknown simulator spec 'tcp:\/\/localhost:1': expected "stdio:<command line>" or "ws:\/\/host:port"/);
  });
});

describe('WebSocket simulator faults', () => {
  /** A ws server that answers initialize and, on `act`, drops the connection without a close frame. */
  async function droppingServer(): Promise<{ url: string; close: () => Promise<void> }> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((r) => wss.once('listening', () => r()));
    wss.on('connection', (socket) => {
      socket.on('message', (data) => {
        const req = JSON.parse(String(data)) as { id: number; method: string };
        if (req.method === 'initialize') {
          socket.send(JSON.stringify({ jsonrpc: '2.0', id: req.id, result: { protocolVersion: 1, simulator: { name: 'dropper' }, robots: [], tasks: [], apis: [], codeLanguages: [], observationKinds: ['text', 'state'], snapshots: 'none', streamsTrajectory: false } }));
        } else if (req.method === 'act') {
          socket.terminate();
        }
      });
    });
    return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, close: () => new Promise((r) => wss.close(() => r())) };
  }

  it('a server that drops the connection mid-call rejects the call', async () => {
    const server = await droppingServer();
    try {
      const sim = await RemoteSimulator.connect(server.url);
      await assert.rejects(sim.call('open_gripper', []), /^Error: simulator 'dropper' disconnected during act\(open_gripper\): connection closed \(code 1006\)$/);
      await sim.close();
    } finally {
      await server.close();
    }
  });

  it('nothing listening makes connect reject with the address and the cause', async () => {
    const server = await droppingServer();
    const url = server.url;
    await server.close();
    await assert.rejects(RemoteSimulator.connect(url), new RegExp(`^Error: cannot connect to simulator at ${url.replace(/[./]/g, '\\$&')}: .*ECONNREFUSED`));
  });
});

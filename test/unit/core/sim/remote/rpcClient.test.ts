// The client against a hand-driven server end: notifications, late answers, error mapping, odd messages.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { SimErrorCode, type LogNotification } from '../../../../../src/protocol/simulator.js';
import { createInProcessTransportPair, RemoteSimulator, SimulatorRpcError, type MessageTransport } from '../../../../../src/core/sim/remote/index.js';

const CAPS = { protocolVersion: 1, simulator: { name: 'manual', version: '0' }, robots: [], tasks: [], apis: [], codeLanguages: [], observationKinds: ['text', 'state'], snapshots: 'id', streamsTrajectory: true };
const STATE = { objects: [], ee: { pos: [0, 0, 0.3], yawRad: 0 }, gripperOpen: true, grasped: null };

interface Req { id: number; method: string; params: unknown }

/** A server end whose requests the test answers by hand. */
function manualServer(server: MessageTransport) {
  const waiting: ((r: Req) => void)[] = [];
  const queued: Req[] = [];
  const sent: unknown[] = [];
  server.onMessage((raw) => {
    const m = JSON.parse(raw) as Req;
    if (m.method === undefined) return void sent.push(m);
    if (m.method === 'initialize') return server.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: CAPS }));
    const w = waiting.shift();
    if (w) w(m);
    else queued.push(m);
  });
  return {
    sent,
    next: (): Promise<Req> => (queued.length ? Promise.resolve(queued.shift()!) : new Promise((r) => waiting.push(r))),
    send: (m: object) => server.send(JSON.stringify({ jsonrpc: '2.0', ...m })),
    raw: (s: string) => server.send(s),
  };
}

async function setup(options: Parameters<typeof RemoteSimulator.over>[1] = {}) {
  const [client, server] = createInProcessTransportPair();
  const srv = manualServer(server);
  const sim = await RemoteSimulator.over(client, options);
  return { sim, srv };
}

it('log and trajectory notifications reach their listeners; invalid or unknown ones become warnings', async () => {
  const logs: LogNotification[] = [];
  const traj: number[] = [];
  const { sim, srv } = await setup({ onLog: (l) => logs.push(l), onTrajectory: (hz, s) => traj.push(hz, s.length) });
  const p = sim.observe();
  const req = await srv.next();
  srv.send({ method: 'log', params: { level: 'info', message: 'planning' } });
  srv.send({ method: 'trajectory', params: { rateHz: 50, samples: [{ tSecs: 0, qpos: [0], ee: [0, 0, 0, 0], gripperWidth: 0.08, grasped: null }] } });
  srv.send({ method: 'log', params: { level: 'loud', message: 'x' } });
  srv.send({ method: 'teleported', params: {} });
  srv.send({ id: req.id, result: { text: 't', state: STATE, simTimeSecs: 1.5 } });
  assert.equal((await p).text, 't');
  assert.equal(sim.simTimeSecs(), 1.5);
  assert.deepEqual(traj, [50, 1]);
  assert.equal(logs[0]!.message, 'planning');
  assert.match(logs[1]!.message, /invalid 'log' notification; ignored/);
  assert.match(logs[2]!.message, /unknown notification 'teleported'; ignored/);
});

it('an error answer becomes a SimulatorRpcError with code, data and the call named', async () => {
  const { sim, srv } = await setup();
  const p = sim.reset('nope', 1);
  const req = await srv.next();
  assert.deepEqual(req.params, { task: 'nope', seed: 1 });
  srv.send({ id: req.id, error: { code: SimErrorCode.UNKNOWN_TASK, message: "unknown task 'nope' (known: a)", data: { task: 'nope', known: ['a'] } } });
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof SimulatorRpcError);
    assert.equal(e.message, "simulator 'manual' reset(nope) failed: unknown task 'nope' (known: a)");
    assert.equal(e.code, SimErrorCode.UNKNOWN_TASK);
    assert.deepEqual(e.data?.known, ['a']);
    return true;
  });
});

it('an answer after the timeout is ignored with a warning, and the next call still works', async () => {
  const logs: string[] = [];
  const { sim, srv } = await setup({ timeoutSecs: 0.05, onLog: (l) => logs.push(l.message) });
  const late = sim.check();
  const req = await srv.next();
  await assert.rejects(late, /did not answer check within 0\.05 s/);
  srv.send({ id: req.id, result: { success: true, detail: 'late' } });
  const p = sim.check();
  const req2 = await srv.next();
  srv.send({ id: req2.id, result: { success: false, detail: 'on time' } });
  assert.deepEqual(await p, { success: false, detail: 'on time' });
  assert.match(logs.join('\n'), /answered request \d+ after its timeout; answer ignored/);
});

it('answers may arrive out of order and are matched by id', async () => {
  const { sim, srv } = await setup();
  const a = sim.check();
  const b = sim.geometry();
  const ra = await srv.next();
  const rb = await srv.next();
  srv.send({ id: rb.id, result: { bodies: ['b'], geoms: [] } });
  srv.send({ id: ra.id, result: { success: true, detail: 'a' } });
  assert.deepEqual(await b, { bodies: ['b'], geoms: [] });
  assert.deepEqual(await a, { success: true, detail: 'a' });
});

it('a request from the server is refused with METHOD_NOT_FOUND; an error without id breaks the connection', async () => {
  const { sim, srv } = await setup();
  srv.send({ id: 99, method: 'ask_user', params: {} });
  const p = sim.observe();
  await srv.next();
  assert.equal((srv.sent[0] as { error: { code: number } }).error.code, SimErrorCode.METHOD_NOT_FOUND);
  srv.send({ id: null, error: { code: SimErrorCode.PARSE_ERROR, message: 'parse error' } });
  await assert.rejects(p, /sent malformed JSON-RPC during observe: error without a request id \(parse error\)/);
  assert.equal(sim.disconnected, true);
});

it('restore refuses a snapshot made by another simulator; a newer protocol version is refused at connect', async () => {
  const { sim } = await setup();
  await assert.rejects(sim.restore({ kind: 'mujoco', data: {} }), /simulator 'manual' cannot restore a snapshot of kind 'mujoco'/);
  const [client, server] = createInProcessTransportPair();
  server.onMessage((raw) => {
    const m = JSON.parse(raw) as Req;
    server.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { ...CAPS, protocolVersion: 2 } }));
  });
  await assert.rejects(RemoteSimulator.over(client), /simulator 'manual' speaks protocol version 2; Waypoint speaks 1/);
});

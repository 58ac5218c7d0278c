// The server side, driven with raw JSON-RPC lines: envelope errors, ordering, crashes, invalid results, closing.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { SimErrorCode } from '../../../../../src/protocol/simulator.js';
import { createInProcessTransportPair, RemoteSimulator } from '../../../../../src/core/sim/remote/index.js';
import { serveSimulator, type ServeOptions } from '../../../../../src/core/sim/serve/index.js';
import type { Simulator } from '../../../../../src/core/sim/simulator.js';
import { FakeTabletop } from '../../../../conformance/fakeSimulator.js';

/** A raw client: send lines, await the answer with a given id (or the next id-less one). */
function rawClient(sim: Simulator, options?: ServeOptions) {
  const [client, server] = createInProcessTransportPair();
  const srv = serveSimulator(sim, server, options);
  const answers: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  client.onMessage((raw) => {
    answers.push(JSON.parse(raw) as Record<string, unknown>);
    waiters.splice(0).forEach((w) => w());
  });
  const answer = async (id: unknown): Promise<Record<string, unknown>> => {
    for (;;) {
      const i = answers.findIndex((a) => a.id === id);
      if (i >= 0) return answers.splice(i, 1)[0]!;
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  const call = async (id: number, method: string, params?: unknown) => {
    client.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return answer(id);
  };
  return { client, srv, answers, answer, call, raw: (s: string) => client.send(s) };
}

const code = (a: Record<string, unknown>) => (a.error as { code: number } | undefined)?.code;

it('answers parse errors and invalid requests with id null or the request id, and refuses batches', async () => {
  const c = rawClient(new FakeTabletop());
  c.raw('{not json');
  assert.equal(code(await c.answer(null)), SimErrorCode.PARSE_ERROR);
  c.raw(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'observe' }]));
  const batch = await c.answer(null);
  assert.equal(code(batch), SimErrorCode.INVALID_REQUEST);
  assert.match((batch.error as { message: string }).message, /batches are not supported/);
  c.raw(JSON.stringify({ jsonrpc: '1.0', id: 5, method: 'observe' }));
  assert.equal(code(await c.answer(5)), SimErrorCode.INVALID_REQUEST);
  c.raw(JSON.stringify({ jsonrpc: '2.0', method: 'observe' })); // a notification: no answer
  assert.equal(code(await c.call(6, 'observe')), SimErrorCode.NO_EPISODE);
  assert.equal(c.answers.length, 0);
});

it('handles requests one at a time in arrival order', async () => {
  const c = rawClient(new FakeTabletop());
  const order: number[] = [];
  const ids = [1, 2, 3, 4];
  c.raw(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'reset', params: { task: 'pick_place', seed: 0 } }));
  c.raw(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'act', params: { fn: 'execute_trajectory', args: [[0.1, 0.1, 0.2], 0] } }));
  c.raw(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'act', params: { fn: 'open_gripper', args: [] } }));
  c.raw(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'observe' }));
  for (const id of ids) await c.answer(id).then(() => order.push(id));
  const obs = (await c.call(5, 'observe')).result as { state: { ee: { pos: number[] } } };
  assert.deepEqual(obs.state.ee.pos, [0.1, 0.1, 0.2]);
  assert.deepEqual(order, ids);
});

it('a simulator that throws answers SIMULATOR_CRASHED and keeps serving', async () => {
  const sim = new FakeTabletop();
  sim.check = async () => {
    throw new Error('physics diverged (qacc NaN)');
  };
  const c = rawClient(sim);
  await c.call(1, 'reset', { task: 'pick_place', seed: 0 });
  const a = await c.call(2, 'check');
  assert.equal(code(a), SimErrorCode.SIMULATOR_CRASHED);
  assert.equal((a.error as { message: string }).message, 'check raised: physics diverged (qacc NaN)');
  assert.ok((await c.call(3, 'observe')).result);
});

it('a simulator that returns an invalid result answers INTERNAL_ERROR naming the field', async () => {
  const sim = new FakeTabletop();
  sim.check = async () => ({ success: 'yes' }) as never;
  const c = rawClient(sim);
  await c.call(1, 'reset', { task: 'pick_place', seed: 0 });
  const a = await c.call(2, 'check');
  assert.equal(code(a), SimErrorCode.INTERNAL_ERROR);
  assert.match((a.error as { message: string }).message, /produced an invalid check result: success: /);
});

it('announced API sets restrict reset.api; snapshots can be turned off; unknown snapshot ids name the param', async () => {
  const c = rawClient(new FakeTabletop(), { apis: [{ id: 'malmm', functions: [] }], snapshots: 'none' });
  const api = await c.call(1, 'reset', { task: 'pick_place', seed: 0, api: 'roco' });
  assert.equal(code(api), SimErrorCode.INVALID_PARAMS);
  assert.deepEqual((api.error as { data: unknown }).data, { param: 'api' });
  await c.call(2, 'reset', { task: 'pick_place', seed: 0, api: 'malmm' });
  assert.equal(code(await c.call(3, 'snapshot')), SimErrorCode.SNAPSHOT_UNSUPPORTED);
  const d = rawClient(new FakeTabletop());
  await d.call(1, 'reset', { task: 'pick_place', seed: 0 });
  const r = await d.call(2, 'restore', { kind: 'fake-tabletop', id: 'snap-99' });
  assert.equal(code(r), SimErrorCode.INVALID_PARAMS);
  assert.deepEqual((r.error as { data: unknown }).data, { param: 'id' });
  const both = await d.call(3, 'restore', { kind: 'k', id: 'a', blob: 1 });
  assert.equal(code(both), SimErrorCode.INVALID_PARAMS);
});

it('close answers, closes the simulator and the connection; a client that leaves also closes it', async () => {
  const sim = new FakeTabletop();
  const c = rawClient(sim);
  assert.deepEqual((await c.call(1, 'close')).result, {});
  assert.equal(sim.closed, true);
  assert.match(await c.srv.done, /closed/);

  const sim2 = new FakeTabletop();
  const [client, server] = createInProcessTransportPair();
  const srv = serveSimulator(sim2, server);
  const remote = await RemoteSimulator.over(client);
  await client.close();
  await srv.done;
  assert.equal(sim2.closed, true);
  assert.equal(remote.disconnected, true);
});

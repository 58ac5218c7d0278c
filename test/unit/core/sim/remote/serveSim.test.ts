// The CLI entry over WebSocket: binds loopback, one simulator per connection, stops on abort.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { serveSim } from '../../../../../src/cli/serveSim.js';
import { RemoteSimulator } from '../../../../../src/core/sim/remote/index.js';
import { FakeTabletop } from '../../../../conformance/fakeSimulator.js';

it('serveSim ws serves a fresh simulator per connection on 127.0.0.1 until aborted', async () => {
  const lines: string[] = [];
  const made: FakeTabletop[] = [];
  const abort = new AbortController();
  let announce!: (url: string) => void;
  const urlP = new Promise<string>((r) => (announce = r));
  const served = serveSim(
    { transport: 'ws', port: 0 },
    async () => {
      const s = new FakeTabletop();
      made.push(s);
      return s;
    },
    (line) => {
      lines.push(line);
      const m = /on (ws:\/\/\S+)/.exec(line);
      if (m) announce(m[1]!);
    },
    { signal: abort.signal },
  );
  const url = await urlP;
  assert.match(url, /^ws:\/\/127\.0\.0\.1:\d+$/);
  const a = await RemoteSimulator.connect(url);
  const b = await RemoteSimulator.connect(url);
  await a.reset('pick_place', 1);
  await a.call('execute_trajectory', [[0, 0, 0.1], 0]);
  await b.reset('pick_place', 1);
  assert.deepEqual((await b.observe()).state.ee.pos, [0, 0, 0.3], 'b has its own world');
  await a.close();
  abort.abort();
  await served;
  assert.equal(made.length, 2);
  assert.ok(made.every((s) => s.closed), 'every simulator closed');
  assert.equal(b.disconnected, true);
  assert.equal(lines.at(-1), 'stopped');
});

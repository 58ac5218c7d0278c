// Round-trip latency of one `act` (a no-op API call, so the number is protocol overhead) over each transport.
// Prints one line. Run: node --import tsx test/bench/simProtocol.bench.ts [calls]
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInProcessTransportPair, RemoteSimulator } from '../../src/core/sim/remote/index.js';
import { listenWebSocket, serveSimulator } from '../../src/core/sim/serve/index.js';
import { FakeTabletop } from '../conformance/fakeSimulator.js';

const N = Number(process.argv[2] ?? 2000);
const PY = 'bridges/python/examples/toy_tabletop.py';

async function measure(sim: RemoteSimulator): Promise<string> {
  await sim.reset('pick_place', 0);
  for (let i = 0; i < 200; i++) await sim.call('task_completed', []);
  const us: number[] = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await sim.call('task_completed', []);
    us.push((performance.now() - t0) * 1000);
  }
  await sim.close();
  us.sort((a, b) => a - b);
  const q = (p: number) => Math.round(us[Math.min(us.length - 1, Math.floor(p * us.length))]!);
  return `median ${q(0.5)} us, p95 ${q(0.95)} us`;
}

const results: string[] = [];
{
  const [c, s] = createInProcessTransportPair();
  serveSimulator(new FakeTabletop(), s);
  results.push(`in-process ${await measure(await RemoteSimulator.over(c))}`);
}
results.push(`stdio(node) ${await measure(await RemoteSimulator.connect('stdio:node --import tsx test/conformance/fixtures/fakeSimServer.ts'))}`);
{
  const ws = await listenWebSocket(async () => new FakeTabletop());
  results.push(`ws(node) ${await measure(await RemoteSimulator.connect(ws.url))}`);
  await ws.close();
}
results.push(`stdio(python) ${await measure(await RemoteSimulator.connect(`stdio:python3 ${PY}`))}`);
{
  const child = spawn('python3', [PY, '--ws', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve) => {
    let err = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (d: string) => {
      err += d;
      const m = /serving on (ws:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]!);
    });
  });
  results.push(`ws(python) ${await measure(await RemoteSimulator.connect(url))}`);
  child.kill('SIGTERM');
}
console.log(`sim protocol act round trip (${N} calls): ${results.join('; ')}`);

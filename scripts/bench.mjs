// npm run bench: runs every benchmark and prints one table of figures with the goal beside each.
// Each benchmark prints its own detailed line(s); this script extracts the headline figure from them.
// A benchmark that is missing or fails shows as such in the table (the table is still printed).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';

const benches = [
  {
    file: 'test/bench/loop.bench.ts',
    rows: [
      { name: 'engine overhead per agent turn', re: /overhead per turn: ([\d.]+) ms/, unit: 'ms', goal: '< 2 ms', ok: (v) => v < 2 },
      { name: 'demo episode wall time after start-up', re: /demo wall time after start-up: ([\d.]+) s/, unit: 's', goal: '< 1 s', ok: (v) => v < 1 },
      { name: 'demo trace size vs schema v1 JSONL', re: /demo trace bytes: \d+ \(was \d+\): ([\d.]+)x smaller/, unit: 'x smaller', goal: '>= 5x', ok: (v) => v >= 5 },
    ],
  },
  {
    file: 'test/bench/sweep.bench.ts',
    rows: [
      { name: 'sweep speed-up once warm, 2 workers / 1 worker', re: /warm ratio ([\d.]+)x/, unit: 'x', goal: '>= 1.7x (idle 2 cores)', ok: (v) => v >= 1.7 },
      { name: 'sweep speed-up, whole 80-episode sweep (cold starts included)', re: /whole sweep ratio ([\d.]+)x/, unit: 'x', goal: '(no goal)', ok: () => true },
      { name: 'sweep episodes/s per core (2 workers)', re: /([\d.]+) episodes\/s per core/, unit: 'episodes/s', goal: '(rate)', ok: () => true },
    ],
  },
  {
    file: 'test/bench/runs.bench.ts',
    rows: [{ name: '`waypoint runs` over 200 runs (process)', re: /waypoint runs (\d+) ms \(goal/, unit: 'ms', goal: '< 1000 ms', ok: (v) => v < 1000 }],
  },
  {
    file: 'test/bench/warmStart.bench.ts',
    rows: [
      { name: 'live run, request to first turn shown, cold', re: /first turn shown[^:]*: cold (\d+) ms/, unit: 'ms', goal: '(no goal)', ok: () => true },
      { name: 'live run, request to first turn shown, warm', re: /first turn shown[^:]*: cold \d+ ms [^)]*\), warm (\d+) ms/, unit: 'ms', goal: '< 500 ms', ok: (v) => v < 500 },
      { name: 'demo episode, warm (request to end)', re: /demo episode [^:]*warm: ([\d.]+) s/, unit: 's', goal: '< 1.5 s', ok: (v) => v < 1.5 },
    ],
  },
  {
    file: 'test/bench/sim.bench.ts',
    rows: [
      { name: 'sim steps/s, 1-arm tabletop (mujoco-js, per CPU second)', re: /1-arm tabletop[^:]*: same file mujoco-js ([\d.]+k) steps\/s/, unit: 'steps/s', goal: '(rate)', ok: () => true },
      { name: 'sim real-time factor, 1-arm tabletop', re: /1-arm tabletop[^:]*: same file mujoco-js [\d.]+k steps\/s \(x(\d+) real time/, unit: 'x', goal: '>= 30x', ok: (v) => v >= 30 },
      { name: 'sim real-time factor, 3-arm tabletop', re: /3-arm tabletop[^:]*: same file mujoco-js [\d.]+k steps\/s \(x(\d+) real time/, unit: 'x', goal: '(no goal)', ok: () => true },
      { name: 'sim ratio mujoco-js/native, 1-arm (same scene file)', re: /ratio \(wasm\/native\): ([\d.]+)/, unit: 'x', goal: '>= 0.8x', ok: (v) => v >= 0.8 },
      { name: 'sim ratio mujoco-js/native, 3-arm (same scene file)', re: /ratio \(wasm\/native\): [\d.]+ \(1-arm; 3-arm ([\d.]+)/, unit: 'x', goal: '>= 0.8x', ok: (v) => v >= 0.8 },
      { name: 'product physics step / native mj_step, 1-arm', re: /product step \/ native mj_step ([\d.]+)/, unit: 'x', goal: '(no goal)', ok: () => true },
    ],
  },
  {
    file: 'test/bench/simProtocol.bench.ts',
    rows: [{ name: 'simulator protocol act round trip, stdio (median)', re: /stdio\(node\) median (\d+) us/, unit: 'us', goal: '(no goal)', ok: () => true }],
  },
  {
    file: 'test/bench/viewer.bench.ts',
    rows: [
      { name: 'run viewer open to first paint, 100k trajectory samples', re: /\[100k\][^\n]*? open to first paint (\d+) ms/, unit: 'ms', goal: '< 500 ms', ok: (v) => v < 500 },
      { name: 'run viewer open to first paint, 1M trajectory samples', re: /\[1M\][^\n]*? open to first paint (\d+) ms/, unit: 'ms', goal: '< 1500 ms', ok: (v) => v < 1500 },
      { name: 'run viewer open to first render (before paint), 100k samples', re: /\[100k\][^\n]*? first render done (\d+) /, unit: 'ms', goal: '(no goal)', ok: () => true },
    ],
  },
  {
    file: 'test/bench/lsp.bench.ts',
    rows: [
      { name: 'LSP diagnostics over stdio, 2000-line prompt: didOpen to publishDiagnostics (median)', re: /didOpen → publishDiagnostics median ([\d.]+) /, unit: 'ms', goal: '< 20 ms', ok: (v) => v < 20 },
      { name: 'LSP diagnostics over stdio, 2000-line prompt: a typed character to publishDiagnostics (median, incl. 60 ms debounce)', re: /didChange → publishDiagnostics median ([\d.]+) /, unit: 'ms', goal: '(no goal)', ok: () => true },
      { name: 'prompt analysis in process (analyzePrompt), 2000 lines, CPU per run', re: /CPU ([\d.]+) ms\/run/, unit: 'ms', goal: '< 20 ms', ok: (v) => v < 20 },
      { name: 'prompt analysis in process (analyzePrompt), 2000 lines, wall median', re: /analyzePrompt alone\): wall min [\d.]+ \/ median ([\d.]+) /, unit: 'ms', goal: '< 20 ms', ok: (v) => v < 20 },
    ],
  },
  {
    file: 'test/e2e/activation.bench.ts',
    rows: [{ name: 'extension activation in code-server', re: /activation: ([\d.]+) ms/, unit: 'ms', goal: '< 100 ms', ok: (v) => v < 100 }],
  },
];

const only = process.argv.slice(2);
const table = [];
for (const b of benches) {
  if (only.length && !only.some((o) => b.file.includes(o))) continue;
  if (!existsSync(b.file)) {
    for (const r of b.rows) table.push([r.name, 'not built yet', r.goal, '-']);
    continue;
  }
  process.stderr.write(`running ${b.file} ...\n`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', b.file], { encoding: 'utf8', timeout: 15 * 60_000 });
  const out = `${res.stdout}\n${res.stderr}`;
  process.stdout.write(res.stdout.replace(/^/gm, `  [${b.file.split('/').pop()}] `).trimEnd() + '\n');
  for (const r of b.rows) {
    const m = r.re.exec(out);
    if (!m) table.push([r.name, res.status === 0 ? 'not reported' : `failed (exit ${res.status})`, r.goal, '-']);
    else table.push([r.name, `${m[1]} ${r.unit}`, r.goal, r.ok(Number(m[1].replace(/k$/, '')) * (m[1].endsWith('k') ? 1000 : 1)) ? 'met' : 'NOT met']);
  }
}
const head = ['benchmark', 'measured', 'goal', ''];
const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => String(row[i]).length)));
const line = (cols) => cols.map((c, i) => String(c).padEnd(widths[i])).join('  ');
console.log('');
console.log(`Waypoint benchmarks · ${cpus().length} CPUs · load average ${loadavg()[0].toFixed(1)} (figures from a loaded machine are pessimistic)`);
console.log(line(head));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of table) console.log(line(row));

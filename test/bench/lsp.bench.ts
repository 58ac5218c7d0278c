// Diagnostics on a 2000-line prompt as the editor gets them: the language server (dist/lsp.js) over stdio, timed
// from sending didOpen (or a one-character didChange) to the publishDiagnostics notification for that version, so
// the figure includes JSON-RPC framing both ways, the server's document sync and analysis, and (for a change) its
// 60 ms debounce. Also a completion request's round trip over the same pipe. Beside it, the analysis alone in this
// process (analyzePrompt: what the server spends of that time), with its CPU time: on a shared machine the wall
// clock includes waiting for a core. Prints one line. Run: node --import tsx test/bench/lsp.bench.ts
import { cpus, loadavg } from 'node:os';
import { CompletionRequest, DidChangeTextDocumentNotification } from 'vscode-languageserver/node';
import { architectureManifests } from '../../src/architectures/manifests.js';
import { analyzePrompt as analyze, completePrompt, hoverPrompt } from '../../src/core/prompt/analyze.js';
import { bigPrompt } from '../fixtures/prompts/bigPrompt.js';
import { LspClient } from '../lsp/lspClient.js';

// The host's part: the analysis knows the architectures it is given, here the built-in ones.
const analyzePrompt: typeof analyze = (text, options) => analyze(text, { architectures: architectureManifests, ...options });

const text = bigPrompt(2000);
const lines = text.split('\n').length - 1;
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const q = (xs: number[], p: number) => sorted(xs)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!.toFixed(2);

// --- over stdio: the server as the editor runs it -------------------------------------------------------------
const client = new LspClient();
const opens: number[] = [];
const changes: number[] = [];
const completions: number[] = [];
let diagnosticsCount = 0;
try {
  await client.initialize(null);
  for (let i = 0; i < 30; i++) {
    const uri = `file:///bench/open-${i}.prompt`;
    const t0 = performance.now();
    const d = await client.open(uri, text);
    // The first few warm the server's JIT, as a session's first files do.
    if (i >= 5) opens.push(performance.now() - t0);
    diagnosticsCount = d.diagnostics.length;
    await client.close(uri);
  }
  const uri = 'file:///bench/typing.prompt';
  await client.open(uri, text);
  // Typing: one character inserted at the end of line 20 per change, each waited for before the next.
  for (let v = 2; v < 2 + 25; v++) {
    const t0 = performance.now();
    const published = client.diagnostics(uri, (p) => p.version === v);
    await client.conn.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: v },
      contentChanges: [{ range: { start: { line: 20, character: 0 }, end: { line: 20, character: 0 } }, text: 'x' }],
    });
    await published;
    changes.push(performance.now() - t0);
  }
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    await client.conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 20, character: 20 } });
    if (i >= 10) completions.push(performance.now() - t0);
  }
} finally {
  await client.stop();
}

// --- in process: the analysis alone ---------------------------------------------------------------------------
const runs = 60;
for (let i = 0; i < 10; i++) analyzePrompt(text); // warm up the JIT
const times: number[] = [];
let last = analyzePrompt(text);
const cpu0 = process.cpuUsage();
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  last = analyzePrompt(text);
  times.push(performance.now() - t0);
}
const cpu = process.cpuUsage(cpu0);
const cpuMsPerRun = (cpu.user + cpu.system) / 1000 / runs;
// Outline and folding are computed on first access (not needed for diagnostics): time them separately.
const outlineTimes: number[] = [];
for (let i = 0; i < 20; i++) {
  const a = analyzePrompt(text);
  const t0 = performance.now();
  void a.symbols;
  void a.folds;
  outlineTimes.push(performance.now() - t0);
}
const pos = { line: 20, character: 20 };
const t1 = performance.now();
for (let i = 0; i < 100; i++) {
  completePrompt(last, pos);
  hoverPrompt(last, pos);
}
const perQuery = (performance.now() - t1) / 200;

console.log(
  `lsp.bench: 2000-line prompt (${lines} lines, ${text.length} chars, ${diagnosticsCount} diagnostics, ${last.ablations.length} ablations). ` +
    `Over stdio (dist/lsp.js): didOpen → publishDiagnostics median ${q(opens, 0.5)} / p95 ${q(opens, 0.95)} ms over ${opens.length}; ` +
    `one-character didChange → publishDiagnostics median ${q(changes, 0.5)} / p95 ${q(changes, 0.95)} ms over ${changes.length} (includes the server's 60 ms debounce); ` +
    `completion round trip median ${q(completions, 0.5)} ms. ` +
    `In process (analyzePrompt alone): wall min ${sorted(times)[0]!.toFixed(2)} / median ${q(times, 0.5)} / p95 ${q(times, 0.95)} ms, CPU ${cpuMsPerRun.toFixed(2)} ms/run over ${runs} runs; ` +
    `outline+folding median ${q(outlineTimes, 0.5)} ms; completion/hover ${perQuery.toFixed(3)} ms each; ` +
    `load ${loadavg()[0].toFixed(1)} on ${cpus().length} CPUs (target: diagnostics over stdio < 20 ms after didOpen)`,
);

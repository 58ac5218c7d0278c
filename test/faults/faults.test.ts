// The fault injection and security suite (`npm run test:faults`): whole episodes through the product path with
// injected faults (model endpoint, role formats, generated code, simulator protocol, fuzzed files, a killed run,
// hostile webview messages). Each case asserts a recorded, labelled failure (or a recovery), no crash, nothing
// written outside `.waypoint/`, no API key in any file, and that the next episode runs normally.
// Needs `npm run build` (the sandbox worker and the CLI run from dist/); rebuilt here when missing or stale.
import './helpers/isolate.js';
import { after, before } from 'node:test';
import { rmSync } from 'node:fs';
import { ROOT } from './helpers/isolate.js';
import { closeSharedSandbox, sandboxForRuns, tally } from './helpers/harness.js';
import { modelFaultCases } from './cases/modelFaults.js';
import { roleFormatCases } from './cases/roleFormat.js';
import { hostileCodeCases } from './cases/hostileCode.js';
import { simulatorFaultCases } from './cases/simulatorFaults.js';
import { fuzzCases } from './cases/fuzz.js';
import { killedRunCases } from './cases/killedRun.js';
import { webviewMessageCases } from './cases/webviewMessages.js';
import { ensureBuilt } from './helpers/cli.js';

before(async () => {
  ensureBuilt();
  // Start Pyodide once for every in-process run.
  await sandboxForRuns().warmUp();
});

after(async () => {
  await closeSharedSandbox();
  rmSync(ROOT, { recursive: true, force: true });
  const line = `fault suite: cases tried: ${tally.tried}, failures recorded: ${tally.recorded}, recovered: ${tally.recovered}, fuzz inputs: ${tally.fuzzInputs}, known bugs (todo): ${tally.knownBugs}, unrecorded: ${tally.unrecorded}, crashes: ${tally.crashes}`;
  process.stdout.write(`\n${line}\n`);
  for (const n of tally.crashNotes) process.stdout.write(`  crash: ${n}\n`);
});

if (!process.env.FAULTS_ONLY || process.env.FAULTS_ONLY === 'model') modelFaultCases();
if (!process.env.FAULTS_ONLY || process.env.FAULTS_ONLY === 'format') roleFormatCases();
if (!process.env.FAULTS_ONLY || process.env.FAULTS_ONLY === 'code') hostileCodeCases();
if (!process.env.FAULTS_ONLY || process.env.FAULTS_ONLY === 'sim') simulatorFaultCases();
if (!process.env.FAULTS_ONLY || process.env.FAULTS_ONLY === 'fuzz') fuzzCases();
if (!process.env.FAULTS_ONLY || process.env.FAULTS_ONLY === 'kill') killedRunCases();
if (!process.env.FAULTS_ONLY || process.env.FAULTS_ONLY === 'webview') webviewMessageCases();

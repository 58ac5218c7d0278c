// What every fault case checks, in one place: a fresh workspace; the run through launchRun (the product path);
// a recorded, labelled failure in its trace; no unhandled error in this process; nothing written outside the
// workspace's `.waypoint/` (the workspace's other files, the temporary HOME and TMPDIR are snapshotted before and
// after); the fake API key in no file; and the next episode in the same process (reference model, stack_blocks)
// succeeds. One Pyodide sandbox is shared by every in-process run to keep the suite fast.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { architectures } from '../../../src/architectures/registry.js';
import { nodeClock, nodeIO } from '../../../src/core/node/nodeHost.js';
import { findPackageRoot } from '../../../src/core/node/packageRoot.js';
import { launchRun, type LaunchDeps, type LaunchOptions, type LaunchResult, type ModelSpec } from '../../../src/core/runs/launch.js';
import { createPyodideSandbox } from '../../../src/core/sandbox/index.js';
import type { CodeSandbox } from '../../../src/core/sandbox/sandbox.js';
import { createTabletopSimulator } from '../../../src/core/sim/mujoco/index.js';
import { readTrace, type TraceWarning } from '../../../src/core/trace/reader.js';
import type { TraceEvent } from '../../../src/protocol/trace.js';
import { FAKE_HOME, FAKE_KEY, FAKE_TMP, newWorkspace } from './isolate.js';

export const PACKAGE_ROOT = findPackageRoot();

/** Counts printed by the suite's `after` hook. */
export const tally = {
  /** Fault cases run (each drives the product with one kind of fault). */
  tried: 0,
  /** Cases whose fault ended in a failure the trace (or the tool's output) records and labels. */
  recorded: 0,
  /** Cases whose fault was absorbed (retries, fallbacks) and the episode still succeeded. */
  recovered: 0,
  /** Single fuzzed inputs (prompt files, traces, webview messages) fed to parsers and the CLI. */
  fuzzInputs: 0,
  /** Unhandled errors in this process, CLI processes that died abnormally (signal, stack trace). */
  crashes: 0,
  crashNotes: [] as string[],
  /** launchRun calls that rejected instead of recording the failure in a trace (only in todo cases). */
  unrecorded: 0,
  /** Todo cases (product bugs reported to the lead) whose assertions currently fail. */
  knownBugs: 0,
};

/** Runs a todo case's body; counts it as a known bug while it still fails. */
export async function knownBug(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    tally.knownBugs++;
    throw e;
  }
}

export function noteCrash(what: string): void {
  tally.crashes++;
  tally.crashNotes.push(what);
}
process.on('unhandledRejection', (e) => noteCrash(`unhandled rejection: ${(e as Error)?.stack ?? String(e)}`));
process.on('uncaughtExceptionMonitor', (e) => noteCrash(`uncaught exception: ${e?.stack ?? String(e)}`));

// ---- the shared sandbox ----

let sharedSandbox: CodeSandbox | undefined;
/** The one real Pyodide sandbox; launchRun's close() is swallowed so later runs reuse the warm worker. */
export function sandboxForRuns(): CodeSandbox {
  sharedSandbox ??= createPyodideSandbox();
  const s = sharedSandbox;
  return { warmUp: () => s.warmUp(), run: (r) => s.run(r), resetNamespace: () => s.resetNamespace(), close: async () => {} };
}
export async function closeSharedSandbox(): Promise<void> {
  await sharedSandbox?.close();
  sharedSandbox = undefined;
}

export const embeddedDeps: LaunchDeps = {
  io: nodeIO,
  clock: nodeClock,
  architectures,
  createSimulator: () => createTabletopSimulator(),
  createSandbox: sandboxForRuns,
};

// ---- runs ----

export interface Run {
  result: LaunchResult;
  events: TraceEvent[];
  warnings: TraceWarning[];
}

export function openaiSpec(baseUrl: string, extra: Partial<Extract<ModelSpec, { kind: 'openai' }>> = {}): ModelSpec {
  return { kind: 'openai', model: 'fault-model', baseUrl, apiKey: FAKE_KEY, timeoutMs: 5000, ...extra };
}

/** launchRun through the product path; a throw is a crash (faults must end as recorded failures, not exceptions). */
export async function launch(workspace: string, o: Partial<LaunchOptions> = {}, deps: Partial<LaunchDeps> = {}): Promise<Run> {
  let result: LaunchResult;
  try {
    result = await launchRun(
      {
        workspace,
        arch: 'malmm',
        task: 'stack_blocks',
        seed: 0,
        builtInPromptRoot: join(PACKAGE_ROOT, 'src', 'architectures'),
        model: { kind: 'reference' },
        ...o,
        options: { codeTimeoutSecs: 5, ...o.options },
      },
      { ...embeddedDeps, ...deps },
    );
  } catch (e) {
    tally.unrecorded++;
    throw new assert.AssertionError({ message: `launchRun threw instead of recording the failure in a trace: ${(e as Error)?.stack ?? String(e)}` });
  }
  const { events, warnings } = readTrace(readFileSync(result.tracePath, 'utf8'));
  return { result, events, warnings };
}

export function ofType<T extends TraceEvent['type']>(events: TraceEvent[], type: T): Extract<TraceEvent, { type: T }>[] {
  return events.filter((e): e is Extract<TraceEvent, { type: T }> => e.type === type);
}

/** The trace is whole (no reader warnings), starts with episode_start, ends with exactly one episode_end. */
export function endOf(run: Run): Extract<TraceEvent, { type: 'episode_end' }> {
  assert.deepEqual(run.warnings, [], 'the trace reads without warnings');
  assert.equal(run.events[0]?.type, 'episode_start');
  const ends = ofType(run.events, 'episode_end');
  assert.equal(ends.length, 1, 'one episode_end');
  assert.equal(run.events.at(-1), ends[0], 'episode_end is the last event');
  assert.equal(ends[0].reason, run.result.reason);
  return ends[0];
}

/** A failure the trace labels: episode_end with `reason`, success false, and an error event of that kind. */
export function expectFailedEnd(run: Run, reason: string, message?: RegExp): Extract<TraceEvent, { type: 'episode_end' }> {
  const end = endOf(run);
  assert.equal(end.reason, reason, `episode_end.reason (message: ${end.message ?? ''})`);
  assert.equal(end.success, false);
  if (message) assert.match(end.message ?? '', message);
  if (['model_error', 'simulator_error', 'sandbox_error', 'prompt_error', 'engine_error', 'invalid_input'].includes(reason)) {
    assert.ok(ofType(run.events, 'error').some((e) => e.kind === reason), `an error event of kind ${reason}`);
  }
  return end;
}

export function expectSuccess(run: Run): void {
  const end = endOf(run);
  assert.equal(end.reason, 'task_completed', `reason ${end.reason}: ${end.message ?? ''}`);
  assert.equal(end.success, true);
}

// ---- the invariants around each case ----

type Snapshot = Map<string, string>;

/** Path -> kind, size and content hash of every file under `dir`, except the top-level names `skip` matches. */
export function snapshot(dir: string, skip: (topName: string) => boolean = () => false): Snapshot {
  const out: Snapshot = new Map();
  const walk = (d: string, top: boolean): void => {
    for (const name of readdirSync(d).sort()) {
      if (top && skip(name)) continue;
      const p = join(d, name);
      const st = lstatSync(p);
      const rel = relative(dir, p);
      if (st.isDirectory()) {
        out.set(rel, 'dir');
        walk(p, false);
      } else if (st.isFile()) {
        out.set(rel, `file ${st.size} ${createHash('sha1').update(readFileSync(p)).digest('hex')}`);
      } else {
        out.set(rel, st.isSymbolicLink() ? 'symlink' : 'other');
      }
    }
  };
  if (existsSync(dir)) walk(dir, true);
  return out;
}

// Node's tsx loader in child processes (the simulator fixtures) keeps its compile cache in TMPDIR: test tooling.
const skipTmp = (name: string) => /^tsx-/.test(name);
const skipWaypoint = (name: string) => name === '.waypoint';

export interface Snapshots {
  workspace: Snapshot;
  home: Snapshot;
  tmp: Snapshot;
}
export function snapshotAll(workspace: string): Snapshots {
  return { workspace: snapshot(workspace, skipWaypoint), home: snapshot(FAKE_HOME), tmp: snapshot(FAKE_TMP, skipTmp) };
}

export function assertNothingWrittenOutside(workspace: string, before: Snapshots): void {
  const after = snapshotAll(workspace);
  assert.deepEqual([...after.workspace], [...before.workspace], 'the workspace outside .waypoint/ is unchanged');
  assert.deepEqual([...after.home], [...before.home], 'HOME is unchanged');
  assert.deepEqual([...after.tmp], [...before.tmp], 'TMPDIR is unchanged');
}

/** Files (relative to their root) that contain the fake key. */
export function filesWithKey(...roots: string[]): string[] {
  const hits: string[] = [];
  const key = Buffer.from(FAKE_KEY);
  for (const root of roots) {
    for (const [rel, kind] of snapshot(root, root === FAKE_TMP ? skipTmp : () => false)) {
      if (!kind.startsWith('file')) continue;
      if (readFileSync(join(root, rel)).includes(key)) hits.push(join(root, rel));
    }
  }
  return hits;
}

export function assertNoKeyWritten(workspace: string): void {
  assert.deepEqual(filesWithKey(workspace, FAKE_HOME, FAKE_TMP), [], 'no file holds the API key');
}

/** The next episode in this process, in the same workspace: reference model, stack_blocks, success. */
export async function assertNextEpisodeRuns(workspace: string): Promise<void> {
  const next = await launch(workspace, { model: { kind: 'reference' } });
  expectSuccess(next);
}

/** What a case observed: the fault left a labelled failure in the trace; the episode still succeeded. */
export interface CaseOutcome {
  recorded: boolean;
  recovered: boolean;
}
export const RECORDED: CaseOutcome = { recorded: true, recovered: false };
export const RECOVERED: CaseOutcome = { recorded: false, recovered: true };
export const RECORDED_AND_RECOVERED: CaseOutcome = { recorded: true, recovered: true };

/**
 * One fault case: `body` gets a fresh workspace, drives the product with the fault and asserts the labelled
 * result; then the common invariants are checked. Returns nothing; counts go to `tally`.
 */
export async function faultCase(label: string, body: (workspace: string) => Promise<CaseOutcome>, o: { nextEpisode?: boolean } = {}): Promise<void> {
  const workspace = newWorkspace(label);
  const before = snapshotAll(workspace);
  const crashesBefore = tally.crashes;
  tally.tried++;
  const outcome = await body(workspace);
  if (o.nextEpisode !== false) await assertNextEpisodeRuns(workspace);
  assertNothingWrittenOutside(workspace, before);
  assertNoKeyWritten(workspace);
  assert.deepEqual(tally.crashNotes.slice(crashesBefore), [], 'no crash during the case');
  assert.ok(outcome.recorded || outcome.recovered, 'the case saw either a recorded failure or a recovery');
  if (outcome.recorded) tally.recorded++;
  if (outcome.recovered) tally.recovered++;
}

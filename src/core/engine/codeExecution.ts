// A code block run in the sandbox: each robot-API call it makes is traced before the simulator acts (a debugger
// can stop there), task_completed / task_failed are answered here, and a cap reached inside the block fails the
// rest of its calls, ends the block, then the episode.
import type { CodeRunOutcome } from '../architecture/types.js';
import type { ApiCallResult, CollisionReport } from '../sim/simulator.js';
import { drainTrajectory, recordObservation, type ContextState } from './contextState.js';
import { collisionCheck } from './emit.js';
import { CapReached, EpisodeAbort, messageOf, simStep } from './endReasons.js';
import type { EpisodeSpec } from './episode.js';

/** Whether one episode's code blocks share a namespace: the run's choice, else the architecture's paper. */
export function persistNamespaceOf(spec: Pick<EpisodeSpec, 'arch' | 'options'>): boolean {
  return spec.options.persistNamespace ?? spec.arch.codeNamespace === 'episode';
}

/** What the block's calls left behind, read once the block has ended. */
interface BlockState {
  completed: boolean;
  failed: boolean;
  simFailure?: string;
  capHit?: CapReached;
  collisionNotes: CollisionReport[];
}

/** The sandbox's bridge to the simulator for one block. */
function apiBridge(s: ContextState, role: string, code: string, b: BlockState) {
  return async (fn: string, args: unknown[], where: { index: number; line?: number }): Promise<ApiCallResult> => {
    if (b.capHit) return { ok: false, error: `stopped: ${b.capHit.message}` };
    try {
      // Written before the simulator acts: a debugger can stop here with the arguments and the arm as it is.
      // The motion so far goes into the trace first: a debugger paused at this call shows the arm as it is now.
      await drainTrajectory(s);
      // The first call of a block carries the block, so a debugger paused inside it can show the code.
      await s.emit({ type: 'api_call', turn: s.live.turn, role, index: where.index, fn, args, ...(where.line !== undefined ? { line: where.line } : {}), ...(where.index === 0 ? { code } : {}) });
    } catch (err) {
      // A cap reached inside the block: the code's call fails (nothing more is simulated), the block ends, then the episode.
      if (!(err instanceof CapReached)) throw err;
      b.capHit = err;
      return { ok: false, error: `stopped: ${err.message}` };
    }
    if (s.controller.signal.aborted) return { ok: false, error: 'cancelled' };
    if (fn === 'task_completed') {
      b.completed = true;
      return { ok: true, output: 'Stopping the process.....' };
    }
    if (fn === 'task_failed') {
      b.failed = true;
      return { ok: true, output: 'Stopping the process (task_failed).' };
    }
    try {
      const r = await s.deps.sim.call(fn, args);
      if (r.ok && r.collisions) b.collisionNotes.push(...r.collisions);
      return r;
    } catch (err) {
      b.simFailure = messageOf(err);
      return { ok: false, error: `simulator failure: ${b.simFailure}` };
    }
  };
}

export async function executeCode(s: ContextState, role: string, code: string): Promise<CodeRunOutcome> {
  const { spec, deps, metrics, emit } = s;
  metrics.codeBlocks++;
  const b: BlockState = { completed: false, failed: false, collisionNotes: [] };
  const result = await deps.sandbox.run({
    code,
    api: s.reset.api,
    persistNamespace: persistNamespaceOf(spec),
    limits: { timeoutSecs: spec.options.codeTimeoutSecs, memoryMiB: spec.options.memoryMiB },
    onApiCall: apiBridge(s, role, code, b),
  });
  if (!result.ok) metrics.codeErrors++;
  await emit({
    type: 'code_execution',
    turn: s.live.turn,
    role,
    language: 'python',
    code,
    ok: result.ok,
    exitCode: result.exitCode,
    stdout: result.stdout,
    error: result.error,
    durationMs: result.durationMs,
    apiCalls: result.apiCalls,
    namespacePersisted: persistNamespaceOf(spec),
  });
  if (b.simFailure) throw new EpisodeAbort('simulator_error', `simulator failed during code execution: ${b.simFailure}`);
  if (b.capHit) throw b.capHit;
  await drainTrajectory(s);
  for (const c of b.collisionNotes) await emit(collisionCheck(s.live.turn, c));
  const observation = s.perceive(await simStep('observe', () => deps.sim.observe()));
  await recordObservation(s, observation);
  return { result, observation, completed: b.completed, failed: b.failed };
}

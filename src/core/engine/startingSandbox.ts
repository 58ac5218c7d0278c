// The episode's sandbox while Pyodide may still be loading: the start begins when the loop does, and only the
// first code block waits for it, so the model's first answers are not held behind seconds of interpreter start-up.
// A start that fails ends the episode as sandbox_error at that block, with the cause; a cancel (or a cap) while the
// block waits ends it at once.
import type { CodeSandbox, RunCodeRequest, RunCodeResult } from '../sandbox/sandbox.js';
import { EpisodeAbort, messageOf, untilAborted } from './endReasons.js';

export function startingSandbox(sandbox: CodeSandbox, runSignal: AbortSignal): CodeSandbox {
  // Started now; the episode's namespace is made fresh before its first block.
  const ready = sandbox.warmUp().then(
    () => sandbox.resetNamespace(),
    (err: unknown) => {
      throw new EpisodeAbort('sandbox_error', `code sandbox failed to start: ${messageOf(err)}`);
    },
  );
  // An episode that ends before its first block never looks at the start's outcome.
  ready.catch(() => undefined);
  return {
    warmUp: () => ready,
    async run(request: RunCodeRequest): Promise<RunCodeResult> {
      await untilAborted(ready, runSignal);
      return sandbox.run(request);
    },
    async resetNamespace(namespace?: string): Promise<void> {
      await untilAborted(ready, runSignal);
      return sandbox.resetNamespace(namespace);
    },
    close: () => sandbox.close(),
  };
}

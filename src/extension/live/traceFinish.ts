// When a run's process had to be killed (it did not stop within the cancel grace), the host closes the trace
// itself so it still ends with episode_end 'cancelled' (pure: the text to append, from the trace so far).
import { readTrace } from '../../core/trace/reader.js';

/** The JSONL text to append so the trace ends 'cancelled', or undefined when it already has an episode_end. */
export function cancelledTail(traceText: string, message: string): string | undefined {
  const { events } = readTrace(traceText);
  if (events.some((e) => e.type === 'episode_end')) return undefined;
  const last = events[events.length - 1];
  let turns = 0, modelCalls = 0, cachedCalls = 0, promptTokens = 0, completionTokens = 0, codeBlocks = 0, codeErrors = 0, formatErrors = 0;
  for (const e of events) {
    if ('turn' in e && typeof e.turn === 'number') turns = Math.max(turns, e.turn);
    if (e.type === 'model_response') {
      modelCalls++;
      if (e.cached) cachedCalls++;
      promptTokens += e.usage?.promptTokens ?? 0;
      completionTokens += e.usage?.completionTokens ?? 0;
    }
    if (e.type === 'code_execution') {
      codeBlocks++;
      if (!e.ok) codeErrors++;
    }
    if (e.type === 'parsed_output' && !e.ok) formatErrors++;
  }
  const end = {
    seq: last ? last.seq + 1 : 0,
    tMs: last ? last.tMs : 0,
    type: 'episode_end',
    success: false,
    reason: 'cancelled',
    agentClaimedDone: false,
    message,
    metrics: { turns, modelCalls, cachedCalls, promptTokens, completionTokens, codeBlocks, codeErrors, formatErrors, durationMs: last ? last.tMs : 0, simTimeSecs: 0 },
  };
  // A process killed mid-write leaves a partial last line: start a new line so ours is not glued to it.
  const sep = traceText.length > 0 && !traceText.endsWith('\n') ? '\n' : '';
  return `${sep}${JSON.stringify(end)}\n`;
}

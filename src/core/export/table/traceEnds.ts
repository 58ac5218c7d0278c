// The first episode_start and the last episode_end of a trace, without decoding the events between them: a table
// of a few hundred episodes needs two lines of each trace, not its messages and trajectories. Both events are
// stored as they are in every encoding (docs/trace.md), so one JSON line each.
import { EpisodeEnd, EpisodeStart, type EventOf } from '../../../protocol/trace.js';

export interface TraceEnds {
  start?: EventOf<'episode_start'>;
  end?: EventOf<'episode_end'>;
}

const TYPE_OF = { episode_start: /"type"\s*:\s*"episode_start"/, episode_end: /"type"\s*:\s*"episode_end"/ };

function eventOn(line: string, type: 'episode_start' | 'episode_end'): unknown {
  // Cheap test first: content records and other events are skipped without parsing.
  if (!TYPE_OF[type].test(line)) return undefined;
  try {
    const json = JSON.parse(line) as unknown;
    return typeof json === 'object' && json !== null && (json as { type?: unknown }).type === type ? json : undefined;
  } catch {
    return undefined;
  }
}

export function traceEnds(text: string): TraceEnds {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n');
  const out: TraceEnds = {};
  for (const line of lines) {
    const j = eventOn(line, 'episode_start');
    if (j === undefined) continue;
    const p = EpisodeStart.safeParse(j);
    if (p.success) out.start = p.data;
    break;
  }
  for (let i = lines.length - 1; i >= 0; i--) {
    const j = eventOn(lines[i], 'episode_end');
    if (j === undefined) continue;
    const p = EpisodeEnd.safeParse(j);
    if (p.success) out.end = p.data;
    break;
  }
  return out;
}

// Tolerant trace reader: a truncated last line (process killed mid-write), a corrupt line or an unknown event
// type becomes a warning with its line number; the readable events are always returned.
import { TRACE_SCHEMA_VERSION, TraceEvent } from '../../protocol/trace.js';

export interface TraceWarning {
  /** 1-based line number in the JSONL file. */
  line: number;
  kind: 'truncated_last_line' | 'corrupt_line' | 'unknown_event' | 'invalid_event' | 'newer_schema';
  message: string;
}

export interface ReadTraceResult {
  events: TraceEvent[];
  warnings: TraceWarning[];
}

export function readTrace(text: string): ReadTraceResult {
  const events: TraceEvent[] = [];
  const warnings: TraceWarning[] = [];
  // A byte-order mark (an editor's save) is not part of the first event.
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n');
  // A file written to completion ends with '\n', so the last element is ''. Anything else there was in flight.
  const lastIndex = lines.length - 1;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    if (raw.trim() === '') continue;
    const lineNo = i + 1;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      if (i === lastIndex) {
        warnings.push({ line: lineNo, kind: 'truncated_last_line', message: `line ${lineNo} is incomplete (the run was probably interrupted while writing it); ${events.length} events before it were read` });
      } else {
        warnings.push({ line: lineNo, kind: 'corrupt_line', message: `line ${lineNo} is not valid JSON and was skipped` });
      }
      continue;
    }
    const parsed = TraceEvent.safeParse(json);
    if (parsed.success) {
      const e = parsed.data;
      if (e.type === 'episode_start' && e.schemaVersion > TRACE_SCHEMA_VERSION) {
        warnings.push({ line: lineNo, kind: 'newer_schema', message: `trace schema v${e.schemaVersion} is newer than this Waypoint (v${TRACE_SCHEMA_VERSION}); some events may be skipped` });
      }
      events.push(e);
      continue;
    }
    const type = typeof json === 'object' && json !== null && 'type' in json ? String((json as { type: unknown }).type) : undefined;
    const known = TraceEvent.options.some((o) => o.shape.type.value === type);
    if (!known) {
      warnings.push({ line: lineNo, kind: 'unknown_event', message: `line ${lineNo}: unknown event type ${JSON.stringify(type)} skipped` });
    } else {
      const issue = parsed.error.issues[0];
      warnings.push({ line: lineNo, kind: 'invalid_event', message: `line ${lineNo}: ${type} event is invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'schema mismatch'}` });
    }
  }
  return { events, warnings };
}

// Tolerant trace reader: a truncated last line (process killed mid-write), a corrupt line, an unknown event type or
// a message hash with no record becomes a warning with its line number; the readable events are always returned.
// Reads both schema v1 traces (every event as it is) and the compact encoding (encoding/: messages by hash,
// trajectories as columns) into the same in-memory events.
import { TRACE_SCHEMA_VERSION, TraceEvent, type EventOf } from '../../protocol/trace.js';
import { ColumnDecodeError, columnCount, ContentStore, decodeTrajectorySamples, RECORD_KEY, type ContentProblem } from './encoding/index.js';

export interface TraceWarning {
  /** 1-based line number in the JSONL file. */
  line: number;
  kind: 'truncated_last_line' | 'corrupt_line' | 'unknown_event' | 'invalid_event' | 'newer_schema' | 'missing_content' | 'invalid_record';
  message: string;
}

export interface ReadTraceResult {
  events: TraceEvent[];
  warnings: TraceWarning[];
}

/** A trajectory line in columns, validated except for its columns: for readers that decode them their own way. */
export class ColumnarTrajectory {
  constructor(
    /** The event with `samples: []`. */
    readonly event: EventOf<'trajectory'>,
    /** The line's `columns` (decode with encoding/trajectory.ts; may throw ColumnDecodeError). */
    readonly columns: unknown,
    /** Sample count the columns declare. */
    readonly n: number,
    readonly line: number,
  ) {}
}

export function readTrace(text: string): ReadTraceResult {
  const { events, warnings } = scanTrace(text);
  const out: TraceEvent[] = [];
  for (const e of events) {
    if (!isColumnar(e)) {
      out.push(e);
      continue;
    }
    try {
      out.push({ ...e.event, samples: decodeTrajectorySamples(e.columns) });
    } catch (err) {
      if (!(err instanceof ColumnDecodeError)) throw err;
      warnings.push(columnWarning(e.line, err));
    }
  }
  warnings.sort((a, b) => a.line - b.line);
  return { events: out, warnings };
}

export function isColumnar(e: TraceEvent | ColumnarTrajectory): e is ColumnarTrajectory {
  return e instanceof ColumnarTrajectory;
}

export function columnWarning(line: number, err: ColumnDecodeError): TraceWarning {
  return { line, kind: 'invalid_event', message: `line ${line}: trajectory columns are invalid (${err.message}); the trajectory was skipped` };
}

/**
 * Every event of a trace, with trajectories stored as columns left undecoded (ColumnarTrajectory), so a reader
 * can decode them straight into typed arrays (the run viewer) or into samples (readTrace).
 */
export function scanTrace(text: string): { events: (TraceEvent | ColumnarTrajectory)[]; warnings: TraceWarning[] } {
  const events: (TraceEvent | ColumnarTrajectory)[] = [];
  const warnings: TraceWarning[] = [];
  // A byte-order mark (an editor's save) is not part of the first event.
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n');
  // A file written to completion ends with '\n', so the last element is ''. Anything else there was in flight.
  const lastIndex = lines.length - 1;
  // Pass 1: parse every line and collect the content records, wherever they are (the writer puts each before its
  // first use; a hand-joined file may not).
  const store = new ContentStore();
  const parsed: { json: Record<string, unknown>; lineNo: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    if (raw.trim() === '') continue;
    const lineNo = i + 1;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      if (i === lastIndex) {
        warnings.push({ line: lineNo, kind: 'truncated_last_line', message: `line ${lineNo} is incomplete (the run was probably interrupted while writing it); ${parsed.length} events before it were read` });
      } else {
        warnings.push({ line: lineNo, kind: 'corrupt_line', message: `line ${lineNo} is not valid JSON and was skipped` });
      }
      continue;
    }
    if (typeof json === 'object' && json !== null && !Array.isArray(json) && RECORD_KEY in json && !('type' in json)) {
      const problem = store.add(json as Record<string, unknown>);
      if (problem) warnings.push({ line: lineNo, kind: 'invalid_record', message: `line ${lineNo}: ${problem}; skipped` });
      continue;
    }
    parsed.push({ json: json as Record<string, unknown>, lineNo });
  }
  // Pass 2: events, with message references resolved.
  for (const { json, lineNo } of parsed) {
    const type = typeof json === 'object' && json !== null && 'type' in json ? String(json.type) : undefined;
    let candidate: unknown = json;
    let columns: unknown;
    if (type === 'role_call' && Array.isArray(json.messages) && json.messages.some((m) => typeof m === 'string')) {
      const problems: ContentProblem[] = [];
      candidate = { ...json, messages: store.resolve(json.messages, `line ${lineNo}: role_call ${typeof json.callId === 'string' ? json.callId : ''}`.trimEnd(), problems) };
      for (const p of problems) warnings.push({ line: lineNo, kind: p.kind, message: p.message });
    } else if (type === 'trajectory' && 'columns' in json && !('samples' in json)) {
      const { columns: c, ...rest } = json;
      columns = c;
      candidate = { ...rest, samples: [] };
    }
    const parsedEvent = TraceEvent.safeParse(candidate);
    if (parsedEvent.success) {
      const e = parsedEvent.data;
      if (e.type === 'episode_start' && e.schemaVersion > TRACE_SCHEMA_VERSION) {
        warnings.push({ line: lineNo, kind: 'newer_schema', message: `trace schema v${e.schemaVersion} is newer than this Waypoint (v${TRACE_SCHEMA_VERSION}); some events may be skipped` });
      }
      if (columns !== undefined && e.type === 'trajectory') {
        try {
          events.push(new ColumnarTrajectory(e, columns, columnCount(columns), lineNo));
        } catch (err) {
          if (!(err instanceof ColumnDecodeError)) throw err;
          warnings.push(columnWarning(lineNo, err));
        }
      } else {
        events.push(e);
      }
      continue;
    }
    const known = TraceEvent.options.some((o) => o.shape.type.value === type);
    if (!known) {
      warnings.push({ line: lineNo, kind: 'unknown_event', message: `line ${lineNo}: unknown event type ${JSON.stringify(type)} skipped` });
    } else {
      const issue = parsedEvent.error.issues[0];
      warnings.push({ line: lineNo, kind: 'invalid_event', message: `line ${lineNo}: ${type} event is invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'schema mismatch'}` });
    }
  }
  warnings.sort((a, b) => a.line - b.line);
  return { events, warnings };
}

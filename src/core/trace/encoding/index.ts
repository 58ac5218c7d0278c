// The trace's on-disk encoding (docs/trace.md, "Encoding"). The writer turns each event into its lines here;
// the reader (../reader.ts) turns lines back into the exact events the writer returned. Events other than
// role_call and trajectory are stored as they are; a role_call's messages are hashes of `message` records; a
// trajectory's samples are columns.
import type { TraceEvent } from '../../../protocol/trace.js';
import { MessageEncoder } from './messages.js';
import { encodeTrajectory } from './trajectory.js';

export { ContentStore, MESSAGE_HASH_CHARS, type ContentProblem } from './messages.js';
export { columnCount, decodeTrajectoryBodies, decodeTrajectoryColumns, decodeTrajectorySamples, TRAJECTORY_DIGITS, type DecodedTrajectory, type TrajectoryColumns } from './trajectory.js';
export { ColumnDecodeError } from './varint.js';

/** Record lines (content, not events) carry this key instead of `type`. */
export const RECORD_KEY = 'record';

export interface EncodedEvent {
  /** The lines to append, in order, each ending with '\n' (content records first, the event line last). */
  text: string;
  /** The event as the reader will return it (trajectory values rounded). */
  shown: TraceEvent;
  /** Call once `text` is on disk: later events may then refer to its content records. */
  commit(): void;
}

/** Writer side of the encoding, one per trace file. */
export class TraceEncoder {
  private readonly messages = new MessageEncoder();

  /** Throws on content that cannot be stored truthfully (an image whose sha256 does not match its bytes). */
  encode(event: TraceEvent): EncodedEvent {
    if (event.type === 'role_call') {
      const m = this.messages.encode(event.messages);
      return { text: m.records.join('') + JSON.stringify({ ...event, messages: m.refs }) + '\n', shown: event, commit: m.commit };
    }
    if (event.type === 'trajectory') {
      const t = encodeTrajectory(event);
      if (t) return { text: JSON.stringify(t.line) + '\n', shown: t.shown, commit: () => undefined };
    }
    return { text: JSON.stringify(event) + '\n', shown: event, commit: () => undefined };
  }
}

// State diff after each code execution: which objects moved (more than a threshold), and which of those were
// neither grasped nor named in the block's API calls (likely collisions). Also flags drops: an object held
// before the block and not after, without open_gripper being called.
import type { EventOf, TraceEvent, WorldState } from '../../../protocol/trace.js';
import type { ViewEvent } from '../../../protocol/webview.js';

type Vec3 = [number, number, number];

export interface MovedObject {
  name: string;
  before: Vec3;
  after: Vec3;
  deltaM: number;
  /** Grasped before/after or named in the block's API calls: moving was intended. */
  expected: boolean;
}

export interface StateDiff {
  /** Turn of the execution. */
  turn: number;
  execSeq: number;
  obsSeq: number;
  execOk: boolean;
  moved: MovedObject[];
  /** Moved but not expected: drawn in red. */
  unexpected: string[];
  unchanged: number;
  appeared: string[];
  disappeared: string[];
  graspedBefore: string | null;
  graspedAfter: string | null;
  gripperOpenBefore: boolean;
  gripperOpenAfter: boolean;
  ee: { before: Vec3; after: Vec3; deltaM: number };
  /** An object held before and not after without open_gripper in the block. */
  dropped?: string;
  expectedObjects: string[];
}

export function distanceM(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

export function diffStates(
  before: WorldState,
  after: WorldState,
  exec: Pick<EventOf<'code_execution'>, 'turn' | 'seq' | 'ok' | 'apiCalls'>,
  obsSeq: number,
  thresholdM: number,
): StateDiff {
  const names = new Set(after.objects.map((o) => o.name));
  const expected = new Set<string>();
  if (before.grasped) expected.add(before.grasped);
  if (after.grasped) expected.add(after.grasped);
  for (const c of exec.apiCalls) for (const a of c.args) if (typeof a === 'string' && (names.has(a) || before.objects.some((o) => o.name === a))) expected.add(a);
  const prev = new Map(before.objects.map((o) => [o.name, o]));
  const moved: MovedObject[] = [];
  let unchanged = 0;
  const appeared: string[] = [];
  for (const o of after.objects) {
    const p = prev.get(o.name);
    if (!p) {
      appeared.push(o.name);
      continue;
    }
    const d = distanceM(p.pos, o.pos);
    if (d > thresholdM) moved.push({ name: o.name, before: [...p.pos], after: [...o.pos], deltaM: d, expected: expected.has(o.name) });
    else unchanged++;
  }
  moved.sort((a, b) => b.deltaM - a.deltaM || a.name.localeCompare(b.name));
  const disappeared = before.objects.filter((o) => !names.has(o.name)).map((o) => o.name);
  const opened = exec.apiCalls.some((c) => c.fn === 'open_gripper');
  const dropped = before.grasped && after.grasped !== before.grasped && !opened ? before.grasped : undefined;
  return {
    turn: exec.turn,
    execSeq: exec.seq,
    obsSeq,
    execOk: exec.ok,
    moved,
    unexpected: moved.filter((m) => !m.expected).map((m) => m.name),
    unchanged,
    appeared,
    disappeared,
    graspedBefore: before.grasped,
    graspedAfter: after.grasped,
    gripperOpenBefore: before.gripperOpen,
    gripperOpenAfter: after.gripperOpen,
    ee: { before: [...before.ee.pos], after: [...after.ee.pos], deltaM: distanceM(before.ee.pos, after.ee.pos) },
    dropped,
    expectedObjects: [...expected].sort(),
  };
}

export class StateDiffBuilder {
  readonly diffs: StateDiff[] = [];
  private last: WorldState | undefined;
  private pending: EventOf<'code_execution'> | undefined;

  /** @param thresholdM objects that moved less than this are "unchanged" (default 1 mm). */
  constructor(private readonly thresholdM = 0.001) {}

  add(e: TraceEvent | ViewEvent): void {
    if (e.type === 'code_execution') {
      this.pending = e;
    } else if (e.type === 'observation') {
      this.settle(e.state, e.seq);
    } else if (e.type === 'episode_end' && e.finalState && this.pending) {
      this.settle(e.finalState, e.seq);
    }
  }

  private settle(state: WorldState, seq: number): void {
    if (this.pending && this.last) this.diffs.push(diffStates(this.last, state, this.pending, seq, this.thresholdM));
    this.pending = undefined;
    this.last = state;
  }

  forTurn(turn: number): StateDiff[] {
    return this.diffs.filter((d) => d.turn === turn);
  }
}

export function projectStateDiffs(events: readonly (TraceEvent | ViewEvent)[], thresholdM = 0.001): StateDiff[] {
  const b = new StateDiffBuilder(thresholdM);
  for (const e of events) b.add(e);
  return b.diffs;
}

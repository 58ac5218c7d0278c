// Messages between the extension host and the run viewer webview. Both directions cross a trust boundary
// (a webview can be sent anything; a trace can come from anyone), so each side parses every message it receives
// with these schemas and ignores (and reports) what does not validate.
import * as z from 'zod';
import { ChatMessage, RoleCall, TraceEvent } from './trace.js';

/** A partial failure found while reading a trace (mirrors core/trace/reader.ts TraceWarning, kind kept open). */
/** The run viewer's lazy bundles (dist/webview/runViewer.<name>.js, webview/common/lazyBundle.ts), loaded on first use. */
export const VIEWER_LAZY_BUNDLES = ['monaco', 'replay3d'] as const;
export type ViewerLazyBundle = (typeof VIEWER_LAZY_BUNDLES)[number];

export const ViewerWarning = z.object({
  line: z.number().int().optional(),
  kind: z.string(),
  message: z.string(),
});
export type ViewerWarning = z.infer<typeof ViewerWarning>;

// ---- packed trajectories ----
// A trajectory crosses the host/view boundary with its samples as columns of Float64Array: postMessage copies
// typed arrays as bytes, which for 100k samples is ~100x cheaper than cloning and validating 100k objects.
// packTrajectory/unpackTrajectory convert exactly; a trajectory whose samples differ in qpos/bodies/arms length
// stays unpacked. A run with more samples than the view needs arrives as an overview (each packed trajectory
// holds a subset of its samples, `total` says how many it has) and the view asks for the full samples of a time
// window when the user zooms (trajectoryWindow request, answered by a trajectoryWindow message).

const F64 = z.instanceof(Float64Array);
const Int = z.number().int().nonnegative();

export const PackedTrajectory = z
  .object({
    seq: Int,
    tMs: z.number().nonnegative(),
    type: z.literal('trajectory_packed'),
    turn: z.number().int(),
    round: Int.optional(),
    step: Int.optional(),
    agent: z.string().optional(),
    rateHz: z.number(),
    /** Number of samples. */
    n: Int,
    /** Samples of the trace event when this holds a subset of them (an overview); absent when it holds them all. */
    total: Int.optional(),
    tSecs: F64,
    /** [x, y, z, yaw] per sample. */
    ee: F64,
    gripperWidth: F64,
    qposWidth: Int,
    qpos: F64,
    /** Runs of the grasped object: from sample index `from` on, until the next run. */
    grasped: z.array(z.object({ from: Int, value: z.string().nullable() })),
    bodiesWidth: Int.optional(),
    bodies: F64.optional(),
    /** Several arms: 5 columns per arm (x, y, z, yaw, finger width), `armsWidth` = 5 × arms. */
    armsWidth: Int.optional(),
    arms: F64.optional(),
    /** Samples that carry a contacts list, by index. */
    contacts: z.array(z.object({ index: Int, pairs: z.array(z.tuple([z.string(), z.string()])) })).optional(),
  })
  .superRefine((p, ctx) => {
    const bad = (message: string) => ctx.addIssue({ code: 'custom', message });
    const n = p.n;
    if (p.tSecs.length !== n || p.gripperWidth.length !== n || p.ee.length !== 4 * n || p.qpos.length !== n * p.qposWidth) bad('column lengths do not match n');
    if ((p.bodies === undefined) !== (p.bodiesWidth === undefined) || (p.bodies && p.bodies.length !== n * p.bodiesWidth!)) bad('bodies length does not match n × bodiesWidth');
    if ((p.arms === undefined) !== (p.armsWidth === undefined) || (p.arms && (p.arms.length !== n * p.armsWidth! || p.armsWidth! % 5 !== 0))) bad('arms length does not match n × armsWidth (5 per arm)');
    for (const col of [p.tSecs, p.ee, p.gripperWidth, p.qpos, p.bodies, p.arms]) if (col && !allFinite(col)) return bad('non-finite number in a column');
    if (p.total !== undefined && p.total < n) bad('total is less than n');
    if (n > 0 && (p.grasped.length === 0 || p.grasped[0].from !== 0)) bad('grasped runs must start at sample 0');
    for (let i = 1; i < p.grasped.length; i++) if (p.grasped[i].from <= p.grasped[i - 1].from || p.grasped[i].from >= n) bad('grasped runs out of order');
    for (const c of p.contacts ?? []) if (c.index >= n) bad('contact index out of range');
  });
export type PackedTrajectory = z.infer<typeof PackedTrajectory>;

/** Every value finite (v - v is NaN for NaN and ±Infinity); one monomorphic loop, as a long run's columns hold millions. */
function allFinite(a: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (v - v !== 0) return false;
  }
  return true;
}

/** What init/append carry: trace events, with trajectories usually packed. */
export type ViewEvent = TraceEvent | PackedTrajectory;
type TrajectoryEvent = Extract<TraceEvent, { type: 'trajectory' }>;

/** Packs a trajectory event, or returns undefined when its samples differ in qpos/bodies/arms length. */
export function packTrajectory(e: TrajectoryEvent): PackedTrajectory | undefined {
  const s = e.samples;
  const n = s.length;
  const qw = n ? s[0].qpos.length : 0;
  const bw = n ? s[0].bodies?.length : undefined;
  const aw = n ? s[0].arms?.length : undefined;
  if (s.some((x) => x.qpos.length !== qw || x.bodies?.length !== bw || x.arms?.length !== aw)) return undefined;
  const tSecs = new Float64Array(n), ee = new Float64Array(4 * n), width = new Float64Array(n), qpos = new Float64Array(n * qw);
  const bodies = bw === undefined ? undefined : new Float64Array(n * bw);
  const arms = aw === undefined ? undefined : new Float64Array(n * aw);
  const grasped: PackedTrajectory['grasped'] = [];
  const contacts: NonNullable<PackedTrajectory['contacts']> = [];
  for (let i = 0; i < n; i++) {
    const x = s[i];
    tSecs[i] = x.tSecs;
    ee.set(x.ee, 4 * i);
    width[i] = x.gripperWidth;
    qpos.set(x.qpos, i * qw);
    if (bodies && x.bodies) bodies.set(x.bodies, i * bw!);
    if (arms && x.arms) arms.set(x.arms, i * aw!);
    if (i === 0 || x.grasped !== s[i - 1].grasped) grasped.push({ from: i, value: x.grasped });
    if (x.contacts) contacts.push({ index: i, pairs: x.contacts.map((c) => [c[0], c[1]] as [string, string]) });
  }
  return {
    seq: e.seq, tMs: e.tMs, type: 'trajectory_packed', turn: e.turn, ...counters(e), rateHz: e.rateHz, n, tSecs, ee, gripperWidth: width, qposWidth: qw, qpos, grasped,
    ...(bodies ? { bodiesWidth: bw, bodies } : {}),
    ...(arms ? { armsWidth: aw, arms } : {}),
    ...(contacts.length ? { contacts } : {}),
  };
}

/** The counters every event may carry (round, step, agent), as present. */
export function counters(e: { round?: number; step?: number; agent?: string }): Pick<PackedTrajectory, 'round' | 'step' | 'agent'> {
  return { ...(e.round !== undefined ? { round: e.round } : {}), ...(e.step !== undefined ? { step: e.step } : {}), ...(e.agent !== undefined ? { agent: e.agent } : {}) };
}

/** The trace event a packed trajectory stands for (inverse of packTrajectory). */
export function unpackTrajectory(p: PackedTrajectory): TrajectoryEvent {
  const samples: TrajectoryEvent['samples'] = new Array(p.n);
  const contacts = new Map((p.contacts ?? []).map((c) => [c.index, c.pairs]));
  let run = 0;
  for (let i = 0; i < p.n; i++) {
    while (run + 1 < p.grasped.length && p.grasped[run + 1].from <= i) run++;
    const sample: TrajectoryEvent['samples'][number] = {
      tSecs: p.tSecs[i],
      qpos: Array.from(p.qpos.subarray(i * p.qposWidth, (i + 1) * p.qposWidth)),
      ee: [p.ee[4 * i], p.ee[4 * i + 1], p.ee[4 * i + 2], p.ee[4 * i + 3]],
      gripperWidth: p.gripperWidth[i],
      grasped: p.grasped[run]?.value ?? null,
    };
    if (p.bodies && p.bodiesWidth !== undefined) sample.bodies = Array.from(p.bodies.subarray(i * p.bodiesWidth, (i + 1) * p.bodiesWidth));
    if (p.arms && p.armsWidth !== undefined) sample.arms = Array.from(p.arms.subarray(i * p.armsWidth, (i + 1) * p.armsWidth));
    const c = contacts.get(i);
    if (c) sample.contacts = c;
    samples[i] = sample;
  }
  return { seq: p.seq, tMs: p.tMs, type: 'trajectory', turn: p.turn, ...counters(p), rateHz: p.rateHz, samples };
}

/** Events as the host should send them: trajectories packed where possible, everything else unchanged. */
export function packEvents(events: readonly ViewEvent[]): ViewEvent[] {
  return events.map((e) => (e.type === 'trajectory' ? (packTrajectory(e) ?? e) : e));
}

// ---- shared messages ----
// A role_call repeats the chat so far (MALMM sends the whole history every call), so an init message lists each
// distinct chat message once (`messages`) and role_calls refer to them by index: a long run's init shrinks from
// megabytes to the size of its distinct messages, and each message is validated once.

/** A role_call whose messages are indices into the init message's `messages` table. */
export const SharedRoleCall = RoleCall.extend({ messages: z.array(Int) });
export type SharedRoleCall = z.infer<typeof SharedRoleCall>;
/** What an init message's `events` may hold on the wire. */
export type WireEvent = ViewEvent | SharedRoleCall;

/** Replaces each role_call's messages by indices into one table of the distinct messages. */
export function shareMessages(events: readonly ViewEvent[]): { events: WireEvent[]; messages: ChatMessage[] } {
  const messages: ChatMessage[] = [];
  const index = new Map<string, number>();
  const out = events.map((e): WireEvent => {
    if (e.type !== 'role_call') return e;
    return {
      ...e,
      messages: e.messages.map((m) => {
        const key = JSON.stringify(m);
        let i = index.get(key);
        if (i === undefined) {
          i = messages.push(m) - 1;
          index.set(key, i);
        }
        return i;
      }),
    };
  });
  return { events: out, messages };
}

// ---- messages ----

// A run id names a folder under .waypoint/runs: never a path (no separators, no '.' or '..').
const RunId = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,200}$/, 'a run id is letters, digits, dot, dash and underscore only')
  .refine((s) => s !== '.' && s !== '..', 'a run id cannot be . or ..');
const Turn = z.number().int().nonnegative();
const RequestId = z.string().min(1).max(100);

// ---- host -> view ----

/** Answers `ready`: the whole trace read so far. `live` says more events will follow as `append`. */
export const ViewEventSchema = z.union([TraceEvent, PackedTrajectory]);

export const InitMessage = z.object({
  type: z.literal('init'),
  runId: RunId,
  /** In sequence order; trajectories may be packed (packEvents), role_calls may refer to `messages` by index. */
  events: z.array(z.union([TraceEvent, PackedTrajectory, SharedRoleCall])),
  /** The run's distinct chat messages (shareMessages); present when role_calls refer to them by index. */
  messages: z.array(ChatMessage).optional(),
  warnings: z.array(ViewerWarning),
  live: z.boolean().optional(),
  /** Turn to select after loading (e.g. the debugger's current turn). */
  selectTurn: Turn.optional(),
  /** The trajectories are an overview: `sent` of the run's `total` samples (the full ones come per zoom window). */
  overview: z.object({ total: Int, sent: Int }).optional(),
});

/** Events appended to a live run since the last init/append, in sequence order. */
export const AppendMessage = z.object({
  type: z.literal('append'),
  runId: RunId,
  events: z.array(ViewEventSchema),
  warnings: z.array(ViewerWarning).optional(),
});

/** The host (e.g. the debugger stopping at a turn) asks the view to select a turn. */
export const SelectTurnMessage = z.object({ type: z.literal('selectTurn'), turn: Turn });

/** Reply to a view request; `ok: false` carries a one-line error. */
export const ResponseMessage = z.object({
  type: z.literal('response'),
  requestId: RequestId,
  ok: z.boolean(),
  error: z.string().optional(),
});

const I32 = z.instanceof(Int32Array);

/**
 * Answers a trajectoryWindow request: the run's samples with time in [tFrom, tTo] (the view's monotonic time axis),
 * every one of them when `full`, else min/max-decimated to the requested buckets (every spike kept). Columns are
 * the plot series; `turn` is each sample's turn. `ok: false` carries a one-line error and no columns.
 */
export const TrajectoryWindowMessage = z
  .object({
    type: z.literal('trajectoryWindow'),
    requestId: RequestId,
    ok: z.boolean(),
    error: z.string().optional(),
    tFrom: z.number(),
    tTo: z.number(),
    /** Samples of the run inside the window. */
    count: Int,
    full: z.boolean(),
    t: F64,
    x: F64,
    y: F64,
    z: F64,
    yawRad: F64,
    gripperWidth: F64,
    turn: I32,
    /** Several arms: each sample's 5 numbers per arm (x, y, z, yaw, finger width), as in PackedTrajectory. */
    armsWidth: Int.optional(),
    arms: F64.optional(),
  })
  .superRefine((w, ctx) => {
    const n = w.t.length;
    if ([w.x, w.y, w.z, w.yawRad, w.gripperWidth, w.turn].some((c) => c.length !== n)) ctx.addIssue({ code: 'custom', message: 'window columns differ in length' });
    // NaN in `arms` marks a sample recorded without them (the plots leave a gap).
    if ((w.arms === undefined) !== (w.armsWidth === undefined) || (w.arms && w.arms.length !== n * w.armsWidth!)) ctx.addIssue({ code: 'custom', message: 'window arms do not match n × armsWidth' });
    for (const c of [w.t, w.x, w.y, w.z, w.yawRad, w.gripperWidth]) for (let i = 0; i < n; i++) if (!Number.isFinite(c[i])) return ctx.addIssue({ code: 'custom', message: 'non-finite number in a window column' });
    for (let i = 1; i < n; i++) if (w.t[i] < w.t[i - 1]) return ctx.addIssue({ code: 'custom', message: 'window times are not sorted' });
  });
export type TrajectoryWindowMessage = z.infer<typeof TrajectoryWindowMessage>;

export const HostToView = z.discriminatedUnion('type', [InitMessage, AppendMessage, SelectTurnMessage, ResponseMessage, TrajectoryWindowMessage]);
export type HostToView = z.infer<typeof HostToView>;

// Same rules as HostToView, checked in two steps: the envelope with `events` left open, then each event on its
// own. Validating a 100k-sample init in one safeParse call is about 4x slower in Chromium than event by event.
const Envelope = z.discriminatedUnion('type', [
  InitMessage.extend({ events: z.array(z.unknown()) }),
  AppendMessage.extend({ events: z.array(z.unknown()) }),
  SelectTurnMessage,
  ResponseMessage,
  TrajectoryWindowMessage,
]);

/** A host message as the view handles it: init's shared messages resolved into each role_call. */
export type ViewMessage = HostToView extends infer M ? (M extends { type: 'init' } ? Omit<M, 'events' | 'messages'> & { events: ViewEvent[] } : M) : never;

export type HostToViewParse = { success: true; data: ViewMessage } | { success: false; error: string };

/**
 * Validates a message from the host: accepted exactly when HostToView.safeParse accepts it and every message
 * index is in range; the role_calls of an init come back with their messages resolved (shared objects).
 */
export function parseHostToView(data: unknown): HostToViewParse {
  const env = Envelope.safeParse(data);
  if (!env.success) {
    const issue = env.error.issues[0];
    return { success: false, error: `${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'schema mismatch'}` };
  }
  const m = env.data;
  if (m.type !== 'init' && m.type !== 'append') return { success: true, data: m as ViewMessage };
  const table = m.type === 'init' ? m.messages : undefined;
  const events: ViewEvent[] = new Array(m.events.length);
  for (let i = 0; i < m.events.length; i++) {
    const raw = m.events[i];
    const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
    const refs = m.type === 'init' && type === 'role_call' ? (raw as { messages?: unknown }).messages : undefined;
    const shared = Array.isArray(refs) && refs.length > 0 && refs.every((x) => typeof x === 'number');
    // A shared role_call: the event is checked without its messages, each index against the table (checked once).
    const r = type === 'trajectory_packed' ? PackedTrajectory.safeParse(raw) : TraceEvent.safeParse(shared ? { ...(raw as object), messages: [] } : raw);
    if (!r.success) {
      if (shared) {
        const sr = SharedRoleCall.safeParse(raw);
        if (!sr.success) return { success: false, error: `events.${i}: ${sr.error.issues[0]?.path.join('.')}: ${sr.error.issues[0]?.message ?? 'invalid role_call'}` };
      }
      const issue = r.error.issues[0];
      return { success: false, error: `events.${i}${issue?.path.length ? '.' + issue.path.join('.') : ''}: ${issue?.message ?? 'invalid trace event'}` };
    }
    if (shared) {
      const ids = refs as number[];
      const bad = ids.findIndex((k) => !Number.isInteger(k) || k < 0 || !table || k >= table.length);
      if (bad >= 0) return { success: false, error: `events.${i}.messages.${bad}: message index ${ids[bad]} is not in the init's ${table?.length ?? 0} messages` };
      (r.data as { messages: ChatMessage[] }).messages = ids.map((k) => table![k]);
    }
    events[i] = r.data as ViewEvent;
  }
  const { messages: _table, ...rest } = m as typeof m & { messages?: unknown };
  return { success: true, data: { ...rest, events } as ViewMessage };
}

// ---- view -> host ----

/** Posted once the script runs; after a revive it carries the run id kept in setState so the host can reload it. */
export const ReadyMessage = z.object({ type: z.literal('ready'), runId: RunId.optional() });

/** The user selected a turn (the host may sync the debugger or the prompt editor). */
export const TurnSelectedMessage = z.object({ type: z.literal('selectTurn'), runId: RunId, turn: Turn });

/** Request: open a prompt file in the editor. Answered by a `response` with the same requestId. */
export const OpenPromptMessage = z.object({
  type: z.literal('openPrompt'),
  requestId: RequestId,
  path: z.string().min(1).max(4096),
  /** 1-based line, when known. */
  line: z.number().int().positive().optional(),
});

/** Request: the full samples of a time window (the user zoomed into a plot of an overview). */
export const TrajectoryWindowRequest = z.object({
  type: z.literal('trajectoryWindow'),
  requestId: RequestId,
  tFrom: z.number(),
  tTo: z.number(),
  /** Plot width in pixels: more samples than 4 per bucket come min/max-decimated. */
  buckets: z.number().int().min(1).max(16384),
});
export type TrajectoryWindowRequest = z.infer<typeof TrajectoryWindowRequest>;

/** Request: open another run of this workspace (a fork's original) in its own viewer. Answered by a `response`. */
export const OpenRunMessage = z.object({ type: z.literal('openRun'), requestId: RequestId, runId: RunId });

/** The view received a message that failed validation and ignored it. */
export const InvalidMessageReport = z.object({
  type: z.literal('invalidMessage'),
  /** The `type` field of the rejected message, if it had a string one. */
  receivedType: z.string().max(100).optional(),
  message: z.string().max(2000),
});

export const ViewToHost = z.discriminatedUnion('type', [ReadyMessage, TurnSelectedMessage, OpenPromptMessage, TrajectoryWindowRequest, OpenRunMessage, InvalidMessageReport]);
export type ViewToHost = z.infer<typeof ViewToHost>;

/** Only UI state goes into the webview's setState (the trace itself is reloaded by run id). */
export const RunViewerUiState = z.object({
  runId: RunId.optional(),
  selectedTurn: Turn.optional(),
  /** The core tabs (turn, plots, summary, 3d) or an architecture's own (webview/runViewer/extraTabs.ts: add its id
   * here, so a restored state naming any other tab is refused). */
  tab: z.enum(['turn', 'plots', 'summary', '3d', 'plan', 'rounds', 'floorplan', 'steps', 'perception', 'poses', 'detector', 'reach', 'paths', 'detections']).optional(),
});
export type RunViewerUiState = z.infer<typeof RunViewerUiState>;

/** Requests the view may time out on (ms). */
export const VIEW_REQUEST_TIMEOUT_MS = 10_000;

// Messages of the sweep comparison webview (webview/sweepMatrix, host: src/extension/panels/sweepMatrixPanel.ts).
// The host sends the sweep's episode records once with the matrix against every possible baseline column (a few
// columns: small), so choosing another baseline needs no round trip. A side-by-side pair is asked for by episode keys:
// the host reads both traces and answers with the projection (core/trace/projections/sideBySide.ts). Both directions
// are parsed: a webview's message is untrusted input, and the host honours only keys of this sweep.
import * as z from 'zod';

const Key = z.string().min(1).max(512);

/** An episode record (core/sweep/record.ts) as the view needs it; other fields are kept. */
export const ViewRecord = z
  .object({
    key: Key,
    task: z.string(),
    cell: z.string(),
    variant: z.string(),
    seed: z.number().int(),
    repeat: z.number().int(),
    success: z.boolean(),
    reason: z.string(),
    turns: z.number(),
    labels: z.array(z.object({ label: z.string(), turn: z.number().optional() }).passthrough()),
  })
  .passthrough();

const AnyRecord = z.record(z.string(), z.unknown());
const Interval = z.object({ low: z.number(), high: z.number() });

/** A cell of the matrix projection (core/sweep/matrix.ts MatrixCell) as the view reads it. */
export const ViewMatrixCell = z
  .object({
    task: z.string(),
    cell: z.string(),
    n: z.number().int(),
    successes: z.number().int(),
    rate: z.number().nullable(),
    ci95: Interval,
    turns: z.object({ mean: z.number().nullable() }).passthrough(),
    tokens: z.object({ mean: z.number().nullable() }).passthrough(),
    cost: z.object({ mean: z.number().nullable() }).passthrough(),
    vsBaseline: z
      .object({ baseline: z.string(), onlyBaseline: z.number(), onlyThis: z.number(), pairs: z.number(), mcnemarP: z.number(), fisherP: z.number(), significant: z.boolean(), direction: z.enum(['better', 'worse', 'same']) })
      .optional(),
    labels: z.record(z.string(), z.number()),
    keys: z.array(z.string()),
    /** The paper's number beside this cell (the sweep file's `paper:`), with whether our interval holds it. */
    paper: z.object({ rate: z.number(), n: z.number().optional(), ci: z.tuple([z.number(), z.number()]).optional(), source: z.string(), note: z.string().optional(), inside: z.boolean().nullable(), ours: z.object({ unit: z.string(), successes: z.number(), n: z.number(), rate: z.number().nullable(), ci95: Interval }).optional() }).optional(),
  })
  .passthrough();
export type ViewMatrixCell = z.infer<typeof ViewMatrixCell>;
export const ViewMatrix = z
  .object({
    tasks: z.array(z.string()),
    cells: z.array(z.string()),
    baseline: z.string(),
    alpha: z.number(),
    rows: z.array(z.array(ViewMatrixCell)),
    /** Each column's prompt version (a hash of its rendered prompts), when the sweep's plan records them. */
    promptVersions: z.record(z.string(), z.string()).optional(),
    /** The paper beside this run: citation, whether this run is a fixture (reference model), the pooled row. */
    paper: z.object({ citation: z.string(), metric: z.string().optional(), note: z.string().optional(), fixture: z.boolean(), pooled: z.array(ViewMatrixCell).optional() }).passthrough().optional(),
  })
  .passthrough();
export type ViewMatrix = z.infer<typeof ViewMatrix>;

export const SweepMatrixHostToView = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'),
    name: z.string(),
    subtitle: z.string(),
    tasks: z.array(z.string()),
    cells: z.array(z.string()),
    baseline: z.string(),
    /** The matrix against each column as baseline (the view switches between them without a round trip). */
    matrices: z.record(z.string(), ViewMatrix),
    /** With the labels in effect (hand edits from labels.json replace an episode's automatic ones). */
    records: z.array(ViewRecord),
    /** The model judge's proposals by episode key (judge.json): shown apart, marked as a model's proposal. */
    judge: z.object({ model: z.string(), proposals: z.record(z.string(), z.array(z.object({ label: z.string(), turn: z.number().optional(), evidence: z.string().optional() }).passthrough())) }).optional(),
  }),
  /** The answer to a `pair` request: the side-by-side projection, or why there is none. */
  z.object({ type: z.literal('pair'), leftKey: Key, rightKey: Key, view: AnyRecord.optional(), error: z.string().optional() }),
]);
export type SweepMatrixHostToView = z.infer<typeof SweepMatrixHostToView>;

export const SweepMatrixViewToHost = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** Open one episode in the run viewer (at the turn given, e.g. where its failure began). */
  z.object({ type: z.literal('openRun'), key: Key, turn: z.number().int().nonnegative().optional() }),
  /** Two episodes side by side. */
  z.object({ type: z.literal('pair'), leftKey: Key, rightKey: Key }),
]);
export type SweepMatrixViewToHost = z.infer<typeof SweepMatrixViewToHost>;

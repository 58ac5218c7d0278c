// Messages between the extension host and the child process that runs a paired on/off sweep
// (sweepWorkerMain.ts), over Node's IPC channel; both sides parse what they receive, as for live runs.
import * as z from 'zod';
import { LaunchWire, SimulatorWire } from './protocol.js';

export const SweepWire = LaunchWire.omit({ seed: true }).extend({
  ablation: z.string().min(1),
  seeds: z.number().int().positive(),
});
export type SweepWire = z.infer<typeof SweepWire>;

export const HostToSweepWorker = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), sweep: SweepWire, simulator: SimulatorWire }),
  z.object({ type: z.literal('cancel') }),
]);
export type HostToSweepWorker = z.infer<typeof HostToSweepWorker>;

export const SweepWorkerToHost = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('progress'),
    done: z.number().int().nonnegative(),
    total: z.number().int().positive(),
    seed: z.number().int().nonnegative(),
    side: z.enum(['on', 'off']),
    phase: z.enum(['start', 'end']),
    success: z.boolean().optional(),
  }),
  /** The sweep file as written; the host parses it with SweepFile. */
  z.object({ type: z.literal('done'), path: z.string(), file: z.unknown() }),
  /** Bad input (unknown ablation, variant, ...) or a bug: no sweep.json. */
  z.object({ type: z.literal('failed'), message: z.string() }),
  z.object({ type: z.literal('log'), message: z.string() }),
]);
export type SweepWorkerToHost = z.infer<typeof SweepWorkerToHost>;

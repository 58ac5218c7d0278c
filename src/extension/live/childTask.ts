// What the two child processes of the extension (one live episode, one paired sweep) share: the IPC send, the
// simulator factory, and the message loop — validate every message, start once, cancel on request or when the
// host goes away, report a failure, then exit even if a handle would keep Node alive. No `vscode` here.
import type * as z from 'zod';
import { connectSimulator } from '../../core/sim/connect.js';
import type { Simulator } from '../../core/sim/simulator.js';
import type { SimulatorWire } from './protocol.js';

export function sendToHost(message: unknown): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message as object, undefined, {}, () => resolve());
  });
}

export async function createSimulatorFromWire(spec: SimulatorWire, needs?: { family: 'tabletop' | 'household' }): Promise<Simulator> {
  return connectSimulator(spec.kind === 'embedded' ? (spec.spec ?? 'embedded') : spec.endpoint, {
    client: 'waypoint-vscode',
    family: needs?.family,
    onLog: (log) => void sendToHost({ type: 'log', message: `simulator: ${log.message}` }),
  });
}

export function serveChildTask<M extends { type: string }>(o: {
  name: string;
  schema: z.ZodType<M>;
  cancel(): void;
  /** Runs the task for the first `start` message (later ones are ignored). */
  start(message: Exclude<M, { type: 'cancel' }>): Promise<void>;
}): void {
  let started = false;
  const finish = (code: number) => {
    // Let the IPC channel drain, then leave.
    process.disconnect?.();
    setTimeout(() => process.exit(code), 50).unref();
  };
  process.on('message', (raw: unknown) => {
    const parsed = o.schema.safeParse(raw);
    if (!parsed.success) {
      void sendToHost({ type: 'log', message: `${o.name}: ignored an invalid message: ${parsed.error.issues[0]?.message ?? 'schema mismatch'}` });
      return;
    }
    const m = parsed.data;
    if (m.type === 'cancel') return o.cancel();
    if (started) return;
    started = true;
    o.start(m as Exclude<M, { type: 'cancel' }>).then(
      () => finish(0),
      async (err: unknown) => {
        await sendToHost({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
        finish(1);
      },
    );
  });
  // The host went away (window closed, extension host restarted): stop; a trace in flight ends 'cancelled'.
  process.on('disconnect', () => o.cancel());
}

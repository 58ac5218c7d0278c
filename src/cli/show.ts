// `waypoint show`: the transcript of a recorded run, read tolerantly (a truncated trace still shows).
import { resolve } from 'node:path';
import { nodeIO } from '../core/node/nodeHost.js';
import { listRuns, tracePath } from '../core/runs/runStore.js';
import { readTrace } from '../core/trace/reader.js';
import { formatEvent } from './transcript.js';

export async function showCommand(target: string | undefined, a: { workspace?: string; verbose?: boolean }, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const ws = resolve(a.workspace ?? process.cwd());
  let path: string;
  if (!target) {
    const newest = (await listRuns(nodeIO, ws))[0];
    if (!newest) {
      process.stderr.write('waypoint show: no runs under .waypoint/runs\n');
      return 2;
    }
    path = newest.path;
  } else {
    path = target.endsWith('.jsonl') ? resolve(target) : tracePath(ws, target);
  }
  if (!(await nodeIO.exists(path))) {
    process.stderr.write(`waypoint show: no trace at ${path}\n`);
    return 2;
  }
  const { events, warnings } = readTrace(await nodeIO.readText(path));
  const color = Boolean((out as NodeJS.WriteStream).isTTY) && !process.env.NO_COLOR;
  for (const w of warnings) out.write(`warning: ${w.message}\n`);
  for (const e of events) {
    const text = formatEvent(e, { color, verbose: a.verbose ?? false });
    if (text) out.write(text + '\n');
  }
  if (!events.some((e) => e.type === 'episode_end')) out.write('(the trace has no episode_end: the run was interrupted or is still running)\n');
  return 0;
}

// `waypoint show`: the transcript of a recorded run, read tolerantly (a truncated trace still shows).
import { resolve } from 'node:path';
import { nodeIO } from '../core/node/nodeHost.js';
import { listRuns, tracePath } from '../core/runs/runStore.js';
import { readTrace } from '../core/trace/reader.js';
import { WORKSPACE_OPTIONS } from './commonOptions.js';
import { defineCommand, UsageError } from './options.js';
import { formatEvent, visionTally } from './transcript.js';

/** The trace a `show`/`report` argument names: a run id under the workspace, a trace.jsonl path, or the newest run. */
export async function resolveTraceArg(target: string | undefined, workspace: string): Promise<string> {
  if (!target) {
    const newest = (await listRuns(nodeIO, workspace))[0];
    if (!newest) throw new UsageError(`no runs under ${workspace}/.waypoint/runs (start one with \`waypoint run\`)`);
    return newest.path;
  }
  const path = target.endsWith('.jsonl') ? resolve(target) : tracePath(workspace, target);
  if (!(await nodeIO.exists(path))) {
    throw new UsageError(target.endsWith('.jsonl') ? `no trace file at ${path}` : `no run '${target}' under ${workspace}/.waypoint/runs (\`waypoint runs\` lists them)`);
  }
  return path;
}

export async function showCommand(target: string | undefined, a: { workspace?: string; verbose?: boolean }, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  let path: string;
  try {
    path = await resolveTraceArg(target, resolve(a.workspace ?? process.cwd()));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`waypoint show: ${err.message}\n`);
    return 2;
  }
  const { events, warnings } = readTrace(await nodeIO.readText(path));
  const color = Boolean((out as NodeJS.WriteStream).isTTY) && !process.env.NO_COLOR;
  for (const w of warnings) out.write(`warning: ${w.message}\n`);
  const start = events.find((e) => e.type === 'episode_start');
  const arch = start?.type === 'episode_start' ? start.arch : undefined;
  const vision = visionTally();
  for (const e of events) {
    const text = formatEvent(e, { color, verbose: a.verbose ?? false, arch, vision });
    if (text) out.write(text + '\n');
  }
  if (!events.some((e) => e.type === 'episode_end')) out.write('(the trace has no episode_end: the run was interrupted or is still running)\n');
  return 0;
}

export const showCmd = defineCommand({
  name: 'show',
  summary: 'print the transcript of a recorded run',
  positionals: [{ name: 'run', optional: true, help: 'a run id (see `waypoint runs`) or a trace.jsonl file; default: the newest run' }],
  options: {
    verbose: { type: 'boolean', help: 'print whole messages and states' },
    ...WORKSPACE_OPTIONS,
  },
  exitStatus: '0, 2 no such run or bad input.',
  run: ({ values, positionals }) => showCommand(positionals[0], values),
});

// A live run of a workspace architecture through the product path (the run child under tsx, as liveRun.test.ts):
// the host names the roots it loaded (`architectureRoots`, from waypoint.architectures.paths), the warm process
// loads them again before each run, so cap runs, a syntax error added since is the run's failure with file:line,
// and the fix runs again in the same process.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readTrace } from '../../../../src/core/trace/reader.js';
import { LiveRun, type LiveRunOptions } from '../../../../src/extension/live/liveRun.js';
import { RunProcesses } from '../../../../src/extension/live/runProcess.js';

const tmp = mkdtempSync(join(tmpdir(), 'waypoint-live-arch-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const ws = join(tmp, 'ws');
const shared = join(tmp, 'shared');
cpSync(join(process.cwd(), 'examples/architectures/cap'), join(shared, 'cap'), { recursive: true });

const options = (processes: RunProcesses): LiveRunOptions => ({
  modulePath: join(process.cwd(), 'src/extension/live/workerEntry.ts'),
  execArgv: ['--import', 'tsx'],
  launch: { workspace: ws, arch: 'cap', task: 'stack_blocks', seed: 0, builtInPromptRoot: join(process.cwd(), 'src', 'architectures'), model: { kind: 'reference' }, options: {}, cache: false, architectureRoots: [shared] },
  simulator: { kind: 'embedded' },
  processes,
});

test('cap from a setting folder runs in the warm run process; a broken edit fails the next run with file:line; the fix runs', async () => {
  const processes = new RunProcesses({ modulePath: options(undefined as never).modulePath, execArgv: ['--import', 'tsx'], keepWarm: () => true });
  try {
    const first = await LiveRun.start(options(processes)).done;
    assert.ok(first.tracePath, `a trace: ${first.reason} ${first.message ?? ''}`);
    const start = readTrace(readFileSync(first.tracePath, 'utf8')).events[0];
    assert.equal(start?.type === 'episode_start' && start.arch, 'cap');
    assert.equal(first.reason, 'task_completed', `${first.reason}: ${first.message}`);

    const loop = join(shared, 'cap', 'loop.ts');
    const good = readFileSync(loop, 'utf8');
    writeFileSync(loop, `${good}\nexport const broken = ;\n`);
    const broken = LiveRun.start(options(processes));
    assert.equal(broken.warm, true, 'the same warm process');
    const refused = await broken.done;
    assert.equal(refused.tracePath, undefined, 'no run started');
    assert.match(`${refused.reason} ${refused.message ?? ''}`, /loop\.ts:\d+: architecture 'cap' refused/);

    writeFileSync(loop, good);
    const fixed = await LiveRun.start(options(processes)).done;
    assert.equal(fixed.reason, 'task_completed', `${fixed.reason}: ${fixed.message}`);
  } finally {
    processes.dispose();
  }
});

// `waypoint run --sim stdio:...` with the toy Python simulator of bridges/python/examples as a user runs it: MALMM
// and the reference model solve its stack task, and the agents read MALMM's state format rendered from the toy's
// structured state, not the toy's own text.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readTrace } from '../../../src/core/trace/reader.js';
import { freshCli } from '../../helpers/dist.js';
import { skipWithout } from '../../helpers/prereqs.js';

const cli = freshCli();
const ws = mkdtempSync(join(tmpdir(), 'waypoint-toysim-'));
after(() => rmSync(ws, { recursive: true, force: true }));

test('run --sim "stdio:python3 bridges/python/examples/toy_tabletop.py" --task stack --model reference succeeds', { skip: skipWithout('python3') }, () => {
  const toy = join(process.cwd(), 'bridges', 'python', 'examples', 'toy_tabletop.py');
  const r = spawnSync(process.execPath, [cli, 'run', '--sim', `stdio:python3 ${toy}`, '--task', 'stack', '--model', 'reference'], { cwd: ws, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 0, r.stdout.slice(-2000) + r.stderr);
  assert.match(r.stdout, /success check: PASS/);
  const trace = /^trace: (.+trace\.jsonl)$/m.exec(r.stdout)?.[1];
  assert.ok(trace, r.stdout);
  const { events } = readTrace(readFileSync(trace, 'utf8'));
  const start = events[0]!;
  assert.ok(start.type === 'episode_start' && start.arch === 'malmm' && start.agentVariant === 'malmm', JSON.stringify(start).slice(0, 300));
  const executor = events.find((e) => e.type === 'chat_message' && e.speaker === 'Executor');
  assert.ok(executor?.type === 'chat_message');
  // MALMM's state format, rendered from the toy's structured state (its own text reads "red_block: center [...]").
  assert.match(executor.content, /\*\*red_block\*\* :\nCenter Position: \[/);
  assert.doesNotMatch(executor.content, /red_block: center/);
  // The toy names objects with underscores; the task sentence says "red block": the plan still grasps it.
  assert.ok(events.some((e) => e.type === 'api_call' && e.fn === 'close_gripper' && e.args[0] === 'red_block'));
});

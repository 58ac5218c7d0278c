// `waypoint run --human Alice`: a person types Alice's RoCo dialog turns at the terminal (here: piped stdin); the
// reference model plays Bob; the trace marks Alice's turns as human and the person saw Alice's view.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readTrace } from '../../../src/core/trace/reader.js';
import { freshCli } from '../../helpers/dist.js';

const cli = freshCli();
const ws = mkdtempSync(join(tmpdir(), 'waypoint-human-'));
after(() => rmSync(ws, { recursive: true, force: true }));

test('run --human Alice: the typed turn (up to a blank line) is Alice\'s, marked human; Bob is the model; the seat shows Alice\'s view', () => {
  const typed = 'I am Alice, typed by a person.\nI wait this round. PROCEED\n\n';
  const r = spawnSync(process.execPath, [cli, 'run', '--arch', 'roco', '--task', 'handover', '--human', 'Alice', '--limit', 'maxRounds=1'], { cwd: ws, encoding: 'utf8', input: typed, env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /robots: Alice, Bob \(typed by a person: Alice\)/);
  assert.match(r.stdout, /I am Alice, typed by a person\.\n +I wait this round\. PROCEED/);
  assert.match(r.stderr, /your turn as Alice \(round 1, turn 1\)/);
  assert.match(r.stderr, /You are in Alice's seat/);
  assert.match(r.stderr, /wrench is on the table, at \(/);
  const trace = /^trace: (.+trace\.jsonl)$/m.exec(r.stdout)![1]!;
  const { events } = readTrace(readFileSync(trace, 'utf8'));
  const calls = events.filter((e) => e.type === 'role_call');
  assert.deepEqual(calls.map((c) => [c.agent, Boolean(c.type === 'role_call' && c.human)]), [['Alice', true], ['Bob', false]]);
  const end = events.at(-1)!;
  assert.equal(end.type === 'episode_end' && end.metrics.humanTurns, 1);
});

test('run --human Alice: end of input gives up the seat and cancels the episode', () => {
  const r = spawnSync(process.execPath, [cli, 'run', '--arch', 'roco', '--task', 'handover', '--human', 'Alice'], { cwd: ws, encoding: 'utf8', input: '', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /cancel/i);
});

test('run --human: a topology without seats (Central Plan) or a robot that is not in the task is refused, not ignored', () => {
  const central = spawnSync(process.execPath, [cli, 'run', '--arch', 'roco', '--task', 'handover', '--variant', 'central_plan', '--human', 'Alice'], { cwd: ws, encoding: 'utf8', input: '', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(central.status, 2, central.stderr);
  assert.match(central.stderr, /^waypoint run: roco\/central has no agent seat a person can take \(topologies with seats: dialog, /m);
  const malmm = spawnSync(process.execPath, [cli, 'run', '--arch', 'malmm', '--task', 'put_block', '--human', 'robot'], { cwd: ws, encoding: 'utf8', input: '', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(malmm.status, 2, malmm.stderr);
  assert.match(malmm.stderr, /malmm\/malmm has no agent seat a person can take \(no malmm topology has one\)/);
  const nobody = spawnSync(process.execPath, [cli, 'run', '--arch', 'roco', '--task', 'handover', '--human', 'Zed'], { cwd: ws, encoding: 'utf8', input: '', env: { ...process.env, NO_COLOR: '1' } });
  assert.equal(nobody.status, 2, nobody.stderr);
  assert.match(nobody.stderr, /no agent 'Zed' for a person to play in this episode; agents: Alice, Bob/);
});

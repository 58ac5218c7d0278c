// The conventions every `waypoint` command keeps, checked on the built CLI as a user meets it: `--help` on every
// command (exit 0, every declared option listed); output piped into a reader that stops after one line ends
// quietly (no stack trace, exit 0 or 141, no process left); `demo` stopped by SIGTERM mid-episode leaves no
// process of its tree behind and its trace ends "cancelled".
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { COMMANDS } from '../../../src/cli/commands.js';
import { readTrace } from '../../../src/core/trace/reader.js';
import { freshCli } from '../../helpers/dist.js';

const cli = freshCli();
const ws = mkdtempSync(join(tmpdir(), 'waypoint-conventions-'));
after(() => rmSync(ws, { recursive: true, force: true }));
const env = { ...process.env, NO_COLOR: '1' };

/** Live (non-zombie) processes whose process group is `pgid`. */
function processGroup(pgid: number): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // After "(comm)": state, ppid, pgrp, ...
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') out.push({ pid: Number(name), cmd: readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim() });
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

async function groupGone(pgid: number, limitMs = 10_000): Promise<{ pid: number; cmd: string }[]> {
  for (let waited = 0; waited < limitMs; waited += 100) {
    const left = processGroup(pgid);
    if (left.length === 0) return [];
    await new Promise((r) => setTimeout(r, 100));
  }
  return processGroup(pgid);
}

/**
 * Starts the CLI in its own process group, reads its stdout until `untilLine` matches (default: the first line),
 * then closes the read end as `head -1` would. Resolves with its exit, stderr and the processes of its group left.
 */
async function readThenClose(args: string[], untilLine: RegExp = /./): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; firstLines: string[]; left: { pid: number; cmd: string }[] }> {
  const child = spawn(process.execPath, [cli, ...args], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on('exit', (c, s) => r([c, s])));
  const firstLines: string[] = [];
  await new Promise<void>((resolve) => {
    let buf = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      buf += s;
      const lines = buf.split('\n');
      buf = lines.pop()!;
      firstLines.push(...lines);
      if (lines.some((l) => untilLine.test(l))) {
        child.stdout!.destroy();
        resolve();
      }
    });
    child.stdout!.on('close', () => resolve());
  });
  const [code, signal] = await exited;
  return { code, signal, stderr, firstLines, left: await groupGone(child.pid!) };
}

test('every command answers --help (and -h, and `waypoint help <command>`) with exit 0 and lists each of its options', () => {
  assert.ok(COMMANDS.length >= 9);
  const top = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8', env });
  assert.equal(top.status, 0);
  for (const cmd of COMMANDS) {
    if (cmd.hidden) assert.doesNotMatch(top.stdout, new RegExp(`^  ${cmd.name} `, 'm'), `${cmd.name} is internal: not listed`);
    else assert.match(top.stdout, new RegExp(`^  ${cmd.name} +\\S`, 'm'), `${cmd.name} in waypoint --help`);
    // Every command with --help; the other spellings once (they go through the same code).
    const spellings = cmd.name === 'run' ? [['run', '-h'], ['help', 'run'], ['run', '--seed', 'x', '--help']] : [];
    for (const args of [[cmd.name, '--help'], ...spellings]) {
      const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env, timeout: 20_000 });
      assert.equal(r.status, 0, `${args.join(' ')}: exit ${r.status} ${r.stderr}`);
      assert.equal(r.stderr, '', `${args.join(' ')}: nothing on stderr`);
      assert.match(r.stdout, new RegExp(`^waypoint ${cmd.name} — `), args.join(' '));
      assert.match(r.stdout, /^ +-h, --help +show this help and exit$/m);
      for (const name of Object.keys(cmd.options)) assert.match(r.stdout, new RegExp(`^  --${name}\\b`, 'm'), `${cmd.name} --help lists --${name}`);
    }
  }
  // Help comes from the same declaration that parses: a declared choice list is shown and enforced.
  const report = spawnSync(process.execPath, [cli, 'report', '--help'], { encoding: 'utf8', env }).stdout;
  assert.match(report, /--theme <value> +colour theme of the page; one of: dark, light, high-contrast; default: dark/);
  // `demo --help` does not start the demo.
  const demo = spawnSync(process.execPath, [cli, 'demo', '--help'], { encoding: 'utf8', env, timeout: 10_000 });
  assert.doesNotMatch(demo.stdout, /^\[serve-model\]|^Waypoint run/m);
});

test('listings piped into a reader that stops after one line end quietly: no stack trace, exit 0 or 141, nothing left running', async () => {
  // Enough runs (and a long enough transcript) that the output outgrows the pipe buffer before the reader stops.
  const fixture = join(process.cwd(), 'test', 'fixtures', 'traces', 'malmm-pick-place.jsonl');
  for (let i = 0; i < 400; i++) {
    const dir = join(ws, '.waypoint', 'runs', `20260101-000000-malmm-pick_place-s${i}-${String(i).padStart(4, '0')}`);
    mkdirSync(dir, { recursive: true });
    cpSync(fixture, join(dir, 'trace.jsonl'));
  }
  const listings = [['runs'], ['runs', '--json'], ['tasks'], ['show', fixture, '--verbose'], ['scene', 'stack_blocks'], ['--help'], ['run', '--help']];
  for (const args of listings) {
    const r = await readThenClose(args);
    const what = `waypoint ${args.join(' ')} | head -1`;
    assert.ok(r.firstLines.length >= 1, what);
    assert.ok(r.code === 0 || r.code === 141, `${what}: exit ${r.code ?? r.signal}; ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /EPIPE|^\s+at /m, `${what}: no stack trace`);
    assert.deepEqual(r.left, [], `${what}: no process left`);
  }
});

test('demo | head -3: the demo and its serve-model stop, exit 141, no process left', async () => {
  const r = await readThenClose(['demo', '--task', 'stack_blocks_2'], /^Waypoint run /);
  assert.ok(r.firstLines.some((l) => l.startsWith('[serve-model] reference model (scripted, not an LLM) listening on')));
  assert.ok(r.code === 141 || r.code === 0, `exit ${r.code ?? r.signal}; ${r.stderr}`);
  assert.doesNotMatch(r.stderr, /EPIPE|^\s+at /m);
  assert.deepEqual(r.left, [], 'no serve-model, sandbox worker or demo left');
});

test('demo stopped by SIGTERM mid-episode: nothing of its tree is left, exit 143, the trace ends "cancelled"', async () => {
  const child = spawn(process.execPath, [cli, 'demo', '--task', 'stack_blocks_2'], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      stdout += s;
      // Mid-episode: the Coder has written a block (so the sandbox worker is up too).
      if (/\[turn +\d+\] Coder\n/.test(stdout)) resolve();
    });
    child.on('exit', () => reject(new Error(`demo ended before the kill: ${stdout}\n${stderr}`)));
  });
  const before = processGroup(child.pid!);
  assert.ok(before.some((p) => p.cmd.includes('serve-model')), `serve-model runs: ${JSON.stringify(before)}`);
  process.kill(child.pid!, 'SIGTERM');
  const code = await exited;
  assert.equal(code, 143, stderr);
  assert.deepEqual(await groupGone(child.pid!), [], 'no process of the demo tree is left');
  assert.doesNotMatch(stderr, /^\s+at /m);
  await new Promise((r) => setTimeout(r, 50));
  const trace = /^trace: (.+)$/m.exec(stdout)?.[1];
  assert.ok(trace, stdout.slice(-500));
  const end = readTrace(readFileSync(trace, 'utf8')).events.at(-1);
  assert.equal(end?.type === 'episode_end' && end.reason, 'cancelled');
});

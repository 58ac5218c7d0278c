// Issue 23's acceptance, as a user meets it: a workspace holding only examples/architectures/cap/ copied into
// .waypoint/architectures/ runs `waypoint run --arch cap --task stack_blocks --model reference` to a success, lists
// it in `waypoint archs` as a workspace architecture, and the same folder with a syntax error is refused with its
// file:line and exit 2 (other commands warn and go on).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { freshCli, PACKAGE_ROOT } from '../../helpers/dist.js';

const cli = freshCli();
const root = mkdtempSync(join(tmpdir(), 'waypoint-ws-arch-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A workspace with only the example copied in, as the README says to. */
function workspaceWithCap(name: string): string {
  const ws = join(root, name);
  cpSync(join(PACKAGE_ROOT, 'examples', 'architectures', 'cap'), join(ws, '.waypoint', 'architectures', 'cap'), { recursive: true });
  return ws;
}

function waypoint(ws: string, args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: ws, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', WAYPOINT_ARCHITECTURE_PATH: '' }, timeout: 240_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('the CaP example copied into a workspace runs stack_blocks with the reference model to a success, prompts from its folder', () => {
  const ws = workspaceWithCap('ok');
  const r = waypoint(ws, ['run', '--arch', 'cap', '--task', 'stack_blocks', '--model', 'reference']);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  assert.match(r.stdout, /prompts policy\.prompt from \.waypoint\/architectures\/cap\/prompts/);
  assert.match(r.stdout, /success check: PASS/);
  const trace = /^trace: (.+trace\.jsonl)$/m.exec(r.stdout)?.[1] ?? assert.fail(r.stdout);
  const events = readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  // One model call and one program run once: CaP's loop, not MALMM's.
  assert.equal(events.filter((e) => e.type === 'role_call').length, 1);
  assert.equal(events.filter((e) => e.type === 'code_execution').length, 1);
  assert.deepEqual(events.at(-1)?.success, true);

  const archs = waypoint(ws, ['archs']);
  assert.equal(archs.status, 0, archs.stderr);
  assert.match(archs.stdout, /^cap — Code as Policies: .*\[workspace: \.waypoint\/architectures\/cap\]$/m);
  // The built-ins are not marked.
  assert.match(archs.stdout, /^malmm — MALMM: [^[]*$/m);
});

test('the same folder with a syntax error: `run --arch cap` is refused at file:line with exit 2; `archs` warns and lists the rest', () => {
  const ws = workspaceWithCap('broken');
  const loop = join(ws, '.waypoint', 'architectures', 'cap', 'loop.ts');
  const line = readFileSync(loop, 'utf8').split('\n').length; // the appended line's number (the file ends with a newline)
  appendFileSync(loop, 'export const broken = ;\n');
  const r = waypoint(ws, ['run', '--arch', 'cap', '--task', 'stack_blocks', '--model', 'reference']);
  assert.equal(r.status, 2, r.stderr + r.stdout);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, new RegExp(`^waypoint run: \\.waypoint/architectures/cap/loop\\.ts:${line}: architecture 'cap' refused: Unexpected ";"\\n$`));
  const archs = waypoint(ws, ['archs']);
  assert.equal(archs.status, 0);
  assert.match(archs.stderr, /^warning: \.waypoint\/architectures\/cap\/loop\.ts:\d+: architecture 'cap' refused/m);
  assert.doesNotMatch(archs.stdout, /^cap —/m);
  assert.match(archs.stdout, /^malmm —/m);
});

// The `waypoint` CLI as a user runs it: dist/cli.mjs in a fresh folder, exit codes and one-line messages.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { freshCli } from '../../helpers/dist.js';

const cli = freshCli();
const ws = mkdtempSync(join(tmpdir(), 'waypoint-cli-'));
after(() => rmSync(ws, { recursive: true, force: true }));
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: ws, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

test('run: success exits 0, streams the transcript and prints the trace path; runs lists it', () => {
  const r = run('run', '--arch', 'malmm', '--task', 'stack_blocks_2', '--seed', '1', '--model', 'reference');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /model reference \(scripted, not an LLM\)/);
  const modelLine = r.stdout.split('\n').find((l) => l.startsWith('  model ')) ?? '';
  assert.equal(modelLine.match(/https?:\/\//g)?.length, 1, `the model line names its endpoint once: ${modelLine}`);
  // The Coder may say which step it writes before the block.
  assert.match(r.stdout, /\[turn +\d+\] Coder\n(?: +[^`\n].*\n)? +```python/);
  assert.match(r.stdout, /Executor ran coder's block: exit 0/);
  assert.match(r.stdout, /success check: PASS/);
  const trace = /^trace: (.+trace\.jsonl)$/m.exec(r.stdout)?.[1];
  assert.ok(trace && readFileSync(trace, 'utf8').includes('"episode_end"'));
  const runs = run('runs');
  assert.equal(runs.status, 0);
  assert.match(runs.stdout, /^run +result +arch +variant +task +seed +reason +turns +model$/m);
  assert.match(runs.stdout, /success +malmm\/malmm +default +stack_blocks_2 +1 +task_completed +\d+ +reference/);
  const show = run('show');
  assert.equal(show.status, 0);
  assert.match(show.stdout, /SUCCESS · task_completed/);
  const report = run('report', '--out', join(ws, 'r.html'));
  assert.equal(report.status, 0, report.stderr);
  const html = readFileSync(join(ws, 'r.html'), 'utf8');
  assert.match(html, /Content-Security-Policy/);
  assert.ok(html.includes('stack_blocks_2'));
  assert.doesNotMatch(html, /<script[^>]+src="https?:/, 'no remote scripts');
});

test('run --arch llamar --agents 2: the household, joint steps in the transcript, the paper\'s metrics; show reads it back', () => {
  const r = run('run', '--arch', 'llamar', '--task', 'turn_off_faucet_and_light@kitchen', '--model', 'reference', '--agents', '2');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /limits: maxSteps=30/);
  assert.match(r.stdout, /robots: Alice, Bob/);
  assert.match(r.stdout, /\[step +1\] Alice +NavigateTo ✓ I navigated to Faucet_1 in the previous step and was successful\./);
  assert.match(r.stdout, /SUCCESS · subtasks_done/);
  assert.match(r.stdout, /success 1 · transportRate 1 · coverage 1 · balance \d/);
  assert.doesNotMatch(r.stdout, /completed: \n/, 'an empty Verifier answer prints no dangling colon');
  const show = run('show');
  assert.equal(show.status, 0);
  assert.match(show.stdout, /\[step +2\] Alice +ToggleOff ✓/);
  const bad = run('run', '--arch', 'llamar', '--task', 'turn_off_faucet_and_light@kitchen', '--agents', '6');
  assert.equal(bad.status, 2);
});

test('run: an episode that fails exits 1; the turn cap is never exceeded', () => {
  const r = run('run', '--task', 'stack_blocks_2', '--max-turns', '3');
  assert.equal(r.status, 1);
  assert.match(r.stdout, /FAILURE · turn_cap \(stopped at the turn cap of 3 chat messages\)/);
  // The cap counts chat messages (Planner, Coder, Executor), not the Supervisor's routing turns between them.
  const said = r.stdout.match(/^\[turn +\d+\] (?:Planner|Coder|Executor)$/gm) ?? [];
  assert.equal(said.length, 3, said.join(' | '));
  assert.doesNotMatch(r.stdout, /\[turn +7\]/);
});

/** Exit 2, nothing on stdout, exactly one line on stderr matching `re`. */
function refused(r: ReturnType<typeof run>, re: RegExp): void {
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.equal(r.stdout, '', 'nothing on stdout');
  assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, `one line on stderr: ${r.stderr}`);
  assert.match(r.stderr, re);
}

test('bad input exits 2 with one line on stderr naming the cause and the valid choices; nothing looks like an episode', () => {
  refused(run('run', '--arch', 'voxposer'), /^waypoint run: unknown --arch 'voxposer'; valid: [a-z, ]*\bmalmm\b[a-z, ]*$/m);
  refused(run('run', '--task', 'juggle'), /^waypoint run: unknown task 'juggle'; malmm's tasks on waypoint-tabletop: stack_blocks, [a-z0-9_, ]*$/m);
  refused(run('run', '--task', 'stack_block'), /unknown task 'stack_block' \(did you mean 'stack_blocks'\?\)/);
  refused(run('run', '--variant', 'nope'), /^waypoint run: unknown variant 'nope'; known: default, ma, malmm, paper, sa, sa_nofeedback, waypoint$/m);
  refused(run('run', '--model', 'gpt-4'), /--model must be reference, reference-flawed or openai:<model-name>, got 'gpt-4'/);
  refused(run('run', '--seed', 'abc'), /--seed must be an integer, got 'abc'/);
  refused(run('run', '--seed', '99999999999999999999'), /^waypoint run: --seed must be an integer from -9007199254740991 to 9007199254740991, got '99999999999999999999'$/m);
  refused(run('run', '--max-turns', '0'), /--max-turns must be an integer ≥ 1, got '0'/);
  refused(run('run', '--colour'), /^waypoint run: unknown option '--colour' for 'waypoint run'/m);
  refused(run('run', '--seeds', '3'), /unknown option '--seeds' for 'waypoint run'; did you mean '--seed'\?/);
  refused(run('run', '--seed'), /--seed needs a value \(an integer\)/);
  refused(run('run', '--grasp', 'glue'), /^waypoint run: unknown --grasp 'glue'; valid: friction, weld$/m);
  refused(run('run', '--perception', 'xray'), /^waypoint run: unknown --perception 'xray'; valid: ground-truth, estimated$/m);
  refused(run('run', '--grasp', 'weld', '--sim', 'ws://127.0.0.1:1'), /^waypoint run: --grasp sets the embedded simulator's grasp model/m);
  refused(run('run', '--robot', 'ur5'), /^waypoint run: unknown --robot 'ur5'; valid: panda, iiwa$/m);
  refused(run('run', '--robot', 'iiwa', '--sim', 'ws://127.0.0.1:1'), /^waypoint run: --robot sets the embedded simulator's robot/m);
  refused(run('run', '--motion', 'teleport'), /^waypoint run: unknown --motion 'teleport'; valid: planned, straight$/m);
  refused(run('run', '--motion', 'straight', '--sim', 'ws://127.0.0.1:1'), /^waypoint run: --motion sets the embedded simulator's motion planning/m);
  refused(run('frobnicate'), /^waypoint: unknown command 'frobnicate'; commands: demo, run, runs, /);
  // Start failures are kept as traces marked "not started", and listed as such.
  const runs = run('runs');
  assert.match(runs.stdout, /not started +malmm +nope +stack_blocks +0 +invalid_input +- /);
  assert.doesNotMatch(runs.stdout, /undefined/);
});

test('a negative seed is a value, not an option', () => {
  const r = run('run', '--seed', '-1', '--task', 'stack_blocks_2', '--max-turns', '3');
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /task stack_blocks_2 · seed -1/);
});

test('silent fallbacks are errors naming what is wrong and the valid choices', () => {
  refused(run('run', '--prompts', '/nonexistent'), /^waypoint run: prompt folder \/nonexistent does not exist \(it should hold malmm's supervisor\.prompt, planner\.prompt, coder\.prompt, sa\.prompt\)$/m);
  refused(run('report', '--theme', 'foo'), /^waypoint report: unknown --theme 'foo'; valid: dark, light, high-contrast$/m);
  // A variant whose `off:` names an ablation id that no prompt it runs has.
  const vws = mkdtempSync(join(tmpdir(), 'waypoint-cli-variants-'));
  try {
    mkdirSync(join(vws, '.waypoint'));
    writeFileSync(join(vws, '.waypoint', 'variants.yaml'), 'active: lean\nvariants:\n  lean:\n    off: [planner.replan_chek]\n');
    refused(
      spawnSync(process.execPath, [cli, 'run'], { cwd: vws, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } }),
      /^waypoint run: variant 'lean' switches ablation 'planner\.replan_chek', which is not in the prompts malmm\/malmm runs \(supervisor\.prompt, planner\.prompt, coder\.prompt\); ids there: .*planner\.replan_check/m,
    );
  } finally {
    rmSync(vws, { recursive: true, force: true });
  }
});

test('openai:<model>: a hint when the key variable is unset, a refusal when the endpoint is OpenAI itself, and a refused loopback port fails at once with exit 3 (infrastructure, not a failed task)', () => {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.OPENAI_API_KEY;
  delete env.WAYPOINT_TEST_KEY;
  const openai = spawnSync(process.execPath, [cli, 'run', '--model', 'openai:gpt-4o-mini', '--api-key-env', 'WAYPOINT_TEST_KEY'], { cwd: ws, encoding: 'utf8', env });
  refused(openai, /^waypoint run: \$WAYPOINT_TEST_KEY is not set, and https:\/\/api\.openai\.com\/v1 needs an API key/m);
  // A port that was free a moment ago: nothing listens there.
  const port = Number(spawnSync(process.execPath, ['-e', "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"], { encoding: 'utf8' }).stdout.trim());
  const started = Date.now();
  const local = spawnSync(process.execPath, [cli, 'run', '--model', 'openai:llama', '--base-url', `http://127.0.0.1:${port}/v1`], { cwd: ws, encoding: 'utf8', env });
  const secs = (Date.now() - started) / 1000;
  assert.equal(local.status, 3, local.stderr);
  assert.match(local.stderr, /^note: \$OPENAI_API_KEY is not set; calling http:\/\/127\.0\.0\.1:\d+\/v1 without an API key/m);
  assert.match(local.stdout, /refused: nothing is listening on that port \(is the server running\?\)/);
  assert.match(local.stdout, /^FAILURE · model_error \(.*\) · the model endpoint failed: an infrastructure failure, not a task failure$/m);
  assert.match(local.stderr, /^waypoint run: infrastructure failure \(model_error\), not a task failure: /m);
  assert.doesNotMatch(local.stdout, /gave up after/);
  // One attempt, not five with backoff (which took about 8 s).
  assert.match(local.stdout, /1 model calls/);
  assert.ok(secs < 60, `${secs} s`);
});

test('a broken prompt folder: exit 2, one line naming the file and line once, no model call', () => {
  const dir = join(ws, 'myprompts');
  cpSync(join(process.cwd(), 'src', 'architectures', 'malmm', 'prompts'), dir, { recursive: true });
  writeFileSync(join(dir, 'planner.prompt'), readFileSync(join(dir, 'planner.prompt'), 'utf8').replace('  temperature: 0', '  temperature: 0\n  temperature: 1'));
  const r = run('run', '--prompts', dir);
  refused(r, /^waypoint run: prompt error: invalid YAML front matter: .* \(myprompts\/planner\.prompt:4\)$/m);
  assert.equal(r.stderr.split('planner.prompt').length - 1, 1, 'the path once');
});

test('a misspelt template variable ({{axess}} for {{axes}}): exit 2 before any model call, naming file:line, the names given and the near one', () => {
  const dir = join(ws, 'typo-prompts');
  cpSync(join(process.cwd(), 'src', 'architectures', 'malmm', 'prompts'), dir, { recursive: true });
  const text = readFileSync(join(dir, 'planner.prompt'), 'utf8');
  writeFileSync(join(dir, 'planner.prompt'), text.replace('{{axes}}', '{{axess}}'));
  const line = text.split('\n').findIndex((l) => l.includes('{{axes}}')) + 1;
  const r = run('run', '--arch', 'malmm', '--task', 'stack_blocks', '--prompts', dir);
  refused(r, new RegExp(`^waypoint run: prompt error: Undefined variable 'axess' \\(did you mean 'axes'\\?\\): malmm's planner prompt is given task, table_top_z, x_range, y_range, axes; 'axess' would render empty \\(typo-prompts/planner\\.prompt:${line}\\)$`, 'm'));
});

test('tasks: a header row, then one task per aligned row, name first; the README states the count', () => {
  const r = run('tasks');
  assert.equal(r.status, 0);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0], /^task +suite +arms +apis +imitates +description$/);
  assert.ok(lines.some((l) => /^stack_blocks +single-arm +1 +malmm /.test(l)));
  // Columns line up: every row has its second column where the header has it.
  const col = lines[0].indexOf('suite');
  assert.ok(lines.every((l) => l[col - 1] === ' ' && l[col] !== ' '), 'aligned');
  const n = lines.length - 1;
  assert.match(readFileSync(join(process.cwd(), 'README.md'), 'utf8'), new RegExp(`has ${n} tasks \\(\`waypoint tasks\`\\)`));
  const malmm = run('tasks', '--arch', 'malmm').stdout;
  assert.match(malmm, /^stack_blocks /m);
  assert.doesNotMatch(malmm, /^sort_cubes /m, 'a 3-arm RoCo task is not offered to MALMM');
  refused(run('tasks', '--arch', 'nope'), /unknown --arch 'nope'; valid: [a-z, ]*\bmalmm\b/);
});

test('archs lists every architecture with its limits by the seed names; --limit is checked against them; --sim is validated', () => {
  const a = run('archs');
  assert.equal(a.status, 0, a.stderr);
  assert.match(a.stdout, /^malmm — MALMM:/m);
  assert.match(a.stdout, /maxTurns +150 +an integer >= 1; Chat messages before the episode stops/);
  assert.match(a.stdout, /maxConsecutiveErrors +5 /);
  // The variants it lists are the ones --variant accepts (RoCo's `central` topology is the `central_plan` variant).
  const roco = a.stdout.slice(a.stdout.indexOf('\nroco — '), a.stdout.indexOf('\nactctx — '));
  const block = roco.slice(roco.indexOf('variants (--variant'), roco.indexOf('limits (--limit'));
  const listed = [...block.matchAll(/^ {4}([a-z_0-9]+) /gm)].map((x) => x[1]);
  assert.ok(listed.includes('central_plan') && listed.includes('no_history') && !listed.includes('central'), listed.join(', '));
  const bad = run('run', '--arch', 'roco', '--task', 'sort_cubes', '--variant', 'nope');
  assert.match(bad.stderr, new RegExp(`known: ${['default', ...listed].sort().join(', ')}$`, 'm'));
  const json = JSON.parse(run('archs', '--json').stdout) as { architectures: { id: string; limits: { id: string }[] }[] };
  assert.deepEqual(json.architectures.find((x) => x.id === 'malmm')?.limits.map((l) => l.id), ['maxTurns', 'maxConsecutiveErrors']);
  const unknown = run('run', '--task', 'stack_blocks_2', '--limit', 'maxRounds=3');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stdout + unknown.stderr, /unknown limit 'maxRounds' for malmm; its limits: maxTurns, maxConsecutiveErrors/);
  const malformed = run('run', '--limit', 'maxTurns');
  assert.equal(malformed.status, 2);
  assert.match(malformed.stderr, /--limit takes name=value/);
  const sim = run('run', '--sim', 'tcp://localhost:9');
  assert.equal(sim.status, 2);
  assert.match(sim.stderr, /unknown simulator 'tcp:\/\/localhost:9': expected embedded \(or embedded:robot=iiwa,...\), stdio:<command line> or ws:\/\/host:port/);
});

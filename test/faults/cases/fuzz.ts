// Fuzzed prompt files and traces: truncated, random bytes, huge lines, deep nesting, hostile keys. Fed to
// parsePromptFile, readTrace, `waypoint show` and `waypoint runs` (in-process and through the built CLI), and a
// fuzzed prompt through a whole run. Nothing may throw anything but the documented error (PromptError), and
// every failure must be a clear, bounded, one-line message.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { before, describe, it } from 'node:test';
import { runsCommand } from '../../../src/cli/runs.js';
import { showCommand } from '../../../src/cli/show.js';
import { seededRng, type Rng } from '../../../src/core/host.js';
import { parsePromptFile, PromptError, renderPrompt } from '../../../src/core/prompt/render.js';
import { readTrace } from '../../../src/core/trace/reader.js';
import { TraceEvent } from '../../../src/protocol/trace.js';
import { expectFailedEnd, faultCase, knownBug, launch, ofType, PACKAGE_ROOT, RECORDED, tally } from '../helpers/harness.js';
import { ROOT } from '../helpers/isolate.js';
import { cliEnv, runCli } from '../helpers/cli.js';

const MAX_MESSAGE = 1000;
const DEEP_ARGS = 'deep API call arguments';

function randomText(rng: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    // Mostly ASCII (so structure characters appear), some control characters, lone surrogates and astral chars.
    s += r < 0.7 ? String.fromCharCode(32 + Math.floor(rng.next() * 95)) : r < 0.8 ? '\n' : r < 0.9 ? String.fromCharCode(Math.floor(rng.next() * 32)) : r < 0.95 ? String.fromCharCode(0xd800 + Math.floor(rng.next() * 0x800)) : '\u{1f916}';
  }
  return s;
}

const deep = (open: string, close: string, n: number, inner = '') => open.repeat(n) + inner + close.repeat(n);
function deepBlockYaml(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += `${' '.repeat(i)}k${i}:\n`;
  return s;
}

/** Prompt-file inputs: every built-in prompt truncated at many points, plus random and adversarial texts. */
function promptInputs(): { name: string; text: string }[] {
  const rng = seededRng(0xfa017);
  const out: { name: string; text: string }[] = [];
  for (const role of ['supervisor', 'planner', 'coder', 'sa']) {
    const text = readFileSync(join(PACKAGE_ROOT, 'src', 'architectures', 'malmm', 'prompts', `${role}.prompt`), 'utf8');
    for (let i = 1; i < 24; i++) out.push({ name: `${role} truncated at ${i}/24`, text: text.slice(0, Math.floor((text.length * i) / 24)) });
    // Random bytes spliced into the real file.
    const at = Math.floor(rng.next() * text.length);
    out.push({ name: `${role} with random bytes`, text: text.slice(0, at) + randomText(rng, 200) + text.slice(at) });
  }
  for (let i = 0; i < 12; i++) out.push({ name: `random ${i}`, text: (i % 2 ? '---\n' : '') + randomText(rng, 500 + i * 300) });
  out.push(
    { name: 'huge body line', text: `---\nconfig:\n  temperature: 0\n---\n${'x'.repeat(2_000_000)}\n` },
    { name: 'huge front-matter value', text: `---\ndescription: ${'y'.repeat(1_000_000)}\n---\nhi\n` },
    { name: 'huge broken mustache', text: `hello {{${'z'.repeat(1_000_000)}` },
    { name: 'huge broken yaml line', text: `---\na: b: ${'c'.repeat(1_000_000)}\n---\nhi\n` },
    { name: 'deep YAML flow', text: `---\na: ${deep('[', ']', 20_000)}\n---\nhi\n` },
    { name: 'deep YAML mapping', text: `---\n${deepBlockYaml(3000)}---\nhi\n` },
    // Handlebars' parser needs ~1.5 s for 2000 levels and grows superlinearly (20 s at 5000): kept small here.
    { name: 'deep {{#if}}', text: deep('{{#if a}}', '{{/if}}', 2000, 'x') },
    { name: 'deep {{#ablation}}', text: deep('{{#ablation "a"}}', '{{/ablation}}', 300, 'x') },
    { name: 'deep {{#each}}{{#with}}', text: deep('{{#each a}}{{#with b}}', '{{/with}}{{/each}}', 150) },
    { name: 'unterminated front matter', text: '---\nconfig:\n  temperature: 0\nhi {{x}}\n' },
    { name: 'front matter is a list', text: '---\n- a\n- b\n---\nhi\n' },
    { name: 'front matter is a string', text: '---\njust text\n---\nhi\n' },
    { name: 'odd front-matter types', text: '---\ninput:\n  schema: [1, 2]\nconfig: 5\nwaypoint: null\nwaypoint.role: [x]\n---\nhi {{a}}\n' },
    { name: 'schema values of every type', text: '---\ninput:\n  schema:\n    a: null\n    b: 5\n    c: {x: 1}\n    d?: "string, doc, with, commas"\n---\n{{a}} {{b}}\n' },
    { name: '__proto__ keys', text: '---\n__proto__:\n  polluted: 1\ninput:\n  __proto__: {polluted: 1}\n  schema:\n    __proto__: string\n    constructor: string\n---\nhi {{constructor}}\n' },
    { name: 'NUL bytes and BOM', text: '\ufeff---\0\nconfig: {}\n---\n\0{{a}}\0' },
    { name: 'CRLF everywhere', text: '---\r\nconfig:\r\n  temperature: 0\r\n---\r\n{{role "system"}}\r\nhi\r\n' },
    { name: 'empty', text: '' },
    { name: 'only dashes', text: '---' },
  );
  return out;
}

/** A YAML "billion laughs" alias bomb in the front matter. */
const ALIAS_BOMB = ['---', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', ...'bcdefg'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefg'[i]}`).join(',')}]`), '---', 'hi', ''].join('\n');

function assertPromptErrorIsClear(e: unknown, path: string, name: string): void {
  assert.ok(e instanceof PromptError, `${name}: threw ${(e as Error)?.name}: ${(e as Error)?.message?.slice(0, 200)}`);
  assert.equal(e.file, path, name);
  assert.ok(!e.message.includes('\n'), `${name}: one-line message`);
  assert.ok(e.message.length <= MAX_MESSAGE, `${name}: message of ${e.message.length} characters`);
}

/** Parse, and render what parses: either works or raises a clear PromptError. */
async function checkPrompt(name: string, text: string): Promise<'ok' | 'error'> {
  const path = `/fuzz/${name.replace(/\W+/g, '_')}.prompt`;
  tally.fuzzInputs++;
  let file;
  try {
    file = parsePromptFile(path, text);
  } catch (e) {
    assertPromptErrorIsClear(e, path, name);
    return 'error';
  }
  try {
    const variables = Object.fromEntries(file.variables.map((v) => [v.name, 'value']));
    await renderPrompt(file, { variables, history: [{ role: 'user', content: 'hi' }] });
    return 'ok';
  } catch (e) {
    assertPromptErrorIsClear(e, path, `${name} (render)`);
    return 'error';
  }
}

// ---- traces ----

let traceInputsMemo: { name: string; text: string }[] | undefined;
/** Trace inputs derived from a real trace: truncations, corruptions, and adversarial lines (built once). */
function traceInputs(real: string): { name: string; text: string }[] {
  traceInputsMemo ??= makeTraceInputs(real);
  return traceInputsMemo;
}
function makeTraceInputs(real: string): { name: string; text: string }[] {
  const rng = seededRng(0x7ace);
  const out: { name: string; text: string }[] = [];
  for (let i = 1; i < 16; i++) out.push({ name: `truncated ${i}/16`, text: real.slice(0, Math.floor((real.length * i) / 16) + 7) });
  for (let i = 0; i < 5; i++) {
    const chars = [...real];
    for (let k = 0; k < 20; k++) chars[Math.floor(rng.next() * chars.length)] = randomText(rng, 1);
    out.push({ name: `corrupted ${i}`, text: chars.join('') });
  }
  for (let i = 0; i < 6; i++) out.push({ name: `random ${i}`, text: randomText(rng, 2000 + i * 1000) });
  const start = real.slice(0, real.indexOf('\n') + 1);
  const event = (e: object) => `${JSON.stringify(e)}\n`;
  // Built as text: JSON.stringify itself would overflow the stack on these values.
  const deepArgs = deep('[', ']', 50_000, '1');
  const deepVars = deep('{"a":', '}', 20_000, '1');
  const codeExec = JSON.stringify({ seq: 1, tMs: 1, type: 'code_execution', turn: 1, role: 'coder', language: 'python', code: 'x', ok: true, exitCode: 0, stdout: '', durationMs: 1, namespacePersisted: false, apiCalls: '@' });
  const roleCall = JSON.stringify({ seq: 1, tMs: 1, type: 'role_call', turn: 1, callId: 'c1', role: 'coder', messages: [], model: 'm', params: {}, promptPath: 'p', variables: '@' });
  out.push(
    { name: 'huge line without newline', text: start + 'x'.repeat(8_000_000) },
    { name: 'huge valid chat message', text: start + event({ seq: 1, tMs: 1, type: 'chat_message', turn: 1, speaker: 'Planner', content: 'word '.repeat(400_000) }) },
    { name: 'deep array line', text: start + deep('[', ']', 100_000) + '\n' },
    { name: 'deep object line', text: start + deep('{"a":', '}', 100_000, '1') + '\n' },
    // Valid events whose free-form fields nest deeply: the reader accepts them, so every view must cope.
    { name: DEEP_ARGS, text: start + codeExec.replace('"@"', `[{"fn":"execute_trajectory","args":[${deepArgs}],"ok":true}]`) + '\n' },
    { name: 'deep role_call variables', text: start + roleCall.replace('"@"', `{"v":${deepVars}}`) + '\n' },
    { name: '__proto__ keys', text: start + '{"seq":1,"tMs":1,"type":"error","kind":"x","message":"y","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}\n' },
    { name: 'newer schema and unknown events', text: start.replace('"schemaVersion":1', '"schemaVersion":99') + event({ seq: 1, tMs: 1, type: 'hologram', data: 1 }) },
    { name: 'numbers out of range', text: start + '{"seq":1e999,"tMs":-0,"type":"error","kind":"x","message":"y"}\n' },
    { name: 'BOM, CRLF and NUL', text: '\ufeff' + real.slice(0, 2000).replace(/\n/g, '\r\n') + '\0\0\n' },
    { name: 'empty', text: '' },
    { name: 'only newlines', text: '\n\n\n\n' },
  );
  return out;
}

function checkTrace(name: string, text: string): void {
  tally.fuzzInputs++;
  let result;
  try {
    result = readTrace(text);
  } catch (e) {
    assert.fail(`${name}: readTrace threw ${(e as Error)?.name}: ${(e as Error)?.message?.slice(0, 200)}`);
  }
  const nonBlank = text.split('\n').filter((l) => l.trim() !== '').length;
  // A missing message record is reported on each event that refers to it (that line is an event and a warning):
  // one corrupted record shared by many role calls (the system prompt) gives many such warnings, so they are
  // checked per event line instead of counted against the lines.
  const lineWarnings = result.warnings.filter((w) => w.kind !== 'newer_schema' && w.kind !== 'missing_content');
  assert.ok(result.events.length + lineWarnings.length <= nonBlank, `${name}: every line is an event or at most one warning`);
  const missingLines = result.warnings.filter((w) => w.kind === 'missing_content').map((w) => w.line);
  assert.ok(new Set(missingLines).size <= result.events.length, `${name}: missing-content warnings belong to event lines`);
  for (const e of result.events) assert.ok(TraceEvent.safeParse(e).success, `${name}: events are valid`);
  for (const w of result.warnings) {
    assert.ok(Number.isInteger(w.line) && w.line >= 1, `${name}: warning line ${w.line}`);
    assert.ok(!w.message.includes('\n') && w.message.length <= MAX_MESSAGE, `${name}: warning message is one bounded line`);
  }
  assert.ok(result.warnings.filter((w) => w.kind === 'truncated_last_line').length <= 1, `${name}: at most one truncated-last-line warning`);
  assert.equal(({} as Record<string, unknown>).polluted, undefined, `${name}: no prototype pollution`);
}

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString('utf8');
    done();
  }
}

export function fuzzCases(): void {
  describe('fuzzed prompt files and traces', () => {
    let realTrace = '';
    before(async () => {
      const ws = join(ROOT, 'fuzz-source');
      mkdirSync(ws, { recursive: true });
      const run = await launch(ws);
      realTrace = readFileSync(run.result.tracePath, 'utf8');
    });

    it('parsePromptFile and renderPrompt: a prompt, or a PromptError with the file and a one-line message', async () => {
      tally.tried++;
      const outcomes = { ok: 0, error: 0 };
      for (const input of promptInputs()) outcomes[await checkPrompt(input.name, input.text)]++;
      assert.ok(outcomes.error > 20 && outcomes.ok > 10, JSON.stringify(outcomes));
      assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
      tally.recorded++;
    });

    it('a YAML alias bomb in the front matter is a PromptError too', () =>
      knownBug(async () => {
        assert.equal(await checkPrompt('alias bomb', ALIAS_BOMB), 'error');
      }));

    it('a truncated prompt file in a run: prompt_error with the file and line, before any model call', () =>
      faultCase('fuzz-prompt-run', async (ws) => {
        // The prompt folder lives outside the workspace (the workspace is snapshotted before the case).
        const dir = join(ROOT, `prompts-truncated-${process.pid}`);
        cpSync(join(PACKAGE_ROOT, 'src', 'architectures', 'malmm', 'prompts'), dir, { recursive: true });
        const coder = join(dir, 'coder.prompt');
        const text = readFileSync(coder, 'utf8');
        writeFileSync(coder, text.slice(0, text.indexOf('{{#ablation') + 14));
        const run = await launch(ws, { promptDir: dir });
        expectFailedEnd(run, 'prompt_error');
        const err = ofType(run.events, 'error').at(-1)!;
        assert.equal(err.file, coder);
        assert.ok((err.line ?? 0) >= 1, 'a line number');
        assert.equal(ofType(run.events, 'role_call').length, 0);
        return RECORDED;
      }));

    it('an alias-bomb prompt file in a run: labelled prompt_error with the file', () =>
      knownBug(() =>
        faultCase('fuzz-prompt-bomb', async (ws) => {
          const dir = join(ROOT, `prompts-bomb-${process.pid}`);
          cpSync(join(PACKAGE_ROOT, 'src', 'architectures', 'malmm', 'prompts'), dir, { recursive: true });
          writeFileSync(join(dir, 'planner.prompt'), ALIAS_BOMB);
          const run = await launch(ws, { promptDir: dir });
          expectFailedEnd(run, 'prompt_error');
          assert.equal(ofType(run.events, 'error').at(-1)?.file, join(dir, 'planner.prompt'));
          return RECORDED;
        }),
      ));

    it('readTrace: events and line-numbered warnings for every fuzzed trace, never a throw', () => {
      tally.tried++;
      const inputs = traceInputs(realTrace);
      for (const input of inputs) checkTrace(input.name, input.text);
      // Truncation keeps every complete line before the cut.
      const lines = realTrace.split('\n');
      for (let cut = 1; cut < lines.length - 1; cut += Math.max(1, Math.floor(lines.length / 12))) {
        const text = lines.slice(0, cut).join('\n') + '\n' + lines[cut].slice(0, Math.floor(lines[cut].length / 2));
        const r = readTrace(text);
        tally.fuzzInputs++;
        // Every complete event line before the cut (content records, which the compact encoding writes before the
        // event that refers to them, are not events).
        assert.equal(r.events.length, lines.slice(0, cut).filter((l) => l.trim() && 'type' in JSON.parse(l)).length);
        assert.deepEqual(r.warnings.map((w) => [w.kind, w.line]), lines[cut].length > 1 ? [['truncated_last_line', cut + 1]] : []);
      }
      tally.recorded++;
    });

    it('waypoint show, in-process: every fuzzed trace prints with its warnings, or fails with one clear line', async () => {
      tally.tried++;
      const dir = join(ROOT, 'fuzz-traces');
      mkdirSync(dir, { recursive: true });
      const failures: string[] = [];
      for (const [i, input] of traceInputs(realTrace).entries()) {
        if (input.name === DEEP_ARGS) continue; // its own (todo) case below
        const path = join(dir, `t${i}.jsonl`);
        writeFileSync(path, input.text);
        tally.fuzzInputs++;
        const out = new Collect();
        try {
          const code = await showCommand(path, { workspace: dir }, out);
          assert.equal(code, 0, input.name);
          const { warnings, events } = readTrace(input.text);
          if (warnings.length) assert.match(out.text, /^warning: line \d+/m, `${input.name}: warnings are printed`);
          if (!events.some((e) => e.type === 'episode_end')) assert.match(out.text, /the trace has no episode_end/, input.name);
        } catch (e) {
          if (e instanceof assert.AssertionError) throw e;
          failures.push(`${input.name}: ${(e as Error)?.name}: ${(e as Error)?.message}`);
        }
      }
      assert.deepEqual(failures, [], 'showCommand threw');
      tally.recorded++;
    });

    it('waypoint show, deep API-call arguments in a valid trace: the transcript prints', () =>
      knownBug(async () => {
        tally.tried++;
        const input = traceInputs(realTrace).find((x) => x.name === DEEP_ARGS)!;
        const dir = join(ROOT, 'fuzz-deep');
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'deep.jsonl'), input.text);
        tally.fuzzInputs += 2;
        const out = new Collect();
        assert.equal(await showCommand(join(dir, 'deep.jsonl'), { workspace: dir }, out).catch((e: Error) => `threw ${e.name}: ${e.message}`), 0);
        const r = runCli(['show', join(dir, 'deep.jsonl')], { cwd: dir, env: cliEnv() });
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stdout, /ran coder's block/);
        tally.recorded++;
      }),
    );

    it('waypoint show and runs through the built CLI: exit 0 or 2, a clear message, never a stack trace', async () => {
      tally.tried++;
      const ws = join(ROOT, 'fuzz-cli');
      const inputs = traceInputs(realTrace);
      const picks = ['huge line without newline', 'random 0', 'truncated 7/16', 'deep object line', '__proto__ keys'];
      for (const name of picks) {
        const input = inputs.find((x) => x.name === name)!;
        const runDir = join(ws, '.waypoint', 'runs', `fuzz-${name.replace(/\W+/g, '_')}`);
        mkdirSync(runDir, { recursive: true });
        writeFileSync(join(runDir, 'trace.jsonl'), input.text);
      }
      const runs = runCli(['runs', '--workspace', ws], { cwd: ws, env: cliEnv() });
      tally.fuzzInputs++;
      assert.equal(runs.status, 0, runs.stderr);
      assert.equal(runs.stdout.split('\n').filter((l) => l.startsWith('fuzz-')).length, picks.length, 'every fuzzed run is listed');
      assert.match(runs.stdout, /incomplete/);
      for (const name of picks) {
        tally.fuzzInputs++;
        const r = runCli(['show', `fuzz-${name.replace(/\W+/g, '_')}`, '--workspace', ws], { cwd: ws, env: cliEnv() });
        assert.equal(r.status, 0, `${name}: exit ${r.status}, stderr: ${r.stderr.slice(0, 300)}`);
        assert.doesNotMatch(r.stderr, /^\s+at /m, `${name}: no stack trace`);
      }
      for (const args of [['show', 'no-such-run', '--workspace', ws], ['show', '--bogus-flag']]) {
        tally.fuzzInputs++;
        const r = runCli(args, { cwd: ws, env: cliEnv() });
        assert.equal(r.status, 2, `${args.join(' ')}: exit ${r.status}`);
        assert.match(r.stderr, /^waypoint( show)?: .+\n$/, `${args.join(' ')}: one clear line`);
      }
      tally.recorded++;
    });

    it('waypoint runs, in-process, over a workspace of fuzzed traces: lists each, never throws', async () => {
      tally.tried++;
      const ws = join(ROOT, 'fuzz-runs');
      for (const [i, input] of traceInputs(realTrace).entries()) {
        const runDir = join(ws, '.waypoint', 'runs', `r${String(i).padStart(3, '0')}`);
        mkdirSync(runDir, { recursive: true });
        writeFileSync(join(runDir, 'trace.jsonl'), input.text);
        tally.fuzzInputs++;
      }
      const out = new Collect();
      assert.equal(await runsCommand({ workspace: ws }, out), 0);
      // A header row, then one row per run.
      assert.equal(out.text.trim().split('\n').length, traceInputs(realTrace).length + 1);
      assert.doesNotMatch(out.text, /undefined/);
      tally.recorded++;
    });
  });
}

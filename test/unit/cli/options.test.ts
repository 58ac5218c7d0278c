// The option layer in-process: one declaration gives the parser and the help text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defineCommand, formatCommandHelp, parseCommandArgs, UsageError } from '../../../src/cli/options.js';

const cmd = defineCommand({
  name: 'try',
  summary: 'a command for the tests',
  positionals: [{ name: 'target', optional: true, help: 'what to try' }],
  options: {
    seed: { type: 'int', default: 0, help: 'a seed' },
    turns: { type: 'int', min: 1, max: 10, help: 'a bounded count' },
    rate: { type: 'number', min: 0, exclusiveMin: true, help: 'a positive number' },
    theme: { type: 'string', default: 'dark', choices: ['dark', 'light'], help: 'a choice' },
    name: { type: 'string', help: 'checked by a function', validate: (v) => (v.includes(' ') ? '--name must not contain spaces' : undefined) },
    limit: { type: 'list', metavar: 'k=v', help: 'a limit', validate: (v) => (/^\w+=\d+$/.test(v) ? undefined : `--limit must look like name=value, got '${v}'`) },
    fast: { type: 'boolean', help: 'a switch', group: 'Speed' },
  },
  run: async () => 0,
});

const parse = (...argv: string[]) => {
  const r = parseCommandArgs(cmd, argv);
  assert.equal(r.help, false);
  return r as Extract<typeof r, { help: false }>;
};
const fails = (re: RegExp, ...argv: string[]) => assert.throws(() => parseCommandArgs(cmd, argv), (e: unknown) => e instanceof UsageError && re.test(e.message) && !e.message.includes('\n'));

test('values are typed, defaulted, and a value may start with a dash', () => {
  const r = parse('--seed', '-1', '--turns=3', '--rate', '0.5', '--theme', 'light', '--limit', 'a=1', '--limit', 'b=2', '--fast', 'x');
  assert.deepEqual(r.values, { seed: -1, turns: 3, rate: 0.5, theme: 'light', name: undefined, limit: ['a=1', 'b=2'], fast: true });
  assert.deepEqual(r.positionals, ['x']);
  assert.deepEqual(parse().values, { seed: 0, turns: undefined, rate: undefined, theme: 'dark', name: undefined, limit: [], fast: false });
  assert.deepEqual(parse('--', '--seed').positionals, ['--seed']);
});

test('integers are strict and bounded, within the safe range; errors are one line naming the option', () => {
  fails(/^--seed must be an integer, got '1\.5'$/, '--seed', '1.5');
  fails(/^--seed must be an integer, got '1e3'$/, '--seed', '1e3');
  fails(/^--seed must be an integer from -9007199254740991 to 9007199254740991, got '9007199254740993'$/, '--seed', '9007199254740993');
  fails(/^--turns must be an integer from 1 to 10, got '11'$/, '--turns', '11');
  fails(/^--rate must be a number > 0, got '0'$/, '--rate', '0');
  fails(/^--rate must be a number > 0, got 'fast'$/, '--rate', 'fast');
  fails(/^--seed needs a value \(an integer\)$/, '--seed');
});

test('choices and validators name what is wrong and what is valid', () => {
  fails(/^unknown --theme 'lihgt'; did you mean 'light'\? valid: dark, light$/, '--theme', 'lihgt');
  fails(/^--name must not contain spaces$/, '--name', 'a b');
  fails(/^--limit must look like name=value, got 'x'$/, '--limit', 'x');
  fails(/^unknown option '--sed' for 'waypoint try'; did you mean '--seed'\?/, '--sed', '1');
  fails(/^--fast is a switch and takes no value/, '--fast=yes');
  fails(/^too many arguments for 'waypoint try': 'b'/, 'a', 'b');
  fails(/^unknown option '-x' for 'waypoint try'/, '-x');
});

test('--help wins over any other problem on the line', () => {
  assert.deepEqual(parseCommandArgs(cmd, ['--seed', 'nope', '--help']), { help: true });
  assert.deepEqual(parseCommandArgs(cmd, ['-h']), { help: true });
  assert.equal(parseCommandArgs(cmd, ['--', '--help']).help, false);
});

test('help text comes from the declaration: every option, its placeholder, choices, bounds and default, grouped', () => {
  const text = formatCommandHelp(cmd);
  assert.match(text, /^waypoint try — a command for the tests\n\nUsage: waypoint try \[options\] \[target\]$/m);
  assert.match(text, /^  --seed <n> +a seed; default: 0$/m);
  assert.match(text, /^  --turns <n> +a bounded count; an integer from 1 to 10$/m);
  assert.match(text, /^  --theme <value> +a choice; one of: dark, light; default: dark$/m);
  assert.match(text, /^  --limit <k=v> +a limit; repeatable$/m);
  assert.match(text, /^Speed:\n  --fast +a switch$/m);
  assert.match(text, /^Arguments:\n  target +what to try$/m);
});

test('--model-seed reaches the reference model spec as well as an OpenAI-compatible one', async () => {
  const { modelSpecFromArgs } = await import('../../../src/cli/run.js');
  const common = { 'api-key-env': 'WAYPOINT_TEST_NO_KEY', 'model-seed': 11 } as const;
  assert.deepEqual(modelSpecFromArgs({ ...common, model: 'reference-flawed' } as never, {}), { kind: 'reference', baseUrl: undefined, profile: 'reference-flawed', seed: 11 });
  assert.equal((modelSpecFromArgs({ ...common, model: 'openai:m', 'base-url': 'http://127.0.0.1:1/v1' } as never, {}) as { seed?: number }).seed, 11);
  assert.equal('seed' in modelSpecFromArgs({ 'api-key-env': 'X', model: 'reference' } as never, {}), false);
});

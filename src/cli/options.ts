// The CLI's option layer: each command declares its options once (type, default, help, choices, bounds) and both
// the parser and `--help` are generated from that declaration, so a new option or command is one entry.
// Conventions it enforces for every command: `-h`/`--help` prints the command's help to stdout and exits 0; bad
// input is one line on stderr naming what is wrong and the valid values, exit 2 (UsageError); an option's value
// is the next word even when it starts with '-' (`--seed -1`); integers are parsed strictly (safe range).

import { closestName } from '../core/closest.js';

export class UsageError extends Error {
  override name = 'UsageError';
}

interface OptionBase {
  /** One line for --help: what the option does, without its default (printed from `default`). */
  help: string;
  /** Placeholder in --help, e.g. 'id' prints `--arch <id>`. */
  metavar?: string;
  /** Heading the option is listed under in --help (default 'Options'). */
  group?: string;
  /** For --help when the default is not a value of the option (e.g. "the engine's, 150"). */
  defaultText?: string;
}
export interface StringOption extends OptionBase {
  type: 'string';
  default?: string;
  /** Allowed values (a function for registries that grow); checked at parse time, named in errors and --help. */
  choices?: readonly string[] | (() => readonly string[]);
  /** Extra check; returns the whole one-line error message (naming the option and the valid forms) or undefined. */
  validate?(value: string): string | undefined;
}
export interface IntOption extends OptionBase {
  type: 'int';
  default?: number;
  min?: number;
  max?: number;
}
export interface NumberOption extends OptionBase {
  type: 'number';
  default?: number;
  min?: number;
  max?: number;
  /** The bound excludes the value itself (e.g. a timeout > 0). */
  exclusiveMin?: boolean;
}
export interface BooleanOption extends OptionBase {
  type: 'boolean';
}
/** Repeatable: every occurrence is collected, e.g. `--limit a=1 --limit b=2`. */
export interface ListOption extends OptionBase {
  type: 'list';
  validate?(value: string): string | undefined;
}
export type OptionSpec = StringOption | IntOption | NumberOption | BooleanOption | ListOption;
export type OptionSpecs = Record<string, OptionSpec>;

type ValueOf<S extends OptionSpec> = S extends BooleanOption
  ? boolean
  : S extends ListOption
    ? string[]
    : S extends IntOption | NumberOption
      ? S extends { default: number }
        ? number
        : number | undefined
      : S extends { default: string }
        ? string
        : string | undefined;

/** The parsed values of a command's options, typed from its declaration. */
export type OptionValues<O extends OptionSpecs> = { -readonly [K in keyof O]: ValueOf<O[K]> };

export interface PositionalSpec {
  name: string;
  help: string;
  optional?: boolean;
  /** The last positional may repeat (`waypoint merge <dir>...`). */
  repeats?: boolean;
}

export interface CommandSpec<O extends OptionSpecs = OptionSpecs> {
  name: string;
  /** One line for `waypoint --help`. */
  summary: string;
  /** Optional paragraph printed under the usage line of the command's --help. */
  description?: string;
  positionals?: readonly PositionalSpec[];
  options: O;
  examples?: readonly string[];
  /** Exit status line for --help. */
  exitStatus?: string;
  /** Internal (a child process entry): runs, but is not listed in `waypoint --help`. */
  hidden?: boolean;
  run(args: { values: OptionValues<O>; positionals: string[] }): Promise<number>;
}

/** Declares a command; the identity function exists so TypeScript infers the option value types. */
export function defineCommand<const O extends OptionSpecs>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}

export const HELP_FLAGS = new Set(['-h', '--help']);

function choicesOf(spec: StringOption): readonly string[] | undefined {
  return typeof spec.choices === 'function' ? spec.choices() : spec.choices;
}

/** "one of: a, b, c" or "one of: a, b (did you mean b?)" for error messages. */
export function choiceList(given: string, choices: readonly string[]): string {
  const near = closestName(given, choices);
  return `${near ? `did you mean '${near}'? ` : ''}valid: ${choices.join(', ')}`;
}

function parseInteger(name: string, raw: string, spec: IntOption): number {
  const range = rangeText(spec.min, spec.max);
  if (!/^[+-]?\d+$/.test(raw.trim())) throw new UsageError(`--${name} must be an integer${range}, got '${raw}'`);
  const n = Number(raw);
  const lo = spec.min ?? Number.MIN_SAFE_INTEGER;
  const hi = spec.max ?? Number.MAX_SAFE_INTEGER;
  // Compare exactly (BigInt) so 9007199254740993 is not rounded into range.
  const big = BigInt(raw.trim());
  const safe = big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER);
  if (big < BigInt(lo) || big > BigInt(hi)) throw new UsageError(`--${name} must be an integer${safe && range ? range : ` from ${lo} to ${hi}`}, got '${raw}'`);
  return n;
}

function parseNumber(name: string, raw: string, spec: NumberOption): number {
  const n = raw.trim() === '' ? NaN : Number(raw);
  const range = rangeText(spec.min, spec.max, spec.exclusiveMin);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number${range}, got '${raw}'`);
  if ((spec.min !== undefined && (spec.exclusiveMin ? n <= spec.min : n < spec.min)) || (spec.max !== undefined && n > spec.max)) {
    throw new UsageError(`--${name} must be a number${range}, got '${raw}'`);
  }
  return n;
}

function rangeText(min: number | undefined, max: number | undefined, exclusiveMin = false): string {
  if (min !== undefined && max !== undefined) return exclusiveMin ? ` > ${min} and ≤ ${max}` : ` from ${min} to ${max}`;
  if (min !== undefined) return exclusiveMin ? ` > ${min}` : ` ≥ ${min}`;
  if (max !== undefined) return ` ≤ ${max}`;
  return '';
}

function convert(name: string, raw: string, spec: Exclude<OptionSpec, BooleanOption>): unknown {
  switch (spec.type) {
    case 'int':
      return parseInteger(name, raw, spec);
    case 'number':
      return parseNumber(name, raw, spec);
    case 'string': {
      const choices = choicesOf(spec);
      if (choices && !choices.includes(raw)) throw new UsageError(`unknown --${name} '${raw}'; ${choiceList(raw, choices)}`);
      const problem = spec.validate?.(raw);
      if (problem) throw new UsageError(problem);
      return raw;
    }
    case 'list': {
      const problem = spec.validate?.(raw);
      if (problem) throw new UsageError(problem);
      return raw;
    }
  }
}

export type ParseResult<O extends OptionSpecs> = { help: true } | { help: false; values: OptionValues<O>; positionals: string[] };

/**
 * Parses `argv` (the words after the command name) against a command's declaration. Throws UsageError with a
 * one-line message; returns `{help: true}` when -h/--help appears before `--`.
 */
export function parseCommandArgs<O extends OptionSpecs>(cmd: CommandSpec<O>, argv: readonly string[]): ParseResult<O> {
  const specs = cmd.options as OptionSpecs;
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.type === 'boolean') values[name] = false;
    else if (spec.type === 'list') values[name] = [];
    else values[name] = spec.default;
  }
  const positionals: string[] = [];
  // --help wins over any other problem on the line, so `waypoint run --seed x --help` still shows the help.
  const dashDash = argv.indexOf('--');
  if ((dashDash < 0 ? argv : argv.slice(0, dashDash)).some((a) => HELP_FLAGS.has(a))) return { help: true };
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i];
    if (word === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!word.startsWith('-') || word === '-' || /^-\d/.test(word)) {
      positionals.push(word);
      continue;
    }
    if (!word.startsWith('--')) throw new UsageError(`unknown option '${word}' for 'waypoint ${cmd.name}' (options are spelt --name; see waypoint ${cmd.name} --help)`);
    const eq = word.indexOf('=');
    const name = word.slice(2, eq < 0 ? undefined : eq);
    const spec = specs[name];
    if (!spec) {
      const near = closestName(name, Object.keys(specs));
      throw new UsageError(`unknown option '--${name}' for 'waypoint ${cmd.name}'${near ? `; did you mean '--${near}'?` : ''} (see waypoint ${cmd.name} --help)`);
    }
    if (spec.type === 'boolean') {
      if (eq >= 0) throw new UsageError(`--${name} is a switch and takes no value, got '${word}'`);
      values[name] = true;
      continue;
    }
    let raw: string;
    if (eq >= 0) raw = word.slice(eq + 1);
    else {
      if (i + 1 >= argv.length) throw new UsageError(`--${name} needs a value (${spec.metavar ? `<${spec.metavar}>` : spec.type === 'int' ? 'an integer' : spec.type === 'number' ? 'a number' : 'a value'})`);
      raw = argv[++i];
    }
    const v = convert(name, raw, spec);
    if (spec.type === 'list') (values[name] as string[]).push(v as string);
    else values[name] = v;
  }
  const declared = cmd.positionals ?? [];
  const required = declared.filter((p) => !p.optional).length;
  if (positionals.length > declared.length && !declared.at(-1)?.repeats) {
    const extra = positionals[declared.length];
    throw new UsageError(
      declared.length === 0
        ? `'waypoint ${cmd.name}' takes no arguments, got '${extra}' (see waypoint ${cmd.name} --help)`
        : `too many arguments for 'waypoint ${cmd.name}': '${extra}' (see waypoint ${cmd.name} --help)`,
    );
  }
  if (positionals.length < required) throw new UsageError(`'waypoint ${cmd.name}' needs <${declared[positionals.length].name}> (see waypoint ${cmd.name} --help)`);
  return { help: false, values: values as OptionValues<O>, positionals };
}

function optionLabel(name: string, spec: OptionSpec): string {
  if (spec.type === 'boolean') return `--${name}`;
  const meta = spec.metavar ?? (spec.type === 'int' ? 'n' : spec.type === 'number' ? 'x' : 'value');
  return `--${name} <${meta}>`;
}

function optionHelp(spec: OptionSpec): string {
  const parts = [spec.help];
  if (spec.type === 'string') {
    const choices = choicesOf(spec);
    if (choices) parts.push(`one of: ${choices.join(', ')}`);
  }
  if ((spec.type === 'int' || spec.type === 'number') && (spec.min !== undefined || spec.max !== undefined)) {
    parts.push(`${spec.type === 'int' ? 'an integer' : 'a number'}${rangeText(spec.min, spec.max, spec.type === 'number' && spec.exclusiveMin)}`);
  }
  if (spec.type === 'list') parts.push('repeatable');
  if ((spec.type === 'string' || spec.type === 'int' || spec.type === 'number') && spec.default !== undefined) parts.push(`default: ${spec.default}`);
  else if (spec.defaultText) parts.push(`default: ${spec.defaultText}`);
  return parts.join('; ');
}

/** Wraps `text` to `width` columns, continuation lines indented by `indent`. */
function wrap(text: string, width: number, indent: number): string {
  const words = text.split(/\s+/);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > width - indent) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines.join('\n' + ' '.repeat(indent));
}

/** The command's --help text, generated from its declaration. */
export function formatCommandHelp(cmd: CommandSpec<OptionSpecs>, width = 100): string {
  const pos = (cmd.positionals ?? []).map((p) => (p.optional ? `[${p.name}]` : `<${p.name}>`) + (p.repeats ? '...' : '')).join(' ');
  const out = [`waypoint ${cmd.name} — ${cmd.summary}`, '', `Usage: waypoint ${cmd.name}${Object.keys(cmd.options).length ? ' [options]' : ''}${pos ? ` ${pos}` : ''}`];
  if (cmd.description) out.push('', wrap(cmd.description, width, 0));
  const rows: { group: string; label: string; help: string }[] = [];
  for (const p of cmd.positionals ?? []) rows.push({ group: 'Arguments', label: p.name, help: p.help });
  for (const [name, spec] of Object.entries(cmd.options)) rows.push({ group: spec.group ?? 'Options', label: optionLabel(name, spec), help: optionHelp(spec) });
  rows.push({ group: rows.some((r) => r.group === 'Options') ? 'Options' : 'Other', label: '-h, --help', help: 'show this help and exit' });
  const labelWidth = Math.min(30, Math.max(...rows.map((r) => r.label.length)) + 2);
  const groups = [...new Set(rows.map((r) => r.group))];
  for (const g of groups) {
    out.push('', `${g}:`);
    for (const r of rows.filter((x) => x.group === g)) {
      const label = `  ${r.label}`;
      const pad = label.length + 2 > labelWidth + 2 ? `\n${' '.repeat(labelWidth + 2)}` : ' '.repeat(labelWidth + 2 - label.length);
      out.push(label + pad + wrap(r.help, width, labelWidth + 2));
    }
  }
  if (cmd.examples?.length) out.push('', 'Examples:', ...cmd.examples.map((e) => `  ${e}`));
  if (cmd.exitStatus) out.push('', `Exit status: ${cmd.exitStatus}`);
  return out.join('\n');
}

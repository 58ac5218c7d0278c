// Renders Waypoint role prompts: Dotprompt `.prompt` files (YAML front matter + Handlebars) through the
// `dotprompt` package, plus the `ablation` block helper. Errors name the file and line.
import { Dotprompt } from 'dotprompt';
import Handlebars, { type HelperOptions } from 'handlebars';
import { parseDocument } from 'yaml';
import type { ChatMessage } from '../../protocol/trace.js';
import { sha256Hex } from '../engine/hash.js';
import type { HostIO } from '../host.js';
import { analyzePrompt, type PromptRole } from './analyze.js';

export class PromptError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly detail: string,
  ) {
    super(`${detail} (${file}${line !== undefined ? `:${line}` : ''})`);
    this.name = 'PromptError';
  }
}

export interface PromptVariable {
  name: string;
  type: string;
  optional: boolean;
  doc: string;
}

export interface PromptFile {
  path: string;
  source: string;
  sha256: string;
  arch?: string;
  role?: string;
  config: { temperature?: number; maxOutputTokens?: number };
  variables: PromptVariable[];
  /** input.default: values rendered for variables a call does not pass. */
  defaults: Record<string, unknown>;
  /** 1-based file line where the template body starts (after the front matter). */
  bodyStartLine: number;
}

export interface RenderInput {
  variables: Record<string, unknown>;
  /** Inserted where the template says {{history}}. */
  history?: ChatMessage[];
  /** Ablation id -> on/off. Ids not listed are on. */
  ablations?: Record<string, boolean>;
}

export interface RenderedPrompt {
  messages: ChatMessage[];
  /** Every ablation id the template evaluated, with the state it rendered in. */
  ablationsSeen: Record<string, boolean>;
  /** Index in `messages` of the role's request: the last user message written by the template, not the history. */
  requestIndex?: number;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;
export const ABLATION_ID = /^[a-z0-9_.-]+$/;
const MAX_BLOCK_DEPTH = 64;

/** Per-render state handed to the helpers through Handlebars' @data (so one compiled template serves every render). */
interface RenderData {
  ablations: Record<string, boolean>;
  seen: Record<string, boolean>;
}

function makeDotprompt(): Dotprompt {
  return new Dotprompt({
    helpers: {
      // {{#ablation "id" label="..."}}kept text{{else}}replacement{{/ablation}}
      // default="off": the block is an opt-in addition, rendered only when a variant turns it on.
      ablation(this: unknown, id: unknown, options: HelperOptions) {
        if (typeof id !== 'string' || !ABLATION_ID.test(id)) {
          throw new Error(`ablation id must be a string matching ${ABLATION_ID}, got ${JSON.stringify(id)}`);
        }
        const data = options.data?.waypoint as RenderData | undefined;
        const set = data?.ablations[id];
        const on = set ?? (options.hash?.default !== 'off');
        if (data) data.seen[id] = on;
        return on ? options.fn(this) : options.inverse(this);
      },
    },
  });
}

// One renderer and one compiled template per prompt text: compiling is most of the cost of a render.
const renderer = makeDotprompt();
const compiled = new Map<string, ReturnType<Dotprompt['compile']>>();

/**
 * Parses and validates a prompt file: YAML front matter and the Handlebars template both checked now, not at run
 * time. Given the role the file serves, its variables are checked too (checkRoleVariables).
 */
export function parsePromptFile(path: string, source: string, role?: PromptRole): PromptFile {
  const sha256 = sha256Hex(source);
  const fm = FRONT_MATTER.exec(source);
  let bodyStartLine = 1;
  let front: Record<string, unknown> = {};
  if (source.startsWith('---')) {
    if (!fm) throw new PromptError(path, 1, 'front matter starts with --- but has no closing --- line');
    bodyStartLine = fm[0].split('\n').length - (fm[0].endsWith('\n') ? 1 : 0) + 1;
    const doc = parseDocument(fm[1], { prettyErrors: false });
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      // The front matter's first line is file line 2.
      const line = fm[1].slice(0, e.pos[0]).split('\n').length + 1;
      throw new PromptError(path, line, `invalid YAML front matter: ${e.message.split('\n')[0]}`);
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (err) {
      throw new PromptError(path, 2, `invalid YAML front matter: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (value !== null && (typeof value !== 'object' || Array.isArray(value))) {
      throw new PromptError(path, 2, 'front matter must be a YAML mapping');
    }
    front = (value ?? {}) as Record<string, unknown>;
  }
  const ext = (key: string): string | undefined => {
    const direct = front[`waypoint.${key}`];
    const nested = (front.waypoint as Record<string, unknown> | undefined)?.[key];
    const v = direct ?? nested;
    return typeof v === 'string' ? v : undefined;
  };
  const config = (front.config ?? {}) as PromptFile['config'];
  const schema = ((front.input as Record<string, unknown> | undefined)?.schema ?? {}) as Record<string, unknown>;
  const variables: PromptVariable[] = Object.entries(schema).map(([key, spec]) => {
    // Picoschema keys: `name`, `name?`, `name(array)`, `name?(object, description)`.
    const m = /^([^?(]+)(\?)?\s*(?:\(\s*(array|object)[^)]*\))?$/.exec(key.trim());
    const name = (m?.[1] ?? key).trim();
    const optional = m?.[2] === '?' || key.endsWith('?');
    const text = typeof spec === 'string' ? spec : 'object';
    const comma = text.indexOf(',');
    const base = (comma < 0 ? text : text.slice(0, comma)).trim();
    return { name, optional, type: m?.[3] === 'array' ? `array<${base}>` : base, doc: comma < 0 ? '' : text.slice(comma + 1).trim() };
  });
  const given = (front.input as Record<string, unknown> | undefined)?.default;
  const defaults = given && typeof given === 'object' && !Array.isArray(given) ? (given as Record<string, unknown>) : {};
  const file: PromptFile = { path, source, sha256, arch: ext('arch'), role: ext('role'), config, variables, defaults, bodyStartLine };
  checkTemplate(file);
  if (role) checkRoleVariables(file, role);
  return file;
}

/** Diagnostics that mean a render would be wrong: a variable that renders empty, or a call that would stop. */
const VARIABLE_ERRORS = new Set(['undefined-variable', 'optional-variable']);

/**
 * Refuses a prompt whose template reads a variable the role is not given (it would render empty), reads one given
 * only sometimes without declaring it optional (`name?` in input.schema), or declares required one not always
 * given. The same analysis as the language server's diagnostics; the first problem is thrown with its line.
 */
export function checkRoleVariables(file: PromptFile, role: PromptRole): void {
  const errors = analyzePrompt(file.source, { role }).diagnostics.filter((d) => d.severity === 'error' && VARIABLE_ERRORS.has(d.code));
  const first = errors[0];
  if (!first) return;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more variable problem${errors.length > 2 ? 's' : ''} in this file)` : '';
  throw new PromptError(file.path, first.range.start.line + 1, first.message + more);
}

/** Compiles the body once with empty data so a syntax error (unclosed block, bad mustache) surfaces with its line. */
function checkTemplate(file: PromptFile): void {
  const body = file.source.replace(FRONT_MATTER, '');
  const lineOf = (index: number) => body.slice(0, index).split('\n').length + file.bodyStartLine - 1;
  // Pair {{#ablation}} with {{/ablation}} ourselves: Handlebars reports a missing close at the end of the file,
  // while the user needs the line that opened the block and its id.
  const openBlocks: { id: string; index: number }[] = [];
  for (const m of body.matchAll(/\{\{~?(?:#ablation\s+"([^"]*)"|#ablation\b|\/ablation\s*~?\}\})/g)) {
    if (m[0].includes('/ablation')) {
      if (!openBlocks.pop()) throw new PromptError(file.path, lineOf(m.index), '{{/ablation}} closes no open {{#ablation}} block');
    } else openBlocks.push({ id: m[1] ?? '?', index: m.index });
  }
  if (openBlocks.length > 0) {
    const b = openBlocks[openBlocks.length - 1];
    throw new PromptError(file.path, lineOf(b.index), `unclosed {{#ablation "${b.id}"}} block: no {{/ablation}} closes it`);
  }
  // Handlebars' parser is recursive and slows down sharply with nesting; no real prompt nests this deep.
  let depth = 0;
  for (const m of body.matchAll(/\{\{~?([#/])/g)) {
    depth += m[1] === '#' ? 1 : -1;
    if (depth > MAX_BLOCK_DEPTH) {
      throw new PromptError(file.path, lineOf(m.index), `blocks nested deeper than ${MAX_BLOCK_DEPTH} levels`);
    }
  }
  try {
    // Handlebars compiles lazily, so parse the body now to surface syntax errors before any model call.
    Handlebars.parse(body);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    const m = /Parse error on line (\d+)/.exec(msg);
    const line = m ? Number(m[1]) + file.bodyStartLine - 1 : undefined;
    const expecting = /Expecting ([^\n]*), got '([^']*)'/.exec(msg);
    throw new PromptError(file.path, line, `template syntax error: ${expecting ? `expected ${expecting[1]}, got ${expecting[2]}` : msg.split('\n')[0]}`);
  }
}

export async function loadPromptFile(io: HostIO, path: string, role?: PromptRole): Promise<PromptFile> {
  let source: string;
  try {
    source = await io.readText(path);
  } catch (err) {
    throw new PromptError(path, undefined, `cannot read prompt file: ${err instanceof Error ? err.message : String(err)}`);
  }
  return parsePromptFile(path, source, role);
}

function partsToText(content: { text?: string }[]): string {
  return content.map((p) => p.text ?? '').join('');
}

export async function renderPrompt(file: PromptFile, input: RenderInput): Promise<RenderedPrompt> {
  const missing = file.variables.filter((v) => !v.optional && input.variables[v.name] === undefined && !(v.name in file.defaults)).map((v) => v.name);
  if (missing.length > 0) {
    throw new PromptError(file.path, undefined, `missing value for variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  }
  const data: RenderData = { ablations: input.ablations ?? {}, seen: {} };
  let rendered;
  try {
    let fn = compiled.get(file.sha256);
    if (!fn) {
      fn = renderer.compile(file.source);
      compiled.set(file.sha256, fn);
    }
    rendered = await (
      await fn
    )(
      {
        input: input.variables,
        context: { waypoint: data },
        messages: (input.history ?? []).map((m) => ({
          role: m.role === 'assistant' ? ('model' as const) : m.role,
          content: [{ text: m.content }],
        })),
      },
      // dotprompt's compiled function takes input.default from the render options, not from the file it parsed.
      { input: { default: file.defaults } },
    );
  } catch (err) {
    throw new PromptError(file.path, undefined, `render failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  const messages: ChatMessage[] = [];
  let prevIsHistory = false;
  let requestIndex: number | undefined;
  for (const m of rendered.messages) {
    const role = m.role === 'model' ? 'assistant' : m.role === 'tool' ? 'user' : m.role;
    const content = partsToText(m.content as { text?: string }[]).replace(/^\n+/, '').replace(/\s+$/, '');
    const isHistory = m.metadata?.purpose === 'history';
    if (content.length === 0) continue;
    // Template text split across consecutive same-role parts is merged (chat APIs expect alternation); history
    // messages are kept whole so every speaker's turn stays a message of its own.
    const prev = messages[messages.length - 1];
    if (prev && prev.role === role && !isHistory && !prevIsHistory) prev.content += `\n\n${content}`;
    else messages.push({ role, content });
    if (role === 'user' && !isHistory) requestIndex = messages.length - 1;
    prevIsHistory = isHistory;
  }
  return { messages, ablationsSeen: data.seen, ...(requestIndex !== undefined ? { requestIndex } : {}) };
}

/** Every ablation id in a template, in order of appearance (static scan, no rendering). */
export function listAblationIds(source: string): string[] {
  const ids: string[] = [];
  for (const m of source.matchAll(/\{\{#ablation\s+"([^"]+)"/g)) if (!ids.includes(m[1])) ids.push(m[1]);
  return ids;
}

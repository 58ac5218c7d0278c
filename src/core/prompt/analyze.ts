// Static analysis of a Waypoint `.prompt` file (Dotprompt: YAML front matter + Handlebars body): diagnostics,
// outline, folding, completion and hover. Pure: text in, plain data out (no I/O, no LSP types), so the language
// server only wires it and tests run it on strings. Positions are 0-based lines and UTF-16 columns.
import { promptFileOf } from '../architecture/promptFiles.js';
import type { Architectures } from '../architecture/registry.js';
import type { ArchitectureManifest } from '../architecture/types.js';
import { PROMPT_HELPERS } from './helpers.js';
import { readSchemaShapes, type Picoschema } from './schema.js';
import type { ApiFunctionSpec } from '../sim/simulator.js';
import { HANDLEBARS_BUILTINS, closest, findRoleMarker, runChecks, type PassedVariables, type VariableUse } from './analyze/checks.js';
import { completePrompt } from './analyze/complete.js';
import { readFrontMatter, type FrontMatter, type RawDiag } from './analyze/frontMatter.js';
import { hoverPrompt } from './analyze/hover.js';
import { LineIndex } from './analyze/lineIndex.js';
import { buildOutline, findHeadings } from './analyze/outline.js';
import { parseTemplate, type ParsedTemplate } from './analyze/template.js';
import type { AblationInfo, InputVariable, PromptDiagnostic, PromptFold, PromptSymbol } from './analyze/types.js';

export type * from './analyze/types.js';
export { completePrompt, hoverPrompt, LineIndex };

export interface AnalyzeOptions {
  /** Helper name -> documentation. Default: PROMPT_HELPERS plus Handlebars' built-in lookup/log. */
  helpers?: Record<string, string>;
  /**
   * The architectures a prompt may name (its waypoint.arch and waypoint.role), as the host registered them. Without
   * them no architecture is known: no robot API, and variables are checked against input.schema alone.
   */
  architectures?: Architectures<ArchitectureManifest>;
  /** Architecture id -> the robot functions its prompts see. Default: each of `architectures`' API family. */
  archApis?: Record<string, readonly ApiFunctionSpec[]>;
  /** Ablation ids switched off in the variant being checked (affects only the budget estimate). */
  ablationsOff?: Iterable<string>;
  /** Ablation ids known from elsewhere (e.g. .waypoint/variants.yaml), offered by completion. */
  knownAblationIds?: Iterable<string>;
  /**
   * The role this file is the prompt of, with the variables its architecture passes (a run knows it from the role
   * the file serves). Default: the manifest's role named by the front matter's waypoint.arch and waypoint.role;
   * without one, variables are checked against input.schema alone.
   */
  role?: PromptRole;
  /** The role the file's location implies (rolePromptAt), used when the front matter names none. */
  roleByPath?: PromptRole;
}

/** A role of an architecture and what its loop passes the role's prompt (RoleSpec.variables). */
export interface PromptRole {
  arch: string;
  id: string;
  variables: Picoschema;
}

export interface PromptAnalysis {
  text: string;
  lines: LineIndex;
  frontMatter: FrontMatter;
  template: ParsedTemplate;
  variables: InputVariable[];
  /** Root variable uses in the body, in order. */
  uses: VariableUse[];
  helpers: Record<string, string>;
  archApis: Record<string, readonly ApiFunctionSpec[]>;
  /** The robot API of the file's waypoint.arch (empty when unknown). */
  api: readonly ApiFunctionSpec[];
  ablations: AblationInfo[];
  ablationByBlock: Map<number, AblationInfo>;
  knownAblationIds: string[];
  /** Static text only (variables excluded), chars/4: an estimate, not a tokenizer count. */
  staticTokenEstimate: number;
  diagnostics: PromptDiagnostic[];
  /** Computed on first access. */
  readonly symbols: PromptSymbol[];
  /** Computed on first access. */
  readonly folds: PromptFold[];
}

export function analyzePrompt(text: string, options: AnalyzeOptions = {}): PromptAnalysis {
  const lines = new LineIndex(text);
  const helpers = options.helpers ?? { ...PROMPT_HELPERS, ...HANDLEBARS_BUILTINS };
  const archApis = options.archApis ?? archApisOf(options.architectures);
  const fm = readFrontMatter(text);
  const template = parseTemplate(text, fm.bodyStart);
  const role = options.role ?? manifestRole(options.architectures, fm.arch, fm.role) ?? (fm.arch || fm.role ? undefined : options.roleByPath);
  const passed: PassedVariables | undefined = role && { who: `${role.arch}'s ${role.id} prompt`, vars: readSchemaShapes(role.variables).vars };
  const checks = runChecks(text, lines, fm, template, { helpers: new Set(Object.keys(helpers)), ablationsOff: new Set(options.ablationsOff ?? []), passed });
  const raw: RawDiag[] = [...fm.diags, ...checks.diags];
  // A required declaration makes every render without the variable stop ("missing value"): it must be passed always.
  if (passed) {
    for (const v of fm.variables) {
      const shape = passed.vars[v.name];
      if (v.optional || fm.defaults.includes(v.name) || (shape && !shape.optional)) continue;
      if (!shape) {
        const names = Object.keys(passed.vars);
        const hint = closest(v.name, names);
        raw.push({ start: v.keyStart, end: v.keyEnd, severity: 'error', code: 'undefined-variable', message: `'${v.name}' is declared required, but ${passed.who} is never given it${hint ? ` (did you mean '${hint}'?)` : ''}; it is given ${names.join(', ') || 'no variables'}: every call would stop with "missing value for variable ${v.name}"` });
      } else {
        raw.push({ start: v.keyStart, end: v.keyEnd, severity: 'error', code: 'optional-variable', message: `'${v.name}' is declared required, but ${passed.who} is given it only on some calls: the others would stop with "missing value for variable ${v.name}"; declare it optional ('${v.name}?')` });
      }
    }
  }
  const head = { start: 0, end: fm.present ? 3 : 0 };

  const roleKey = fm.keys.find((k) => k.key === 'waypoint.role');
  if (!roleKey) raw.push({ ...head, severity: 'error', code: 'missing-role', message: "Missing 'waypoint.role' in front matter (e.g. 'waypoint.role: coder'): runs cannot tell which role this prompt is for" });
  const archKey = fm.keys.find((k) => k.key === 'waypoint.arch');
  if (!archKey) raw.push({ ...head, severity: 'warning', code: 'unknown-arch', message: "Missing 'waypoint.arch' in front matter (e.g. 'waypoint.arch: malmm'): robot API completion and hover are off" });
  else if (fm.arch && !archApis[fm.arch]) raw.push({ start: archKey.valueStart, end: archKey.valueEnd, severity: 'information', code: 'unknown-arch', message: `No architecture '${fm.arch}' (known: ${Object.keys(archApis).join(', ')}); robot API completion and hover are off` });

  // The role now travels as request metadata; an old marker line would be sent to the model as prompt text.
  const marker = findRoleMarker(text, template, fm.bodyStart);
  if (marker) {
    raw.push({ start: marker.start, end: marker.end, severity: 'warning', code: 'role-marker', message: `Obsolete marker line: the role (${fm.arch ?? marker.arch}/${fm.role ?? marker.role}) is sent with each request from the front matter, and this line would reach the model as prompt text. Remove it.` });
  }

  const used = new Set(checks.uses.map((u) => u.name));
  for (const v of fm.variables) {
    if (!used.has(v.name)) raw.push({ start: v.keyStart, end: v.keyEnd, severity: 'hint', code: 'unused-variable', message: `Variable '${v.name}' is declared but not used in the template`, unnecessary: true });
  }
  if (fm.hasSchema === false && checks.uses.length > 0 && fm.present) {
    raw.push({ ...head, severity: 'warning', code: 'schema', message: "No 'input.schema' in front matter: declare every variable the template uses, with its documentation" });
  }

  const staticTokenEstimate = Math.ceil(checks.staticChars / 4);
  const budgetKey = fm.keys.find((k) => k.key === 'waypoint.contextBudgetTokens');
  if (fm.budgetTokens !== undefined && budgetKey && staticTokenEstimate > fm.budgetTokens) {
    raw.push({
      start: budgetKey.valueStart, end: budgetKey.valueEnd, severity: 'warning', code: 'budget',
      message: `Estimated ${staticTokenEstimate} tokens from the static text alone (chars/4 estimate, variable values not counted) exceed waypoint.contextBudgetTokens ${fm.budgetTokens}`,
    });
  }

  const ablations: AblationInfo[] = [];
  const ablationByBlock = new Map<number, AblationInfo>();
  for (const { block, openStart: _s, openEnd: _e, idStart: _is, idEnd: _ie, ...info } of checks.ablations) {
    ablations.push(info);
    ablationByBlock.set(block, info);
  }
  const firstById = new Map<string, AblationInfo>();
  for (const ab of ablations) if (ab.id && !firstById.has(ab.id)) firstById.set(ab.id, ab);

  const diagnostics: PromptDiagnostic[] = raw
    .sort((x, y) => x.start - y.start || x.end - y.end)
    .map((d) => {
      const out: PromptDiagnostic = { range: lines.span(d.start, d.end), severity: d.severity, code: d.code, message: d.message };
      if (d.unnecessary) out.unnecessary = true;
      if (d.code === 'ablation-duplicate') {
        const id = /'([^']+)'/.exec(d.message)?.[1];
        const first = id ? firstById.get(id) : undefined;
        if (first?.idRange) out.related = [{ range: first.idRange, message: `'${id}' first used here` }];
      }
      return out;
    });

  // Outline and folding are built on first use: publishing diagnostics after an edit does not need them.
  let outline: { symbols: PromptSymbol[]; folds: PromptFold[] } | undefined;
  const getOutline = () =>
    (outline ??= buildOutline(text, lines, fm, template, findHeadings(text, template), checks.ablations.map((x) => ({ block: x.block, id: x.id, label: x.label }))));
  return {
    text, lines, frontMatter: fm, template, variables: fm.variables, uses: checks.uses, helpers, archApis,
    api: (fm.arch && archApis[fm.arch]) || [], ablations, ablationByBlock,
    knownAblationIds: [...new Set(options.knownAblationIds ?? [])], staticTokenEstimate, diagnostics,
    get symbols() {
      return getOutline().symbols;
    },
    get folds() {
      return getOutline().folds;
    },
  };
}

/** Every `{{#ablation}}` block of a prompt: id, label, opening line, ranges (the extension's CodeLens toggles). */
export function findAblations(text: string): AblationInfo[] {
  const fm = readFrontMatter(text);
  const template = parseTemplate(text, fm.bodyStart);
  const checks = runChecks(text, new LineIndex(text), fm, template, { helpers: new Set() });
  return checks.ablations.map(({ block: _b, openStart: _s, openEnd: _e, idStart: _is, idEnd: _ie, ...info }) => info);
}

/** The role whose prompt lives at `path`: a workspace's `prompts/<arch>/<file>` or a built-in `<arch>/prompts/<file>`. */
export function rolePromptAt(path: string, architectures: Architectures<ArchitectureManifest>): PromptRole | undefined {
  const at = promptFileOf(path);
  const spec = at ? architectures.find(at.arch)?.roles.find((r) => r.promptFile === at.file) : undefined;
  return spec && { arch: at!.arch, id: spec.id, variables: spec.variables };
}

/** The manifest's role the front matter names, if both the architecture and the role exist. */
function manifestRole(architectures: Architectures<ArchitectureManifest> | undefined, arch: string | undefined, id: string | undefined): PromptRole | undefined {
  const spec = arch && id ? architectures?.find(arch)?.roles.find((r) => r.id === id) : undefined;
  return spec && { arch: arch!, id: spec.id, variables: spec.variables };
}

/** Every given architecture's robot functions, keyed by architecture id. */
function archApisOf(architectures: Architectures<ArchitectureManifest> | undefined): Record<string, readonly ApiFunctionSpec[]> {
  return Object.fromEntries((architectures?.ids() ?? []).map((id) => [id, architectures!.apiFunctions(id) ?? []]));
}

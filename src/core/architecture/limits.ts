// Limits are declared by each architecture with the seed's names and defaults (MALMM's maxTurns, RoCo's maxRounds,
// LLaMAR's maxSteps, ...). This module checks the declarations and resolves user-given values against them, so a
// wrong name or type is one clear error before anything runs. The engine adds its own limits, the same for every
// architecture (ENGINE_LIMITS): they are resolved, set and recorded like the architecture's.
import { closestName } from '../closest.js';
import type { ArchitectureManifest, LimitSpec, LimitValues } from './types.js';

/**
 * Limits every episode has, whatever its architecture: the caps that make every episode end. Defaults are generous
 * (none of the seeds' own budgets comes near them) so they only stop an episode that would otherwise not end.
 */
export const ENGINE_LIMITS: readonly LimitSpec[] = [
  {
    id: 'maxWallSecs',
    label: 'Wall-clock cap (s)',
    type: 'number',
    // An hour: MALMM's 150-turn cap at 20 s per call of a slow endpoint is 50 min; the reference model's longest
    // episodes take minutes.
    default: 3600,
    min: 0.001,
    max: 604_800,
    description:
      "Wall-clock seconds an episode may run (time stopped in a debugger or waiting for a person's turn not counted); reached, the episode ends with 'wall_clock_cap'. Checked at every trace event, and a model call in flight is cancelled; a simulator call or code block under way finishes first (they have their own limits).",
  },
  {
    id: 'maxSimSecs',
    label: 'Simulated-time cap (s)',
    type: 'number',
    // An hour of robot time: a default Action Contextualization episode (at most 9 plan executions, each stopping
    // at its first failed check) stays below it even when each execution ends in an action whose every controller
    // run timed out (about 2000 s); many planRuns may need more.
    default: 3600,
    min: 0.001,
    max: 604_800,
    description:
      "Simulated seconds an episode may use in all, the timelines that restores left included (retries, replans and independent runs add up, they do not start afresh); reached, the episode ends with 'sim_time_cap' after the action under way.",
  },
];

/** The architecture's limits and the engine's, as one list (the engine's last). */
export function declaredLimits(m: Pick<ArchitectureManifest, 'limits'>): LimitSpec[] {
  return [...m.limits, ...ENGINE_LIMITS];
}

const ID_RE = /^[a-z][A-Za-z0-9]*$/;

/** Problems in an architecture's own declarations (a bug in Waypoint or a plug-in architecture), one line each. */
export function manifestProblems(m: ArchitectureManifest): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const l of m.limits) {
    const where = `architecture '${m.id}' declares limit '${l.id}'`;
    if (!ID_RE.test(l.id)) out.push(`${where}: the id must be lowerCamelCase letters and digits`);
    if (seen.has(l.id)) out.push(`${where} twice`);
    if (ENGINE_LIMITS.some((e) => e.id === l.id)) out.push(`${where}, which is the engine's own limit (every architecture has it)`);
    seen.add(l.id);
    const problem = valueProblem(l, l.default);
    if (problem) out.push(`${where} with type ${l.type} but its default ${JSON.stringify(l.default)} ${problem}`);
    if (l.min !== undefined && l.max !== undefined && l.min > l.max) out.push(`${where} with min ${l.min} above max ${l.max}`);
  }
  if (!m.topologies[m.defaultTopology]) out.push(`architecture '${m.id}': default topology '${m.defaultTopology}' is not one of ${Object.keys(m.topologies).join(', ')}`);
  const roleIds = new Set(m.roles.map((r) => r.id));
  for (const [id, t] of Object.entries(m.topologies)) {
    for (const r of t.roles) if (!roleIds.has(r)) out.push(`architecture '${m.id}': topology '${id}' calls role '${r}', which is not declared`);
  }
  return out;
}

/** Why `v` is not a valid value of the limit, or undefined when it is. */
function valueProblem(l: LimitSpec, v: unknown): string | undefined {
  if (l.type === 'bool') return typeof v === 'boolean' ? undefined : 'is not true or false';
  if (typeof v !== 'number' || !Number.isFinite(v)) return 'is not a number';
  if (l.type === 'int' && !Number.isInteger(v)) return 'is not an integer';
  if (l.min !== undefined && v < l.min) return `is below the minimum ${l.min}`;
  if (l.max !== undefined && v > l.max) return `is above the maximum ${l.max}`;
  return undefined;
}

/** Parses a command-line or settings value ("30", "true") into the limit's type. */
function coerce(l: LimitSpec, raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const t = raw.trim();
  if (l.type === 'bool') return t === 'true' ? true : t === 'false' ? false : t;
  if (l.type === 'int') return /^[+-]?\d+$/.test(t) ? Number(t) : t;
  return t !== '' && Number.isFinite(Number(t)) ? Number(t) : t;
}

/** `name`: the given limit at fault (a sweep file points at its line). */
export type LimitsResult = { ok: true; limits: LimitValues } | { ok: false; error: string; name: string };

/** Defaults (the architecture's and the engine's) overlaid with `given`; unknown names and wrong values are errors naming the limit and the choices. */
export function resolveLimits(m: ArchitectureManifest, given: Readonly<Record<string, unknown>> = {}): LimitsResult {
  const out: Record<string, number | boolean> = {};
  const all = declaredLimits(m);
  for (const l of all) out[l.id] = l.default;
  for (const [name, raw] of Object.entries(given)) {
    if (raw === undefined) continue;
    const spec = all.find((l) => l.id === name);
    if (!spec) {
      const known = all.map((l) => l.id);
      const near = closestName(name, known);
      return { ok: false, name, error: `unknown limit '${name}' for ${m.id}${near ? ` (did you mean '${near}'?)` : ''}; its limits: ${known.join(', ') || '(none)'}` };
    }
    const v = coerce(spec, raw);
    const problem = valueProblem(spec, v);
    if (problem) return { ok: false, name, error: `limit ${name} of ${m.id} must be ${describeType(spec)}; ${JSON.stringify(raw)} ${problem}` };
    out[name] = v as number | boolean;
  }
  return { ok: true, limits: out };
}

export function describeType(l: LimitSpec): string {
  if (l.type === 'bool') return 'true or false';
  const range = l.min !== undefined && l.max !== undefined ? ` from ${l.min} to ${l.max}` : l.min !== undefined ? ` >= ${l.min}` : l.max !== undefined ? ` <= ${l.max}` : '';
  return `${l.type === 'int' ? 'an integer' : 'a number'}${range}`;
}

/** A numeric limit by id (architectures read their own declared limits through this). */
export function limitNumber(limits: LimitValues, id: string): number {
  const v = limits[id];
  if (typeof v !== 'number') throw new Error(`limit '${id}' is not set (declared limits: ${Object.keys(limits).join(', ') || 'none'})`);
  return v;
}

/** A boolean limit by id. */
export function limitFlag(limits: LimitValues, id: string): boolean {
  const v = limits[id];
  if (typeof v !== 'boolean') throw new Error(`limit '${id}' is not a flag (declared limits: ${Object.keys(limits).join(', ') || 'none'})`);
  return v;
}

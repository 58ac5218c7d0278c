// Argument checks with Python-like wording, since the caller is generated Python: "f() missing 1 required
// positional argument: 'x'", values shown as Python would print them ([0.1, 0.2], 'text', None, True).
import type { ApiFunctionSpec } from '../../simulator.js';

export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'nan';
    if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
    return String(v);
  }
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (typeof v === 'object') return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `'${k}': ${pyRepr(x)}`).join(', ')}}`;
  return String(v);
}

/** Python's message for a wrong number of positional arguments, or null if the count is right. */
export function arityError(fn: string, params: readonly string[], args: readonly unknown[]): string | null {
  if (args.length > params.length) {
    const n = params.length;
    return `${fn}() takes ${n} positional argument${n === 1 ? '' : 's'} but ${args.length} ${args.length === 1 ? 'was' : 'were'} given`;
  }
  if (args.length < params.length) {
    const missing = params.slice(args.length).map((p) => `'${p}'`);
    const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`;
    return `${fn}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${list}`;
  }
  return null;
}

/**
 * Python's own complaint about a call to a function the API does not have, or with too many or too few arguments
 * (optional parameters may be left out); null when the call has the right shape.
 */
export function callShapeError(functions: readonly ApiFunctionSpec[], fn: string, args: readonly unknown[]): string | null {
  const spec = functions.find((f) => f.name === fn);
  if (!spec) return `unknown robot API function '${fn}'; available: ${functions.map((f) => f.name).join(', ')}`;
  const all = spec.params.map((p) => p.name);
  const need = spec.params.filter((p) => !p.optional).map((p) => p.name);
  return args.length > all.length ? arityError(fn, all, args) : args.length < need.length ? arityError(fn, need, args) : null;
}

export function isRealNumber(v: unknown): v is number {
  return typeof v === 'number';
}

/** A list of exactly `n` finite numbers, or the error text. */
export function numberList(fn: string, param: string, v: unknown, n: number): { ok: true; value: number[] } | { ok: false; error: string } {
  if (!Array.isArray(v) || v.length !== n || !v.every(isRealNumber)) {
    return { ok: false, error: `${fn}() expects ${param} as a list of ${n} numbers, got ${pyRepr(v)}` };
  }
  if (!v.every(Number.isFinite)) return { ok: false, error: `${fn}() expects finite numbers in ${param}, got ${pyRepr(v)}` };
  return { ok: true, value: [...v] };
}

export function finiteNumber(fn: string, param: string, what: string, v: unknown): { ok: true; value: number } | { ok: false; error: string } {
  if (!isRealNumber(v)) return { ok: false, error: `${fn}() expects ${param} as a number (${what}), got ${pyRepr(v)}` };
  if (!Number.isFinite(v)) return { ok: false, error: `${fn}() expects ${param} as a finite number (${what}), got ${pyRepr(v)}` };
  return { ok: true, value: v };
}

export function str(fn: string, param: string, v: unknown): { ok: true; value: string } | { ok: false; error: string } {
  if (typeof v !== 'string') return { ok: false, error: `${fn}() expects ${param} as a str, got ${pyRepr(v)}` };
  return { ok: true, value: v };
}

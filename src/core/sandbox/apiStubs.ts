// Python source for the robot API as the generated code sees it: one real `def` per ApiFunctionSpec, so a wrong
// number of arguments is Python's own TypeError, and each argument is checked against its declared type before
// the call leaves the sandbox. The helpers `_wp_check` and `_wp_call` come from pythonHarness.ts.
import type { ApiFunctionSpec } from '../sim/simulator.js';

const PYTHON_KEYWORDS = new Set(
  ('False None True and as assert async await break class continue def del elif else except finally for from global ' +
    'if import in is lambda nonlocal not or pass raise return try while with yield').split(' '),
);

function checkIdentifier(name: string, what: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || PYTHON_KEYWORDS.has(name)) {
    throw new Error(`invalid ${what} ${JSON.stringify(name)}: not a Python identifier`);
  }
  if (name.startsWith('_wp_')) throw new Error(`invalid ${what} ${JSON.stringify(name)}: the _wp_ prefix is reserved for the sandbox`);
}

/** JSON string literals are valid Python string literals (same escapes), so they carry any text safely. */
const py = (text: string): string => JSON.stringify(text);

/** Python source defining one stub function per spec. Throws on a spec that cannot become valid Python. */
export function pythonApiStubs(specs: readonly ApiFunctionSpec[]): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const spec of specs) {
    checkIdentifier(spec.name, 'API function name');
    if (seen.has(spec.name)) throw new Error(`duplicate API function ${JSON.stringify(spec.name)}`);
    seen.add(spec.name);
    const params: string[] = [];
    const checks: string[] = [];
    let optionalSeen: string | undefined;
    const paramNames = new Set<string>();
    for (const p of spec.params) {
      checkIdentifier(p.name, `parameter of ${spec.name}`);
      if (paramNames.has(p.name)) throw new Error(`duplicate parameter ${JSON.stringify(p.name)} in API function ${spec.name}`);
      paramNames.add(p.name);
      if (p.optional) optionalSeen = p.name;
      else if (optionalSeen !== undefined) {
        throw new Error(`required parameter ${JSON.stringify(p.name)} follows optional ${JSON.stringify(optionalSeen)} in API function ${spec.name}`);
      }
      params.push(p.optional ? `${p.name}=_wp_MISSING` : p.name);
      checks.push(`(${py(p.name)}, ${py(p.type)}, ${p.name})`);
    }
    const doc = [spec.signature, spec.doc].filter((s) => s.length > 0).join('\n\n');
    out.push(
      `def ${spec.name}(${params.join(', ')}):`,
      `    ${py(doc)}`,
      `    return _wp_call(${py(spec.name)}, [${checks.join(', ')}])`,
      '',
    );
  }
  return out.join('\n');
}

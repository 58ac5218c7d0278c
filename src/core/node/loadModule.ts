// Compiles and imports a module the user wrote (a workspace architecture's index.ts / index.js / index.mjs): esbuild
// bundles it with its relative imports into one ES module, `waypoint/architecture` resolved to the host's runtime
// helpers (src/core/architecture/public.ts), and Node imports that from memory. A syntax error, a missing file or
// an import of something the public module does not export is reported at its file:line; so is an exception its top
// level throws, where its stack names a line of the source.
import { isAbsolute, resolve } from 'node:path';
import { ARCHITECTURE_RUNTIME } from '../architecture/public.js';

export const PUBLIC_MODULE = 'waypoint/architecture';
const RUNTIME_KEY = Symbol.for('waypoint.architectureRuntime');

export type LoadedModule = { ok: true; exports: Record<string, unknown> } | { ok: false; file: string; line?: number; column?: number; message: string };

interface EsbuildMessage {
  text: string;
  location?: { file: string; line: number; column: number } | null;
}

/** The source of the virtual `waypoint/architecture`: one export per runtime helper, read from the host's global. */
function publicModuleSource(): string {
  const names = Object.keys(ARCHITECTURE_RUNTIME);
  return [
    `const rt = globalThis[Symbol.for('waypoint.architectureRuntime')];`,
    `if (!rt) throw new Error('${PUBLIC_MODULE} is only available inside a Waypoint host');`,
    ...names.map((n) => `export const ${n} = rt.${n};`),
  ].join('\n');
}

/** Compiles `entry` (TS or JS) and its relative imports into one ES module and imports it. Never throws. */
export async function compileAndImport(entry: string): Promise<LoadedModule> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch (e) {
    return { ok: false, file: entry, message: `esbuild is needed to load this module and could not be loaded (${(e as Error).message.split('\n')[0]})` };
  }
  let code: string;
  try {
    const out = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'silent',
      sourcemap: 'inline',
      // Node built-ins and installed packages stay imports; the public module is the host's.
      packages: 'external',
      plugins: [
        {
          name: 'waypoint-public-module',
          setup(b) {
            b.onResolve({ filter: /^waypoint\/architecture$/ }, () => ({ path: PUBLIC_MODULE, namespace: 'waypoint' }));
            b.onLoad({ filter: /.*/, namespace: 'waypoint' }, () => ({ contents: publicModuleSource(), loader: 'js' }));
          },
        },
      ],
    });
    code = out.outputFiles[0]!.text;
  } catch (e) {
    const first = ((e as { errors?: EsbuildMessage[] }).errors ?? [])[0];
    if (!first) return { ok: false, file: entry, message: (e as Error).message };
    const loc = first.location;
    return { ok: false, file: loc ? (isAbsolute(loc.file) ? loc.file : resolve(loc.file)) : entry, line: loc?.line, column: loc ? loc.column + 1 : undefined, message: first.text };
  }
  (globalThis as Record<symbol, unknown>)[RUNTIME_KEY] = ARCHITECTURE_RUNTIME;
  try {
    // A data: URL: nothing written to disk, and each version of the file is a new module (edits are picked up).
    const exports = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as Record<string, unknown>;
    return { ok: true, exports };
  } catch (e) {
    return { ok: false, ...throwSite(e, code, entry), message: `importing it threw: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/**
 * Where a top-level exception was thrown, in the user's file: the first stack frame in the data: module, mapped
 * back through the inline source map (esbuild's "sources" are relative to the working directory).
 */
function throwSite(e: unknown, code: string, entry: string): { file: string; line?: number } {
  const frame = e instanceof Error ? /data:text\/javascript[^:\s]*:(\d+):(\d+)/.exec(e.stack ?? '') : null;
  const map = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)\s*$/.exec(code);
  if (!frame || !map) return { file: entry };
  try {
    const sm = JSON.parse(Buffer.from(map[1]!, 'base64').toString('utf8')) as { sources: string[]; mappings: string };
    const pos = originalPosition(sm.mappings, Number(frame[1]) - 1);
    if (!pos) return { file: entry };
    const src = sm.sources[pos.source];
    return src ? { file: resolve(src), line: pos.line + 1 } : { file: entry };
  } catch {
    return { file: entry };
  }
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The source and line of the first mapping on generated line `genLine` (0-based), decoding the VLQ mappings. */
export function originalPosition(mappings: string, genLine: number): { source: number; line: number } | undefined {
  let source = 0;
  let line = 0;
  const lines = mappings.split(';');
  for (let g = 0; g < lines.length && g <= genLine; g++) {
    for (const seg of lines[g]!.split(',')) {
      if (!seg) continue;
      const v = decodeVlq(seg);
      if (v.length >= 4) {
        source += v[1]!;
        line += v[2]!;
        if (g === genLine) return { source, line };
      }
    }
  }
  return undefined;
}

function decodeVlq(seg: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of seg) {
    const d = B64.indexOf(ch);
    value += (d & 31) << shift;
    if (d & 32) {
      shift += 5;
    } else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

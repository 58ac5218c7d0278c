// Loads the MuJoCo WebAssembly module once per process and shares it: the module is large (~10 MB of WASM)
// and every simulator instance can use the same one, since models and data are separate Embind objects.
import type { MainModule, MjModel } from 'mujoco-js';

export type Mujoco = MainModule;

let shared: Promise<Mujoco> | undefined;
/** Lines MuJoCo printed while a model was loading (its XML parse errors arrive only this way, on stdout). */
let printed: string[] = [];

/** The process-wide MuJoCo module. The first call loads it (~150-200 ms); later calls reuse it. */
export function loadMujocoModule(): Promise<Mujoco> {
  if (!shared) {
    // A dynamic import keeps this loadable from CommonJS bundles too (mujoco-js is ESM only).
    shared = import('mujoco-js')
      .then((mod) =>
        mod.default({
          print: (line: string) => {
            printed.push(line);
          },
          printErr: (line: string) => {
            printed.push(line);
          },
        }),
      )
      .then((mj) => {
        mj.FS.mkdir('/waypoint');
        return mj;
      })
      .catch((err: unknown) => {
        shared = undefined;
        throw new Error(`mujoco-js failed to load: ${err instanceof Error ? err.message : String(err)}`);
      });
  }
  return shared;
}

let modelCounter = 0;

/**
 * Compiles MJCF text into a model. The caller owns the result and must `.delete()` it (SceneModel.dispose does).
 * Throws with MuJoCo's own message when the XML does not compile.
 */
export function compileMjcf(mj: Mujoco, xml: string, label: string): MjModel {
  const path = `/waypoint/${label.replace(/[^A-Za-z0-9_-]/g, '_')}-${++modelCounter}.xml`;
  mj.FS.writeFile(path, xml);
  printed = [];
  let model: MjModel | null = null;
  try {
    model = mj.MjModel.loadFromXML(path);
  } catch (err) {
    const message = typeof err === 'object' && err !== null && 'excPtr' in err ? cppMessage(mj, err as { excPtr: number }) : String(err);
    throw new Error(`MJCF for '${label}' did not compile: ${[message, ...printed].join(' ').trim()}`);
  } finally {
    mj.FS.unlink(path);
  }
  if (!model) {
    throw new Error(`MJCF for '${label}' did not compile: ${printed.join(' ').trim() || 'no message from MuJoCo'}`);
  }
  return model;
}

/** mujoco-js 0.0.7 passes only the C++ exception type (e.g. mjCError), not MuJoCo's text. */
function cppMessage(mj: Mujoco, err: { excPtr: number }): string {
  const getMessage = (mj as unknown as { getExceptionMessage?: (ptr: number) => [string, string | undefined] }).getExceptionMessage;
  const [type, message] = getMessage ? getMessage(err.excPtr) : ['C++ exception', undefined];
  return message ? `${type}: ${message}` : `${type} (MuJoCo's message is not passed through mujoco-js)`;
}

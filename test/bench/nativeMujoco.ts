// Native MuJoCo for the simulator benchmark and the scene-export test: the official `mujoco` Python package,
// driven through nativeMujoco.py's line protocol. Where no Python with `mujoco` is found, a venv is made once
// in the cache folder from local wheels (`pip install --no-index --find-links <dir> mujoco`, PyPI is never
// asked); where that cannot be done either, callers get the reason and skip.
//   WAYPOINT_MUJOCO_PYTHON   a python that imports mujoco (used as is)
//   WAYPOINT_WHEELS          folder of wheels to install from (default /opt/pypi/files)
//   WAYPOINT_CACHE           cache folder (default ~/.cache/waypoint); the venv is <cache>/py-mujoco
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { Rate } from './stepTimings.js';

const SCRIPT = join(import.meta.dirname, 'nativeMujoco.py');

export type PythonFound = { python: string; how: string } | { skipped: string };

function importsMujoco(python: string): string | null {
  const r = spawnSync(python, ['-c', 'import mujoco, numpy; print(mujoco.__version__)'], { encoding: 'utf8', timeout: 60_000 });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** A Python that imports `mujoco`, making the cached venv when needed; or why there is none. */
export function findMujocoPython(): PythonFound {
  const given = process.env.WAYPOINT_MUJOCO_PYTHON;
  if (given) {
    const v = importsMujoco(given);
    return v ? { python: given, how: `WAYPOINT_MUJOCO_PYTHON (mujoco ${v})` } : { skipped: `WAYPOINT_MUJOCO_PYTHON=${given} cannot import mujoco` };
  }
  const venv = join(process.env.WAYPOINT_CACHE ?? join(homedir(), '.cache', 'waypoint'), 'py-mujoco');
  const venvPython = join(venv, 'bin', 'python');
  if (existsSync(venvPython) && importsMujoco(venvPython)) return { python: venvPython, how: `venv ${venv}` };
  for (const p of ['python3', 'python']) if (importsMujoco(p)) return { python: p, how: `${p} on PATH` };
  const wheels = process.env.WAYPOINT_WHEELS ?? '/opt/pypi/files';
  let names: string[] = [];
  try {
    names = readdirSync(wheels);
  } catch {
    return { skipped: `no Python with the mujoco package, and no wheel folder at ${wheels} to install it from (set WAYPOINT_MUJOCO_PYTHON or WAYPOINT_WHEELS)` };
  }
  const pyTag = spawnSync('python3', ['-c', 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")'], { encoding: 'utf8' }).stdout?.trim();
  if (!pyTag) return { skipped: 'no python3 on PATH' };
  if (!names.some((n) => n.startsWith('mujoco-') && n.includes(`-${pyTag}-`) && n.endsWith('.whl'))) {
    return { skipped: `no mujoco wheel for ${pyTag} in ${wheels}` };
  }
  const mk = spawnSync('python3', ['-m', 'venv', venv], { encoding: 'utf8' });
  if (mk.status !== 0) return { skipped: `python3 -m venv failed: ${(mk.stderr || '').trim().split('\n').pop()}` };
  const pip = spawnSync(join(venv, 'bin', 'pip'), ['install', '-q', '--no-index', '--find-links', wheels, 'mujoco'], { encoding: 'utf8', timeout: 300_000 });
  if (pip.status !== 0) return { skipped: `pip install --no-index --find-links ${wheels} mujoco failed: ${(pip.stderr || '').trim().split('\n').pop()}` };
  return importsMujoco(venvPython) ? { python: venvPython, how: `venv ${venv} (made now from ${wheels})` } : { skipped: `the venv at ${venv} cannot import mujoco after installing it` };
}

export type NativeRate = Rate;

/** One long-lived `nativeMujoco.py`; requests are answered in order. */
export class NativeMujoco {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: Interface;
  private readonly waiting: ((line: string) => void)[] = [];
  private readonly early: string[] = [];
  private stderr = '';
  version = '';
  pythonVersion = '';

  private constructor(python: string) {
    this.child = spawn(python, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (b: Buffer) => (this.stderr += b.toString()));
    this.lines = createInterface({ input: this.child.stdout });
    this.lines.on('line', (line) => {
      const w = this.waiting.shift();
      if (w) w(line);
      else this.early.push(line);
    });
  }

  static async start(python: string): Promise<NativeMujoco> {
    const n = new NativeMujoco(python);
    const hello = (await n.next()) as { version: string; python: string };
    n.version = hello.version;
    n.pythonVersion = hello.python;
    return n;
  }

  private next(): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const onExit = () => reject(new Error(`nativeMujoco.py exited: ${this.stderr.trim().split('\n').pop() ?? ''}`));
      this.child.once('exit', onExit);
      const take = (line: string) => {
        this.child.off('exit', onExit);
        resolve(JSON.parse(line) as Record<string, unknown>);
      };
      const queued = this.early.shift();
      if (queued !== undefined) take(queued);
      else this.waiting.push(take);
    });
  }

  private async ask<T>(req: Record<string, unknown>): Promise<T> {
    this.child.stdin.write(JSON.stringify(req) + '\n');
    const res = await this.next();
    if (res.ok !== true) throw new Error(`native MuJoCo: ${String(res.error)}`);
    return res as T;
  }

  load(path: string): Promise<{ nq: number; nv: number; nbody: number; ngeom: number; nkey: number; integrator: number }> {
    return this.ask({ op: 'load', path });
  }

  /** mj_step `steps` times from keyframe 0. */
  rate(path: string, steps: number): Promise<NativeRate> {
    return this.ask({ op: 'rate', path, steps });
  }

  /** mj_step taken apart into stages (see stepTimings.ts), microseconds per step. */
  stages(path: string, steps: number): Promise<{ usPerStep: Record<string, number>; ncon: number }> {
    return this.ask({ op: 'stages', path, steps });
  }

  /** World positions of `bodies` after mj_resetDataKeyframe(0) + mj_forward. */
  keyframe(path: string, bodies: string[]): Promise<{ bodies: Record<string, number[]>; ncon: number; time: number }> {
    return this.ask({ op: 'keyframe', path, bodies });
  }

  close(): void {
    this.child.stdin.end();
    this.lines.close();
  }
}

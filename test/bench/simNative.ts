// Native MuJoCo for the simulator benchmark: Debian's libmujoco-dev (MuJoCo 2.2.2) when installed. A tiny C
// program is written to a temp dir and compiled at bench time (nothing is committed), then steps an MJCF from
// its first keyframe. 2.2.2 predates some features the embedded scenes use, so `portableMjcf` rewrites the
// scene for it (same bodies, geoms, actuators and contacts): implicitfast -> implicit, no gravcomp, no contact
// sensors, position servos with kv written as general actuators (gain kp, affine bias 0, -kp, -kv, which is
// what <position kp kv> means). Both engines then step the same text.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const HEADER = '/usr/include/mujoco/mujoco.h';

const C_SOURCE = String.raw`
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <mujoco/mujoco.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(int argc, char** argv) {
  char err[1000] = "";
  mjModel* m = mj_loadXML(argv[1], 0, err, sizeof(err));
  if (!m) { fprintf(stderr, "load failed: %s\n", err); return 2; }
  mjData* d = mj_makeData(m);
  int steps = atoi(argv[2]), reps = atoi(argv[3]);
  double best = 0;
  for (int r = 0; r < reps; r++) {
    mj_resetDataKeyframe(m, d, 0);
    double t0 = now();
    for (int k = 0; k < steps; k++) mj_step(m, d);
    double rate = steps / (now() - t0);
    if (rate > best) best = rate;
  }
  printf("%s %.1f %d\n", mj_versionString(), best, d->ncon);
  mj_deleteData(d); mj_deleteModel(m);
  return 0;
}
`;

/** The scene rewritten for MuJoCo 2.2.2 (see the file comment), with `keyframe` appended. */
export function portableMjcf(xml: string, keyframe: string): string {
  return xml
    .replace(/integrator="implicitfast"/, 'integrator="implicit"')
    .replace(/ gravcomp="1"/g, '')
    .replace(/\n\s*<sensor>[\s\S]*?<\/sensor>/, '')
    .replace(/\n\s*<sensor\/>/, '')
    .replace(/<position ([^>]*?)kp="([^"]+)" kv="([^"]+)"([^>]*)\/>/g, (_m, pre: string, kp: string, kv: string, post: string) => `<general ${pre}gaintype="fixed" gainprm="${kp}" biastype="affine" biasprm="0 -${kp} -${kv}"${post}/>`)
    .replace(/<\/mujoco>\s*$/, `  ${keyframe}\n</mujoco>`);
}

export type NativeResult = { ok: true; version: string; stepsPerSec: number; contacts: number } | { ok: false; reason: string };

export class NativeMujoco {
  private dir: string | null = null;
  private exe = '';
  private count = 0;

  /** Compiles the stepping program; returns why native is not available, or null. */
  prepare(): string | null {
    if (!existsSync(HEADER)) return 'libmujoco-dev is not installed (apt-get install -y libmujoco-dev)';
    this.dir = mkdtempSync(join(tmpdir(), 'waypoint-sim-bench-'));
    const src = join(this.dir, 'step.c');
    this.exe = join(this.dir, 'step');
    writeFileSync(src, C_SOURCE);
    try {
      execFileSync('cc', ['-O2', '-o', this.exe, src, '-lmujoco'], { stdio: 'pipe' });
    } catch (err) {
      const e = err as { stderr?: Buffer; message: string };
      return `compiling against libmujoco-dev failed: ${(e.stderr?.toString() || e.message).split('\n')[0]}`;
    }
    return null;
  }

  run(xml: string, steps: number, reps: number): NativeResult {
    if (!this.dir) return { ok: false, reason: 'not prepared' };
    const file = join(this.dir, `scene-${++this.count}.xml`);
    writeFileSync(file, xml);
    try {
      const out = execFileSync(this.exe, [file, String(steps), String(reps)], { stdio: 'pipe' }).toString().trim();
      const [version, rate, ncon] = out.split(' ');
      return { ok: true, version: version!, stepsPerSec: Number(rate), contacts: Number(ncon) };
    } catch (err) {
      const e = err as { stderr?: Buffer; message: string };
      return { ok: false, reason: (e.stderr?.toString() || e.message).trim().split('\n')[0]! };
    }
  }

  dispose(): void {
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boxBoxDistance } from '../../../../../src/core/sim/mujoco/boxDistance.js';
import { compileMjcf, loadMujocoModule } from '../../../../../src/core/sim/mujoco/wasm.js';
import { quatToMat } from '../../../../../src/core/sim/mujoco/math3.js';

const I = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const rotZ = (a: number) => [Math.cos(a), -Math.sin(a), 0, Math.sin(a), Math.cos(a), 0, 0, 0, 1];
const flip = [1, 0, 0, 0, -1, 0, 0, 0, -1]; // a top-down tool: z axis pointing down

test('box-box distance: hand-checked face, corner and edge cases, and overlap', () => {
  const a = { c: [0, 0, 0], R: I, h: [0.05, 0.05, 0.05] };
  // Parallel faces 0.2 apart (the case mj_geomDistance gets wrong), also with one box upside down.
  assert.ok(Math.abs(boxBoxDistance(a, { c: [0.01, 0.02, 0.3], R: I, h: [0.05, 0.05, 0.05] }) - 0.2) < 1e-12);
  assert.ok(Math.abs(boxBoxDistance(a, { c: [0.01, 0.02, 0.3], R: flip, h: [0.025, 0.09, 0.03] }) - 0.22) < 1e-12);
  // Corner to corner along the diagonal.
  const d = boxBoxDistance(a, { c: [0.2, 0.2, 0.2], R: I, h: [0.05, 0.05, 0.05] });
  assert.ok(Math.abs(d - Math.sqrt(3) * 0.1) < 1e-12, String(d));
  // b turned 45 degrees about z: its vertical edge faces a's side 0.1 - 0.05 sqrt(2) away.
  const e = boxBoxDistance(a, { c: [0.15, 0, 0], R: rotZ(Math.PI / 4), h: [0.05, 0.05, 0.05] });
  assert.ok(Math.abs(e - (0.1 - 0.05 * Math.SQRT2)) < 1e-9, String(e));
  // Overlap: negative.
  assert.ok(boxBoxDistance(a, { c: [0.08, 0, 0], R: I, h: [0.05, 0.05, 0.05] }) < 0);
});

/** Brute force: min over a dense grid of points on a's surface of their distance to b (an upper bound within the grid step). */
function bruteForce(a: { c: number[]; R: number[]; h: number[] }, b: { c: number[]; R: number[]; h: number[] }): number {
  const n = 24;
  let best = Infinity;
  const local = (p: number[]) => {
    const d = [p[0]! - b.c[0]!, p[1]! - b.c[1]!, p[2]! - b.c[2]!];
    let sum = 0;
    for (let i = 0; i < 3; i++) {
      const l = Math.abs(d[0]! * b.R[i]! + d[1]! * b.R[3 + i]! + d[2]! * b.R[6 + i]!) - b.h[i]!;
      if (l > 0) sum += l * l;
    }
    return Math.sqrt(sum);
  };
  for (let f = 0; f < 3; f++)
    for (const s of [-1, 1])
      for (let i = 0; i <= n; i++)
        for (let j = 0; j <= n; j++) {
          const l = [0, 0, 0];
          l[f] = s * a.h[f]!;
          l[(f + 1) % 3] = (2 * i / n - 1) * a.h[(f + 1) % 3]!;
          l[(f + 2) % 3] = (2 * j / n - 1) * a.h[(f + 2) % 3]!;
          const p = [0, 1, 2].map((r) => a.c[r]! + a.R[3 * r]! * l[0]! + a.R[3 * r + 1]! * l[1]! + a.R[3 * r + 2]! * l[2]!);
          best = Math.min(best, local(p));
        }
  return best;
}

test('box-box distance matches a brute-force surface search for random poses, and MuJoCo where MuJoCo answers', async () => {
  const mj = await loadMujocoModule();
  let seed = 7;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  let agreedWithMujoco = 0;
  for (let k = 0; k < 30; k++) {
    const q1 = [rnd(), rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
    const q2 = [rnd(), rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
    const n1 = Math.hypot(...q1);
    const n2 = Math.hypot(...q2);
    const a = { c: [0, 0, 0], R: quatToMat(q1.map((v) => v / n1)) as number[], h: [0.02 + rnd() * 0.04, 0.02 + rnd() * 0.04, 0.02 + rnd() * 0.04] };
    const b = { c: [0.1 + rnd() * 0.1, rnd() * 0.1, rnd() * 0.1], R: quatToMat(q2.map((v) => v / n2)) as number[], h: [0.02 + rnd() * 0.04, 0.02 + rnd() * 0.04, 0.02 + rnd() * 0.04] };
    const ours = boxBoxDistance(a, b);
    const brute = bruteForce(a, b);
    if (ours > 0) assert.ok(ours <= brute + 1e-9 && brute - ours < 0.004, `case ${k}: ours ${ours} vs brute force ${brute}`);
    else assert.ok(brute < 0.004, `case ${k}: overlap claimed but brute force finds ${brute}`);
    const xml = `<mujoco><worldbody><geom type="box" size="${a.h.join(' ')}" quat="${q1.map((v) => v / n1).join(' ')}"/><geom type="box" pos="${b.c.join(' ')}" size="${b.h.join(' ')}" quat="${q2.map((v) => v / n2).join(' ')}"/></worldbody></mujoco>`;
    const m = compileMjcf(mj, xml, 'boxes');
    const d = new mj.MjData(m);
    try {
      mj.mj_forward(m, d);
      const theirs = mj.mj_geomDistance(m, d, 0, 1, 0.5, null);
      if (theirs > 0 && Math.abs(theirs - ours) < 1e-6) agreedWithMujoco++;
    } finally {
      d.delete();
      m.delete();
    }
  }
  assert.ok(agreedWithMujoco >= 15, `agreed with MuJoCo on ${agreedWithMujoco} of 30`);
});

// Dexterity of an arm configuration: the inverse condition number of its Jacobian (Klein & Blaho's index, as
// used by Action Contextualization's M_I). 1 is isotropic, 0 is singular. Pure numerics, no MuJoCo.

/**
 * Eigenvalues of a symmetric n x n matrix (flat row-major), by cyclic Jacobi rotations. Small n only (n <= 8 here).
 * Returned in ascending order.
 */
export function symmetricEigenvalues(a: ArrayLike<number>, n: number): number[] {
  const m = Float64Array.from({ length: n * n }, (_, i) => a[i]!);
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += m[p * n + q]! * m[p * n + q]!;
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++)
      for (let q = p + 1; q < n; q++) {
        const apq = m[p * n + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const app = m[p * n + p]!;
        const aqq = m[q * n + q]!;
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = m[k * n + p]!;
          const akq = m[k * n + q]!;
          m[k * n + p] = c * akp - s * akq;
          m[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = m[p * n + k]!;
          const aqk = m[q * n + k]!;
          m[p * n + k] = c * apk - s * aqk;
          m[q * n + k] = s * apk + c * aqk;
        }
      }
  }
  return Array.from({ length: n }, (_, i) => m[i * n + i]!).sort((x, y) => x - y);
}

/**
 * Singular values of a rows x cols matrix J (flat row-major), descending, via the eigenvalues of the smaller of
 * J J^T and J^T J. For the 6 x 7 arm Jacobian that is a 6 x 6 problem, so the 7th (null-space) direction never
 * counts as singular.
 */
export function singularValues(J: ArrayLike<number>, rows: number, cols: number): number[] {
  const n = Math.min(rows, cols);
  const g = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = i; j < n; j++) {
      let sum = 0;
      if (rows <= cols) for (let k = 0; k < cols; k++) sum += J[i * cols + k]! * J[j * cols + k]!;
      else for (let k = 0; k < rows; k++) sum += J[k * cols + i]! * J[k * cols + j]!;
      g[i * n + j] = sum;
      g[j * n + i] = sum;
    }
  return symmetricEigenvalues(g, n)
    .map((e) => Math.sqrt(Math.max(0, e)))
    .reverse();
}

/**
 * delta = sigma_min / sigma_max of J, in [0, 1]. Translational rows are in metres per radian and rotational rows
 * in radians per radian, so the number depends on that mix of units (as in the paper's code); it is used to
 * compare configurations of the same arm, not as an absolute.
 */
export function inverseConditionNumber(J: ArrayLike<number>, rows: number, cols: number): number {
  const s = singularValues(J, rows, cols);
  const max = s[0]!;
  if (!(max > 0)) return 0;
  return s[s.length - 1]! / max;
}

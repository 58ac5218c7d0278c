// Small rotation helpers. Matrices are flat row-major 3x3 (MuJoCo's layout); quaternions are (w, x, y, z).
import type { Quat } from './simState.js';
import type { Vec3 } from './scene/sceneSpec.js';

export function quatToMat(q: readonly number[], out: Float64Array | number[] = new Array<number>(9)): Float64Array | number[] {
  const [w, x, y, z] = q as [number, number, number, number];
  out[0] = 1 - 2 * (y * y + z * z);
  out[1] = 2 * (x * y - w * z);
  out[2] = 2 * (x * z + w * y);
  out[3] = 2 * (x * y + w * z);
  out[4] = 1 - 2 * (x * x + z * z);
  out[5] = 2 * (y * z - w * x);
  out[6] = 2 * (x * z - w * y);
  out[7] = 2 * (y * z + w * x);
  out[8] = 1 - 2 * (x * x + y * y);
  return out;
}

export function quatMul(a: readonly number[], b: readonly number[]): Quat {
  const [aw, ax, ay, az] = a as [number, number, number, number];
  const [bw, bx, by, bz] = b as [number, number, number, number];
  return [aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw];
}

export function quatConj(q: readonly number[]): Quat {
  return [q[0]!, -q[1]!, -q[2]!, -q[3]!];
}

/** Rotates v by q. */
export function quatRotate(q: readonly number[], v: readonly number[]): Vec3 {
  const r = quatMul(quatMul(q, [0, v[0]!, v[1]!, v[2]!]), quatConj(q));
  return [r[1], r[2], r[3]];
}

/** Roll, pitch, yaw (R = Rz(yaw) Ry(pitch) Rx(roll)) of a unit quaternion, radians. */
export function quatToEuler(q: readonly number[]): Vec3 {
  const [w, x, y, z] = q as [number, number, number, number];
  const roll = Math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y));
  const sp = Math.max(-1, Math.min(1, 2 * (w * y - z * x)));
  const pitch = Math.asin(sp);
  const yaw = Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
  return [roll, pitch, yaw];
}

export function yawQuat(yawRad: number): Quat {
  return [Math.cos(yawRad / 2), 0, 0, Math.sin(yawRad / 2)];
}

/** Wraps an angle to (-pi, pi]. */
export function wrapAngle(a: number): number {
  let r = a % (2 * Math.PI);
  if (r > Math.PI) r -= 2 * Math.PI;
  if (r <= -Math.PI) r += 2 * Math.PI;
  return r;
}

/**
 * Rotation vector w (world frame) with exp(w) * R = T, for row-major R and T: the orientation error used by IK.
 * Goes through the quaternion of T * R^T so it is exact for large errors too.
 */
export function rotationError(T: ArrayLike<number>, R: ArrayLike<number>, out: Float64Array): void {
  // E = T * R^T
  const e = new Array<number>(9);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) e[3 * i + j] = T[3 * i]! * R[3 * j]! + T[3 * i + 1]! * R[3 * j + 1]! + T[3 * i + 2]! * R[3 * j + 2]!;
  const [w, x, y, z] = matToQuat(e);
  const s = Math.hypot(x, y, z);
  if (s < 1e-12) {
    out[0] = out[1] = out[2] = 0;
    return;
  }
  const angle = 2 * Math.atan2(s, w);
  out[0] = (x / s) * angle;
  out[1] = (y / s) * angle;
  out[2] = (z / s) * angle;
}

/** Unit quaternion with w >= 0 of a row-major rotation matrix. */
export function matToQuat(m: ArrayLike<number>): Quat {
  const tr = m[0]! + m[4]! + m[8]!;
  let q: Quat;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    q = [0.25 * s, (m[7]! - m[5]!) / s, (m[2]! - m[6]!) / s, (m[3]! - m[1]!) / s];
  } else if (m[0]! > m[4]! && m[0]! > m[8]!) {
    const s = Math.sqrt(1 + m[0]! - m[4]! - m[8]!) * 2;
    q = [(m[7]! - m[5]!) / s, 0.25 * s, (m[1]! + m[3]!) / s, (m[2]! + m[6]!) / s];
  } else if (m[4]! > m[8]!) {
    const s = Math.sqrt(1 + m[4]! - m[0]! - m[8]!) * 2;
    q = [(m[2]! - m[6]!) / s, (m[1]! + m[3]!) / s, 0.25 * s, (m[5]! + m[7]!) / s];
  } else {
    const s = Math.sqrt(1 + m[8]! - m[0]! - m[4]!) * 2;
    q = [(m[3]! - m[1]!) / s, (m[2]! + m[6]!) / s, (m[5]! + m[7]!) / s, 0.25 * s];
  }
  const n = Math.hypot(...q);
  const sign = q[0] < 0 ? -1 : 1;
  return [(sign * q[0]) / n, (sign * q[1]) / n, (sign * q[2]) / n, (sign * q[3]) / n];
}

/** Row-major orientation of a top-down tool frame: pads' x axis at `yawRad`, approach axis pointing down. */
export function topDownMat(yawRad: number): number[] {
  const c = Math.cos(yawRad);
  const s = Math.sin(yawRad);
  return [c, s, 0, s, -c, 0, 0, 0, -1];
}

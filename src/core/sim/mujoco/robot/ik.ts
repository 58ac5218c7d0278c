// Damped-least-squares IK for a top-down tool pose (position + yaw about world z), on MuJoCo's own site
// Jacobian. Runs on a private scratch MjData so solving never disturbs the simulated arm.
import type { DoubleBuffer, MjData } from 'mujoco-js';
import { rotationError, topDownMat } from '../math3.js';
import type { SceneModel } from '../sceneModel.js';
import type { Vec3 } from '../scene/sceneSpec.js';

export interface ToolTarget {
  pos: Vec3;
  yawRad: number;
  /** Full tool orientation (row-major 3x3) for poses that are not top-down (side grasps); overrides yawRad. */
  R?: number[];
}

export interface IkSolution {
  q: number[];
  posErrM: number;
  rotErrRad: number;
  iterations: number;
  converged: boolean;
  /** 1-based joint numbers that ended within 1e-3 rad of a limit. */
  jointsAtLimit: number[];
}

export interface IkOptions {
  maxIterations?: number;
  /** Joint configuration the null space is pulled toward (keeps the elbow up, joints central). */
  rest?: number[];
}

export const IK_POS_TOL_M = 1e-3;
export const IK_ROT_TOL_RAD = 0.01;
const DAMPING = 0.02;
const MAX_STEP_RAD = 0.35;
const NULLSPACE_GAIN = 0.05;

export class TopDownIk {
  private readonly data: MjData;
  private readonly jacp: DoubleBuffer;
  private readonly jacr: DoubleBuffer;
  /** Arm joints (7 for the Panda, 6 for the UR5E). */
  private readonly N: number;
  private readonly J: Float64Array;
  private readonly A = new Float64Array(36);
  private readonly err = new Float64Array(6);
  private readonly rotErr = new Float64Array(3);
  private disposed = false;

  constructor(
    private readonly scene: SceneModel,
    private readonly arm: number,
  ) {
    const mj = scene.mj;
    this.N = scene.arms[arm]!.layout.joints.length;
    this.J = new Float64Array(6 * this.N);
    this.data = new mj.MjData(scene.model);
    this.jacp = new mj.DoubleBuffer(3 * scene.model.nv);
    this.jacr = new mj.DoubleBuffer(3 * scene.model.nv);
  }

  /** Tool centre point pose for arm joints q: position and row-major rotation. */
  forward(q: readonly number[]): { pos: Vec3; R: number[] } {
    this.setQ(q);
    const s = this.scene.arms[this.arm]!.eeSite;
    const p = this.data.site_xpos as Float64Array;
    const R = this.data.site_xmat as Float64Array;
    return { pos: [p[3 * s]!, p[3 * s + 1]!, p[3 * s + 2]!], R: Array.from(R.subarray(9 * s, 9 * s + 9)) };
  }

  solve(seed: readonly number[], target: ToolTarget, options: IkOptions = {}): IkSolution {
    const arm = this.scene.arms[this.arm]!;
    const ranges = arm.layout.jointRanges;
    const maxIt = options.maxIterations ?? 200;
    const rest = options.rest;
    const T = target.R ?? topDownMat(target.yawRad);
    const q = seed.map((v, i) => clamp(v, ranges[i]![0], ranges[i]![1]));
    const nv = this.scene.model.nv;
    const N = this.N;
    let posErr = Infinity;
    let rotErr = Infinity;
    let it = 0;
    for (; ; it++) {
      this.setQ(q);
      const s = arm.eeSite;
      const p = this.data.site_xpos as Float64Array;
      const R = (this.data.site_xmat as Float64Array).subarray(9 * s, 9 * s + 9);
      for (let k = 0; k < 3; k++) this.err[k] = target.pos[k]! - p[3 * s + k]!;
      rotationError(T, R, this.rotErr);
      this.err[3] = this.rotErr[0]!;
      this.err[4] = this.rotErr[1]!;
      this.err[5] = this.rotErr[2]!;
      posErr = Math.hypot(this.err[0]!, this.err[1]!, this.err[2]!);
      rotErr = Math.hypot(this.rotErr[0]!, this.rotErr[1]!, this.rotErr[2]!);
      if ((posErr < IK_POS_TOL_M * 0.25 && rotErr < IK_ROT_TOL_RAD * 0.25) || it >= maxIt) break;

      this.scene.mj.mj_jacSite(this.scene.model, this.data, this.jacp, this.jacr, s);
      const jp = this.jacp.GetView() as Float64Array;
      const jr = this.jacr.GetView() as Float64Array;
      for (let r = 0; r < 3; r++)
        for (let c = 0; c < N; c++) {
          const dof = arm.dofAdr[c]!;
          this.J[r * N + c] = jp[r * nv + dof]!;
          this.J[(r + 3) * N + c] = jr[r * nv + dof]!;
        }
      // dq = J^T (J J^T + l^2 I)^-1 e, plus a null-space pull toward `rest`.
      for (let i = 0; i < 6; i++)
        for (let j = 0; j < 6; j++) {
          let sum = i === j ? DAMPING * DAMPING : 0;
          for (let c = 0; c < N; c++) sum += this.J[i * N + c]! * this.J[j * N + c]!;
          this.A[i * 6 + j] = sum;
        }
      const y = solve6(this.A, Array.from(this.err));
      const dq = new Array<number>(N).fill(0);
      for (let c = 0; c < N; c++) for (let i = 0; i < 6; i++) dq[c]! += this.J[i * N + c]! * y[i]!;
      if (rest) {
        const z = rest.map((r, c) => NULLSPACE_GAIN * (r - q[c]!));
        const Jz = new Array<number>(6).fill(0);
        for (let i = 0; i < 6; i++) for (let c = 0; c < N; c++) Jz[i]! += this.J[i * N + c]! * z[c]!;
        const w = solve6(this.A, Jz);
        for (let c = 0; c < N; c++) {
          let back = 0;
          for (let i = 0; i < 6; i++) back += this.J[i * N + c]! * w[i]!;
          dq[c]! += z[c]! - back;
        }
      }
      const big = Math.max(...dq.map(Math.abs));
      const scale = big > MAX_STEP_RAD ? MAX_STEP_RAD / big : 1;
      for (let c = 0; c < N; c++) q[c] = clamp(q[c]! + scale * dq[c]!, ranges[c]![0], ranges[c]![1]);
    }
    const jointsAtLimit = q.flatMap((v, c) => (v - ranges[c]![0] < 1e-3 || ranges[c]![1] - v < 1e-3 ? [c + 1] : []));
    return { q, posErrM: posErr, rotErrRad: rotErr, iterations: it, converged: posErr < IK_POS_TOL_M && rotErr < IK_ROT_TOL_RAD, jointsAtLimit };
  }

  private setQ(q: readonly number[]): void {
    const arm = this.scene.arms[this.arm]!;
    const qpos = this.data.qpos as Float64Array;
    for (let c = 0; c < this.N; c++) qpos[arm.qposAdr[c]!] = q[c]!;
    this.scene.mj.mj_kinematics(this.scene.model, this.data);
    this.scene.mj.mj_comPos(this.scene.model, this.data);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.jacp.delete();
    this.jacr.delete();
    this.data.delete();
  }
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/** Solves the symmetric positive-definite 6x6 system A x = b (Cholesky). */
function solve6(A: Float64Array, b: number[]): number[] {
  const L = new Float64Array(36);
  for (let i = 0; i < 6; i++)
    for (let j = 0; j <= i; j++) {
      let sum = A[i * 6 + j]!;
      for (let k = 0; k < j; k++) sum -= L[i * 6 + k]! * L[j * 6 + k]!;
      L[i * 6 + j] = i === j ? Math.sqrt(Math.max(sum, 1e-12)) : sum / L[j * 6 + j]!;
    }
  const y = new Array<number>(6);
  for (let i = 0; i < 6; i++) {
    let sum = b[i]!;
    for (let k = 0; k < i; k++) sum -= L[i * 6 + k]! * y[k]!;
    y[i] = sum / L[i * 6 + i]!;
  }
  const x = new Array<number>(6);
  for (let i = 5; i >= 0; i--) {
    let sum = y[i]!;
    for (let k = i + 1; k < 6; k++) sum -= L[k * 6 + i]! * x[k]!;
    x[i] = sum / L[i * 6 + i]!;
  }
  return x;
}

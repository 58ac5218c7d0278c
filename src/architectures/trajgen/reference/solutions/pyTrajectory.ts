// Writes the Python a solution sends: a `linear_trajectory` helper (both ends included, ~100 points per step as the
// paper's velocity section asks), then numbered trajectories chained end to start, each executed as it is built,
// with the gripper calls between them. Numbers are baked in, as the paper's code is after reading detect_object.
// Only `math` and the LMTG API (detect_object, execute_trajectory, open_gripper, close_gripper) are used.

export type Pose = [number, number, number, number];

/** Where the end effector starts (the main prompt's EE position; the tabletop arm's home, yaw 0). */
export const START_POSE: Pose = [0, 0, 1.1, 0];

/** Table top height of the embedded tabletop. */
export const TABLE_Z = 0.75;

const HELPER = `import math

def linear_trajectory(start, end, num_points=100):
    """Poses on the straight line from start to end, both included.

    start, end: [x, y, z, yaw] end-effector poses (metres, radians).
    num_points: how many poses (100 is the default speed; fewer is faster).
    """
    return [[start[k] + (end[k] - start[k]) * i / (num_points - 1) for k in range(4)] for i in range(num_points)]
`;

function f(v: number): string {
  const s = v.toFixed(3);
  return s === '-0.000' ? '0.000' : s;
}

export function pyPose(p: readonly number[]): string {
  return `[${p.map(f).join(', ')}]`;
}

/** `yaw + k * period` nearest `near` within the wrist's comfortable range [-pi/2 - 0.3, pi/2 + 0.3]. */
export function nearestYaw(yaw: number, near = 0, period = Math.PI): number {
  let best: number | undefined;
  for (let k = -4; k <= 4; k++) {
    const c = yaw + k * period;
    if (Math.abs(c) <= Math.PI / 2 + 0.3 && (best === undefined || Math.abs(c - near) < Math.abs(best - near))) best = c;
  }
  return best ?? yaw;
}

export class PyTrajectory {
  private readonly out: string[] = [HELPER];
  private n = 0;
  private at: Pose;
  constructor(start: Pose = START_POSE) {
    this.at = [...start] as Pose;
  }

  comment(text: string): this {
    this.out.push(`\n# ${text}`);
    return this;
  }

  /** Extra Python, as written (helpers a task defines, loops of poses). */
  raw(code: string): this {
    this.out.push(code);
    return this;
  }

  /** One straight trajectory step from where the last one ended. */
  to(pose: Pose, points = 100): this {
    const k = ++this.n;
    this.out.push(`trajectory_${k} = linear_trajectory(${pyPose(this.at)}, ${pyPose(pose)}, ${points})`, `execute_trajectory(trajectory_${k})`);
    this.at = [...pose] as Pose;
    return this;
  }

  /** Several straight steps through waypoints. */
  through(poses: Pose[], points = 100): this {
    for (const p of poses) this.to(p, points);
    return this;
  }

  /** A trajectory given as a Python expression (a shape's points); `end` is where it ends. */
  custom(expression: string, end: Pose): this {
    const k = ++this.n;
    this.out.push(`trajectory_${k} = ${expression}`, `execute_trajectory(trajectory_${k})`);
    this.at = [...end] as Pose;
    return this;
  }

  open(): this {
    this.out.push('open_gripper()');
    return this;
  }

  close(): this {
    this.out.push('close_gripper()');
    return this;
  }

  get pose(): Pose {
    return [...this.at] as Pose;
  }

  /** Above, down, close, up: a top-down grasp at `at` with `yaw`, lifting to `liftZ`. `closeFirst` is the planning flaw. */
  grasp(at: [number, number, number], yaw: number, liftZ: number, closeFirst = false): this {
    this.comment('Approach from above, lower the gripper around the object, close it, lift.');
    this.to([at[0], at[1], at[2] + 0.1, yaw]);
    if (closeFirst) this.close();
    this.to([at[0], at[1], at[2], yaw]);
    if (!closeFirst) this.close();
    return this.to([at[0], at[1], liftZ, yaw]);
  }

  /** Carry to (x, y) at `carryZ`, lower to `z`, open, rise 10 cm. */
  place(x: number, y: number, z: number, yaw: number, carryZ = 0.95): this {
    this.comment('Carry it over the target, lower it, release, rise.');
    this.through([
      [this.at[0], this.at[1], carryZ, this.at[3]],
      [x, y, carryZ, yaw],
      [x, y, z, yaw],
    ]);
    this.open();
    return this.to([x, y, z + 0.1, yaw]);
  }

  toString(): string {
    return this.out.join('\n') + '\n';
  }
}

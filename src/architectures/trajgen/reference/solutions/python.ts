// Writing a solution's Python the way the paper's generated code reads: reusable, documented trajectory functions
// (math only: Pyodide has no numpy offline), numbered trajectory variables chained end to start, a gripper call
// between steps, task_completed() at the end. Numbers come from the detections, baked in with three decimals.
// The main-prompt policy defines `start_pose` (the prompt's start position, rotation 0) before this code.

export type PyPose = [number, number, number, number];

const n3 = (v: number) => (Math.abs(v) < 5e-4 ? 0 : v).toFixed(3);
export const pyPose = (p: readonly number[]) => `[${p.map(n3).join(', ')}]`;

/** The trajectory functions every solution starts with. */
export const PY_FUNCTIONS = `import math

def linear_trajectory(start_point, end_point, num_points=100):
    """Poses on the straight line from start_point to end_point ([x, y, z, rotation] each); end_point included."""
    return [[s + (e - s) * (i + 1) / num_points for s, e in zip(start_point, end_point)] for i in range(num_points)]

def waypoint_trajectory(start_point, waypoints, points_per_segment=40):
    """Straight segments from start_point through each waypoint in turn."""
    trajectory = []
    for waypoint in waypoints:
        trajectory += linear_trajectory(start_point, waypoint, points_per_segment)
        start_point = waypoint
    return trajectory
`;

/** Builds the numbered steps of one block. */
export class StepWriter {
  private readonly lines: string[] = [];
  private n = 0;
  private last = 'start_pose';

  comment(text: string): this {
    this.lines.push(`# ${text}`);
    return this;
  }

  /** A straight-segment trajectory from where the last one ended through `waypoints`. */
  move(what: string, waypoints: readonly PyPose[], pointsPerSegment = 40): this {
    this.n++;
    this.lines.push(`# Trajectory ${this.n}: ${what}`, `trajectory_${this.n} = waypoint_trajectory(${this.last}, [${waypoints.map(pyPose).join(', ')}], ${pointsPerSegment})`, `execute_trajectory(trajectory_${this.n})`);
    this.last = `trajectory_${this.n}[-1]`;
    return this;
  }

  /** A trajectory written as an expression over `previous_end` (the end of the last one), e.g. a sinusoid. */
  dense(what: string, expression: string): this {
    this.n++;
    this.lines.push(`# Trajectory ${this.n}: ${what}`, `previous_end = ${this.last}`, `trajectory_${this.n} = ${expression}`, `execute_trajectory(trajectory_${this.n})`);
    this.last = `trajectory_${this.n}[-1]`;
    return this;
  }

  gripper(state: 'open' | 'close'): this {
    this.lines.push(`${state}_gripper()`);
    return this;
  }

  raw(code: string): this {
    this.lines.push(code);
    return this;
  }

  done(): string {
    return [PY_FUNCTIONS, ...this.lines, 'task_completed()', ''].join('\n');
  }
}

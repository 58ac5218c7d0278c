// A small in-memory table-clearing world for the Action Contextualization loop tests: the actctx functions with
// simple rules (a pick faster than 0.8 lets the full glass slip, so holding() fails; a drop or place puts the held
// object at the location), motion metrics per skill that fall with speed, and snapshots. The `blocked` world names
// the ball first and stands the glass in its way: approaching or picking the ball while the glass is on the table
// runs into the glass (collision_free() names it), whatever the parameters. Mocks live in tests only;
// the product runs the MuJoCo tabletop (its runs are exercised in test/unit/core/runs and the CLI).
import { ACTCTX_API } from '../../../../src/core/apis/actctx.js';
import type { ApiCallResult, Observation, SceneGeometryInfo, SimSnapshot, Simulator, TaskCheckResult, TaskInfo } from '../../../../src/core/sim/simulator.js';
import type { ActionMetrics, WorldState } from '../../../../src/protocol/trace.js';

const TASK: TaskInfo = { id: 'fake_clear', description: 'fake', instruction: "Put away the 'glass with yellowish liquid' and the 'crumpled paper ball'.", suite: 'test', arms: 1, imitates: 'none' };
export const GLASS = 'glass with yellowish liquid';
export const BALL = 'crumpled paper ball';
export const SINK = 'large white sink';
export const BIN = 'large red trash can';

interface World {
  held: string | null;
  at: Record<string, string>;
  t: number;
  lastSlipped: boolean;
  lastMoved: boolean;
}

const BLOCKED_TASK: TaskInfo = { ...TASK, instruction: "Put away the 'crumpled paper ball' and the 'glass with yellowish liquid'." };

export class FakeClearingSim implements Simulator {
  readonly name = 'fake-clearing';
  constructor(private readonly opts: { blocked?: boolean } = {}) {}
  private hit: string | null = null;
  calls: { fn: string; args: unknown[] }[] = [];
  private w: World = { held: null, at: {}, t: 0, lastSlipped: false, lastMoved: false };

  private task(): TaskInfo {
    return this.opts.blocked ? BLOCKED_TASK : TASK;
  }
  tasks(): TaskInfo[] {
    return [this.task()];
  }
  private state(): WorldState {
    const obj = (name: string, pos: [number, number, number], props: Record<string, unknown> = {}) => ({ name, pos, euler: [0, 0, 0] as [number, number, number], size: [0.06, 0.06, 0.1] as [number, number, number], color: 'grey', props });
    return {
      objects: [obj(SINK, [0.3, 0.2, 0.8], { location: 'container' }), obj(BIN, [-0.3, 0.2, 0.8], { location: 'container' }), obj(GLASS, this.opts.blocked ? [-0.04, 0.0, 0.8] : [0.05, 0.1, 0.8]), obj(BALL, [-0.1, 0.0, 0.78])],
      ee: { pos: [0, 0, 1.1], yawRad: 0 },
      gripperOpen: this.w.held === null,
      grasped: this.w.held,
    };
  }
  async reset(taskId: string) {
    if (taskId !== TASK.id) throw new Error(`unknown task '${taskId}'`);
    this.w = { held: null, at: {}, t: 0, lastSlipped: false, lastMoved: false };
    return { task: this.task(), observation: await this.observe(), api: ACTCTX_API, workspace: { tableTopZ: 0.75, xRange: [-0.3, 0.3] as [number, number], yRange: [-0.1, 0.3] as [number, number], axes: 'x right, y away, z up' } };
  }
  async observe(): Promise<Observation> {
    return { state: this.state(), text: 'fake clearing scene' };
  }
  private metrics(action: string, speed: number): ActionMetrics {
    const start = this.w.t;
    this.w.t += 2 / speed;
    const mI = 0.1;
    const mE = 0.05 * (1.2 - speed);
    return { action, startSecs: start, durationSecs: 2 / speed, samples: 10, mI, mE, mT: mI + mE, pathLengthM: 0.4, peakJerkMps3: 10, minClearanceM: mE * 1.3, closestPair: ['hand', 'table'], collisionCount: 0, maxHeldTiltRad: null, dBarM: 1.3 };
  }
  async call(fn: string, args: unknown[]): Promise<ApiCallResult> {
    this.calls.push({ fn, args });
    const w = this.w;
    if (fn === 'approach' || fn === 'pick' || fn === 'place' || fn === 'drop') this.hit = null;
    // The blocked world: the glass, still on the table, stands where the hand reaching for the ball passes.
    if (this.opts.blocked && (fn === 'approach' || fn === 'pick') && args[0] === BALL && w.at[GLASS] === undefined && w.held !== GLASS) {
      this.hit = GLASS;
      return { ok: true, output: `${fn}: collided with ${GLASS}; the controller stopped`, metrics: this.metrics(fn, args[1] as number) };
    }
    switch (fn) {
      case 'approach':
        w.lastMoved = true;
        return { ok: true, output: `${fn}: at the pre-grasp pose`, metrics: this.metrics(fn, args[1] as number) };
      case 'pick': {
        const name = args[0] as string;
        const speed = args[1] as number;
        w.lastSlipped = name === GLASS && speed > 0.8;
        if (!w.lastSlipped) w.held = name;
        return { ok: true, output: w.lastSlipped ? `${fn}: the ${name} slipped out of the hand` : `${fn}: grasped ${name}`, metrics: this.metrics(fn, speed) };
      }
      case 'place':
      case 'drop': {
        const speed = (fn === 'place' ? args[2] : args[1]) as number;
        if (w.held) w.at[w.held] = args[0] as string;
        w.held = null;
        return { ok: true, output: `${fn}: released`, metrics: this.metrics(fn, speed) };
      }
      case 'holding':
        return { ok: true, value: w.held !== null };
      case 'at_location':
        return { ok: true, value: w.at[args[0] as string] === args[1] };
      case 'can_grasp':
      case 'can_reach':
      case 'timeout':
      case 'check_motion_health':
        return { ok: true, value: true };
      case 'collision_free':
        return { ok: true, value: this.hit ?? '' };
      default:
        return { ok: false, error: `unknown robot API function '${fn}'` };
    }
  }
  async check(): Promise<TaskCheckResult> {
    const ok = this.w.at[GLASS] === SINK && this.w.at[BALL] === BIN && this.w.held === null;
    return { success: ok, detail: ok ? 'cleared' : `not cleared: ${JSON.stringify(this.w.at)}` };
  }
  async drainTrajectory() {
    return { rateHz: 50, samples: [] };
  }
  async geometry(): Promise<SceneGeometryInfo> {
    return { bodies: ['world'], geoms: [] };
  }
  simTimeSecs(): number {
    return this.w.t;
  }
  async snapshot(): Promise<SimSnapshot> {
    return { kind: 'fake-clearing', data: structuredClone(this.w) };
  }
  async restore(s: SimSnapshot): Promise<void> {
    this.w = structuredClone(s.data as World);
    this.hit = null;
  }
  async close(): Promise<void> {}
}

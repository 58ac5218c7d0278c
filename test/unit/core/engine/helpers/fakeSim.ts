// A tiny in-memory simulator for engine tests: records API calls and moves a point end effector.
// Mocks belong only in tests; the product runs the MuJoCo tabletop.
import type { ApiCallResult, Observation, SceneGeometryInfo, SimSnapshot, Simulator, TaskCheckResult, TaskInfo } from '../../../../../src/core/sim/simulator.js';
import { MALMM_API } from '../../../../../src/core/apis/catalog.js';
import type { TrajectorySample, WorldState } from '../../../../../src/protocol/trace.js';

// MALMM's functions with a position that must be a 3-vector already in Python, so a malformed call is refused
// before it reaches this fake (which, unlike the tabletop, checks no arguments itself).
const FAKE_API = MALMM_API.map((f) => (f.name === 'execute_trajectory' ? { ...f, params: [{ name: 'position', type: 'vec3' as const }, f.params[1]!] } : f));

const TASK: TaskInfo = { id: 'fake_stack', description: 'fake', instruction: 'Stack the red block on top of the green block.', suite: 'test', arms: 1, imitates: 'none' };

export class FakeSim implements Simulator {
  readonly name = 'fake-sim';
  calls: { fn: string; args: unknown[] }[] = [];
  ee: [number, number, number] = [0, 0, 1.1];
  success = false;
  failOn?: string;
  crashOn?: string;
  private t = 0;
  private samples: TrajectorySample[] = [];

  tasks(): TaskInfo[] {
    return [TASK];
  }
  private state(): WorldState {
    return {
      objects: [
        { name: 'red block', pos: [0.1, 0.2, 0.775], euler: [0, 0, 0], size: [0.05, 0.05, 0.05], color: 'red' },
        { name: 'green block', pos: [-0.1, 0.2, 0.775], euler: [0, 0, 0], size: [0.05, 0.05, 0.05], color: 'green' },
      ],
      ee: { pos: this.ee, yawRad: 0 },
      gripperOpen: true,
      grasped: null,
    };
  }
  async reset(taskId: string) {
    if (taskId !== TASK.id) throw new Error(`unknown task '${taskId}'`);
    return {
      task: TASK,
      observation: await this.observe(),
      api: FAKE_API,
      workspace: { tableTopZ: 0.75, xRange: [-0.3, 0.3] as [number, number], yRange: [-0.1, 0.3] as [number, number], axes: 'x right, y away, z up' },
    };
  }
  async observe(): Promise<Observation> {
    const s = this.state();
    return { state: s, text: `**red block** :\nCenter Position: [0.1 0.2 0.775]\n**End-effector** :\nrobot arm end-effector Position: [${this.ee.join(' ')}]` };
  }
  async call(fn: string, args: unknown[]): Promise<ApiCallResult> {
    this.calls.push({ fn, args });
    if (this.crashOn === fn) throw new Error('simulator process exited');
    if (this.failOn === fn) return { ok: false, error: `${fn}: target is unreachable` };
    if (fn === 'execute_trajectory') {
      this.ee = [...(args[0] as [number, number, number])];
      this.t += 0.5;
      this.samples.push({ tSecs: this.t, qpos: [0], ee: [...this.ee, 0], gripperWidth: 0.08, grasped: null });
    }
    return { ok: true };
  }
  async check(): Promise<TaskCheckResult> {
    return { success: this.success, detail: this.success ? 'stacked' : 'not stacked' };
  }
  async drainTrajectory() {
    const s = this.samples;
    this.samples = [];
    return { rateHz: 50, samples: s };
  }
  async geometry(): Promise<SceneGeometryInfo> {
    return { bodies: ['world'], geoms: [] };
  }
  simTimeSecs(): number {
    return this.t;
  }
  async snapshot(): Promise<SimSnapshot> {
    return { kind: 'fake', data: { ee: [...this.ee], t: this.t } };
  }
  async restore(s: SimSnapshot): Promise<void> {
    const d = s.data as { ee: [number, number, number]; t: number };
    this.ee = [...d.ee];
    this.t = d.t;
  }
  async close(): Promise<void> {}
}

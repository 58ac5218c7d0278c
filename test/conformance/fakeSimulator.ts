// A small TypeScript tabletop for protocol tests: a point-mass gripper that moves in straight lines at a fixed
// speed and boxes that follow it when grasped. Same world and API as bridges/python/examples/toy_tabletop.py,
// so one scripted pick-and-place runs against both. Test-only: the product simulator is src/core/sim/mujoco/.
import { seededRng } from '../../src/core/host.js';
import type { TrajectorySample, WorldState } from '../../src/protocol/trace.js';
import type {
  ApiCallResult,
  ApiFunctionSpec,
  Observation,
  SceneGeometryInfo,
  SimSnapshot,
  Simulator,
  TaskCheckResult,
  TaskInfo,
  WorkspaceInfo,
} from '../../src/core/sim/simulator.js';

type Vec3 = [number, number, number];
interface Block { name: string; color: string; pos: Vec3; size: Vec3 }
interface World { ee: Vec3; yawRad: number; open: boolean; grasped: string | null; blocks: Block[]; zone: [number, number]; t: number }

export const FAKE_TASKS: TaskInfo[] = [
  { id: 'pick_place', description: 'Put the red block into the green zone.', instruction: 'Pick up the red block and place it in the green zone.', suite: 'toy', arms: 1, imitates: 'MALMM put-block-in-zone' },
  { id: 'stack', description: 'Stack the red block on the blue block.', instruction: 'Stack the red block on top of the blue block.', suite: 'toy', arms: 1, imitates: 'MALMM stack-blocks' },
];

export const FAKE_API: ApiFunctionSpec[] = [
  { name: 'execute_trajectory', params: [{ name: 'position', type: 'vec3' }, { name: 'orientation', type: 'float' }], signature: 'execute_trajectory(position: list[float], orientation: float) -> None', doc: 'Move the gripper in a straight line to [x, y, z] (metres) with yaw (radians).' },
  { name: 'open_gripper', params: [], signature: 'open_gripper() -> None', doc: 'Open the gripper; a held block drops onto what is below it.' },
  { name: 'close_gripper', params: [{ name: 'object_name', type: 'str' }], signature: 'close_gripper(object_name: str) -> None', doc: 'Grasp the named block; the gripper must be around it.' },
  { name: 'task_completed', params: [], signature: 'task_completed() -> None', doc: 'Declare the task finished.' },
];

export const FAKE_WORKSPACE: WorkspaceInfo = { tableTopZ: 0, xRange: [-0.4, 0.4], yRange: [-0.4, 0.4], axes: 'x to the right, y away from the robot, z up' };
const SPEED_M_PER_S = 0.5;
const RATE_HZ = 50;
const BLOCK = 0.04;

const round = (v: number) => Math.round(v * 1e4) / 1e4;

export class FakeTabletop implements Simulator {
  readonly name: string;
  readonly version = '1.0';
  private w: World | undefined;
  private samples: TrajectorySample[] = [];
  closed = false;

  constructor(name = 'fake-tabletop') {
    this.name = name;
  }

  tasks(): TaskInfo[] {
    return FAKE_TASKS;
  }

  async reset(taskId: string, seed: number): Promise<{ task: TaskInfo; observation: Observation; api: ApiFunctionSpec[]; workspace: WorkspaceInfo }> {
    const task = FAKE_TASKS.find((t) => t.id === taskId);
    if (!task) throw new Error(`unknown task '${taskId}'`);
    const rng = seededRng(seed);
    // Red block 0.12-0.25 m from the centre, the zone opposite it, the blue block a quarter turn away.
    const angle = -Math.PI + 2 * Math.PI * rng.next();
    const radius = 0.12 + 0.13 * rng.next();
    const [rx, ry] = [round(radius * Math.cos(angle)), round(radius * Math.sin(angle))];
    const [bx, by] = [round(-ry), round(rx)];
    this.w = {
      ee: [0, 0, 0.3],
      yawRad: 0,
      open: true,
      grasped: null,
      blocks: [
        { name: 'red_block', color: 'red', pos: [rx, ry, BLOCK / 2], size: [BLOCK, BLOCK, BLOCK] },
        { name: 'blue_block', color: 'blue', pos: [bx, by, BLOCK / 2], size: [BLOCK, BLOCK, BLOCK] },
      ],
      zone: [round(-rx), round(-ry)],
      t: 0,
    };
    this.samples = [];
    this.lastTask = taskId;
    return { task, observation: await this.observe(), api: FAKE_API, workspace: FAKE_WORKSPACE };
  }

  private world(): World {
    if (!this.w) throw new Error('no episode: call reset first');
    return this.w;
  }

  private state(): WorldState {
    const w = this.world();
    return {
      objects: [
        ...w.blocks.map((b) => ({ name: b.name, pos: [...b.pos] as Vec3, euler: [0, 0, 0] as Vec3, size: [...b.size] as Vec3, color: b.color })),
        { name: 'green_zone', pos: [w.zone[0], w.zone[1], 0], euler: [0, 0, 0], size: [0.1, 0.1, 0.001], color: 'green' },
      ],
      ee: { pos: [...w.ee], yawRad: w.yawRad },
      gripperOpen: w.open,
      grasped: w.grasped,
    };
  }

  async observe(): Promise<Observation> {
    const s = this.state();
    const lines = s.objects.map((o) => `${o.name}: center [${o.pos.join(', ')}] m, yaw 0 rad, size [${o.size.join(', ')}] m, colour ${o.color}`);
    lines.push(`gripper: position [${s.ee.pos.map(round).join(', ')}] m, yaw ${round(s.ee.yawRad)} rad, ${s.gripperOpen ? 'open' : 'closed'}, holding ${s.grasped ?? 'nothing'}`);
    return { text: lines.join('\n'), state: s };
  }

  private record(): void {
    const w = this.world();
    this.samples.push({ tSecs: round(w.t), qpos: [...w.ee, w.yawRad], ee: [...w.ee, w.yawRad], gripperWidth: w.open ? 0.08 : 0.04, grasped: w.grasped });
  }

  async call(fn: string, args: unknown[]): Promise<ApiCallResult> {
    const w = this.world();
    switch (fn) {
      case 'execute_trajectory': {
        const [pos, yaw] = args;
        if (!Array.isArray(pos) || pos.length !== 3 || !pos.every((v) => typeof v === 'number' && Number.isFinite(v))) return { ok: false, error: 'execute_trajectory: position must be [x, y, z] in metres' };
        if (typeof yaw !== 'number') return { ok: false, error: 'execute_trajectory: orientation must be a number (radians)' };
        const target = pos as Vec3;
        if (target[0] < FAKE_WORKSPACE.xRange[0] || target[0] > FAKE_WORKSPACE.xRange[1] || target[1] < FAKE_WORKSPACE.yRange[0] || target[1] > FAKE_WORKSPACE.yRange[1] || target[2] < 0 || target[2] > 0.6) {
          return { ok: false, error: `execute_trajectory: target [${target.join(', ')}] is outside the workspace` };
        }
        const start: Vec3 = [...w.ee];
        const dist = Math.hypot(target[0] - start[0], target[1] - start[1], target[2] - start[2]);
        const steps = Math.max(1, Math.ceil(dist / SPEED_M_PER_S * RATE_HZ));
        const held = w.blocks.find((b) => b.name === w.grasped);
        for (let i = 1; i <= steps; i++) {
          const f = i / steps;
          w.ee = [start[0] + f * (target[0] - start[0]), start[1] + f * (target[1] - start[1]), start[2] + f * (target[2] - start[2])];
          w.yawRad = yaw;
          w.t += 1 / RATE_HZ;
          if (held) held.pos = [w.ee[0], w.ee[1], w.ee[2]];
          this.record();
        }
        w.ee = target.map(round) as Vec3;
        if (held) held.pos = [...w.ee];
        return { ok: true };
      }
      case 'open_gripper': {
        const held = w.blocks.find((b) => b.name === w.grasped);
        w.open = true;
        w.grasped = null;
        if (held) {
          const below = w.blocks.filter((b) => b !== held && Math.abs(b.pos[0] - held.pos[0]) < BLOCK && Math.abs(b.pos[1] - held.pos[1]) < BLOCK && b.pos[2] < held.pos[2]);
          const support = below.reduce((z, b) => Math.max(z, b.pos[2] + b.size[2] / 2), 0);
          held.pos = [round(held.pos[0]), round(held.pos[1]), round(support + held.size[2] / 2)];
        }
        w.t += 1 / RATE_HZ;
        this.record();
        return { ok: true };
      }
      case 'close_gripper': {
        const [name] = args;
        const b = w.blocks.find((x) => x.name === name);
        if (!b) return { ok: false, error: `close_gripper: no object named '${String(name)}' (objects: ${w.blocks.map((x) => x.name).join(', ')})` };
        w.open = false;
        w.t += 1 / RATE_HZ;
        const near = Math.hypot(b.pos[0] - w.ee[0], b.pos[1] - w.ee[1]) < 0.02 && Math.abs(b.pos[2] - w.ee[2]) < 0.02;
        if (!near) {
          this.record();
          return { ok: true, output: `warning: the gripper closed on nothing; '${b.name}' is not between the fingers` };
        }
        w.grasped = b.name;
        this.record();
        return { ok: true };
      }
      case 'task_completed':
        return { ok: true };
      default:
        return { ok: false, error: `unknown API function '${fn}' (known: ${FAKE_API.map((f) => f.name).join(', ')})` };
    }
  }

  async check(): Promise<TaskCheckResult> {
    const w = this.world();
    const red = w.blocks[0]!;
    const blue = w.blocks[1]!;
    if (this.taskIsStack()) {
      const ok = w.grasped === null && Math.hypot(red.pos[0] - blue.pos[0], red.pos[1] - blue.pos[1]) < 0.02 && Math.abs(red.pos[2] - (blue.pos[2] + BLOCK)) < 0.005;
      return { success: ok, detail: `red_block ${ok ? 'rests' : 'does not rest'} on blue_block (red z ${red.pos[2]} m, blue z ${blue.pos[2]} m)` };
    }
    const d = Math.hypot(red.pos[0] - w.zone[0], red.pos[1] - w.zone[1]);
    const ok = w.grasped === null && d < 0.05 && Math.abs(red.pos[2] - BLOCK / 2) < 0.005;
    return { success: ok, detail: `red_block is ${round(d)} m from the zone centre (needs < 0.05 m, resting on the table)` };
  }

  private taskIsStack(): boolean {
    return this.lastTask === 'stack';
  }
  private lastTask = '';

  async drainTrajectory(): Promise<{ rateHz: number; samples: TrajectorySample[] }> {
    const s = this.samples;
    this.samples = [];
    return { rateHz: RATE_HZ, samples: s };
  }

  async geometry(): Promise<SceneGeometryInfo> {
    const w = this.world();
    return {
      bodies: ['table', ...w.blocks.map((b) => b.name), 'gripper'],
      geoms: [
        { body: 'table', kind: 'plane', size: [0.4, 0.4, 0.01], pos: [0, 0, 0], quat: [1, 0, 0, 0], rgba: [0.8, 0.7, 0.6, 1] },
        ...w.blocks.map((b) => ({ body: b.name, kind: 'box' as const, size: b.size.map((v) => v / 2), pos: [...b.pos] as Vec3, quat: [1, 0, 0, 0] as [number, number, number, number], rgba: (b.color === 'red' ? [1, 0, 0, 1] : [0, 0, 1, 1]) as [number, number, number, number] })),
        { body: 'gripper', kind: 'sphere', size: [0.01], pos: [...w.ee], quat: [1, 0, 0, 0], rgba: [0.2, 0.2, 0.2, 1] },
      ],
    };
  }

  simTimeSecs(): number {
    return this.w ? round(this.w.t) : 0;
  }

  async snapshot(): Promise<SimSnapshot> {
    return { kind: 'fake-tabletop', data: JSON.parse(JSON.stringify({ w: this.world(), task: this.lastTask })) };
  }

  async restore(snapshot: SimSnapshot): Promise<void> {
    if (snapshot.kind !== 'fake-tabletop') throw new Error(`cannot restore a '${snapshot.kind}' snapshot`);
    const d = JSON.parse(JSON.stringify(snapshot.data)) as { w: World; task: string };
    this.w = d.w;
    this.lastTask = d.task;
    this.samples = [];
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

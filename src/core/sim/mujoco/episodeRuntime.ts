// Everything one episode needs at run time, built once per scene and reused across resets of the same task:
// the compiled SceneModel, the SimState (MjData), the contact monitor, the recorder, the physics runner and
// one ArmController per arm. Owns them all and disposes each exactly once.
import type { DoubleBuffer } from 'mujoco-js';
import type { WorldState } from '../../../protocol/trace.js';
import type { RobotApiContext } from './apis/robotApi.js';
import type { ActionMetrics } from '../../metrics/motionMetrics.js';
import { ContactMonitor } from './contactMonitor.js';
import { MotionProbe } from './motionProbe.js';
import { matToQuat, quatMul, quatRotate, quatToEuler, yawQuat } from './math3.js';
import { PhysicsRunner } from './physicsRunner.js';
import { ArmController } from './robot/armController.js';
import { ConfigChecker } from './robot/configChecker.js';
import { ObstacleField } from './robot/obstacleField.js';
import { applyGrasp, attach, gripperCommandedOpen } from './robot/gripper.js';
import { SceneModel } from './sceneModel.js';
import type { KeyframeState } from './sceneExport.js';
import type { SceneSpec } from './scene/sceneSpec.js';
import { SimState, type GraspState } from './simState.js';
import type { HeldAtStart, ObjectPlacement, TaskGoal, TaskMonitor, TaskView } from './tasks/taskDefinition.js';
import { TrajectoryRecorder } from './trajectoryRecorder.js';
import type { Mujoco } from './wasm.js';

/** Objects are dropped into place and allowed to settle this long before t = 0. */
const RESET_SETTLE_SECS = 0.1;

export class EpisodeRuntime {
  readonly contacts: ContactMonitor;
  readonly recorder: TrajectoryRecorder;
  readonly runner: PhysicsRunner;
  readonly probe: MotionProbe;
  readonly checker: ConfigChecker;
  /** Link-obstacle distances and their joint-space gradients (Action Contextualization's modulated DS). */
  readonly obstacles: ObstacleField;
  readonly arms: ArmController[] = [];
  /** Motion metrics of every measured action since reset (restored with snapshots). */
  actionMetrics: ActionMetrics[] = [];
  /** The robot API's per-episode memory (RobotApiContext.memory). */
  apiMemory: Record<string, unknown> = {};
  /** The episode's goal and monitor (set by reset). */
  goal: TaskGoal | undefined;
  monitor: TaskMonitor | undefined;
  private readonly stateBuffer: DoubleBuffer;
  private readonly stateSpec: number;
  private disposed = false;

  private constructor(
    readonly scene: SceneModel,
    readonly state: SimState,
  ) {
    const mj = scene.mj;
    this.contacts = new ContactMonitor(scene);
    this.recorder = new TrajectoryRecorder(scene.timestepSecs, this.contacts);
    this.probe = new MotionProbe(scene, this.contacts);
    this.checker = new ConfigChecker(scene);
    this.obstacles = new ObstacleField(scene);
    this.runner = new PhysicsRunner(state, this.contacts, this.recorder, this.probe);
    this.stateSpec = mj.mjtState.mjSTATE_INTEGRATION.value;
    this.stateBuffer = new mj.DoubleBuffer(mj.mj_stateSize(scene.model, this.stateSpec));
    try {
      for (let a = 0; a < scene.arms.length; a++) this.arms.push(new ArmController(this.runner, a));
    } catch (err) {
      this.dispose();
      throw err;
    }
  }

  static create(mj: Mujoco, spec: SceneSpec): EpisodeRuntime {
    const scene = SceneModel.create(mj, spec);
    let state: SimState | null = null;
    try {
      state = new SimState(scene);
      return new EpisodeRuntime(scene, state);
    } catch (err) {
      state?.dispose();
      scene.dispose();
      throw err;
    }
  }

  /**
   * Arms at home with open grippers, objects at `placements`, settled, clock at 0, one sample recorded. `held`:
   * tools a robot holds from the start (Sweep Floor's dustpan and broom), put in its gripper and grasped.
   */
  reset(placements: ObjectPlacement[], goal?: TaskGoal, monitor?: TaskMonitor, held: HeldAtStart[] = []): void {
    this.setEpisode(goal, monitor);
    const { mj, model } = this.scene;
    const d = this.state.data;
    mj.mj_resetData(model, d);
    this.state.grasps = this.scene.arms.map(() => null);
    for (const arm of this.arms) arm.placeHome();
    const qpos = d.qpos as Float64Array;
    const mocapPos = d.mocap_pos as Float64Array;
    const mocapQuat = d.mocap_quat as Float64Array;
    this.scene.objects.forEach((o, i) => {
      const p = placements[i];
      if (!p) throw new Error(`reset: no placement for object '${o.name}'`);
      const quat = p.quat ?? yawQuat(p.yawRad);
      if (o.kind === 'free' || o.kind === 'cable') qpos.set([...p.pos, ...quat], o.qposAdr);
      else if (o.kind === 'fixed') {
        mocapPos.set(p.pos, 3 * o.mocapId);
        mocapQuat.set(quat, 4 * o.mocapId);
      } else if (o.kind === 'slide') qpos[o.qposAdr] = p.slideM ?? 0;
      else if (o.kind === 'hinge') qpos[o.qposAdr] = p.angleRad ?? 0;
      // Parts and a cable's last segment follow their parent.
    });
    if (held.length > 0) this.gripTools(held);
    const steps = Math.round(RESET_SETTLE_SECS / this.scene.timestepSecs);
    for (let k = 0; k < steps; k++) mj.mj_step(model, d);
    d.time = 0;
    mj.mj_forward(model, d);
    this.recorder.clear();
    this.recorder.sample(this.state);
    this.actionMetrics = [];
    this.apiMemory = {};
    this.probe.dBarM = 0;
    for (const s of this.probe.measureAlso) s.clear();
  }

  /** Puts each tool where its robot's tool frame says, closes the fingers on its grip and welds it (a real grasp). */
  private gripTools(held: HeldAtStart[]): void {
    const { mj, model } = this.scene;
    const d = this.state.data;
    mj.mj_forward(model, d);
    for (const h of held) {
      const i = this.scene.objects.findIndex((o) => o.name === h.object);
      const o = this.scene.objects[i];
      if (!o || o.kind !== 'free') throw new Error(`reset: '${h.object}' cannot be held from the start (it must be a free object)`);
      const tcp = this.state.tcpPose(h.robot);
      const q = matToQuat(tcp.R);
      const off = quatRotate(q, h.inTool.pos);
      (d.qpos as Float64Array).set([tcp.pos[0] + off[0], tcp.pos[1] + off[1], tcp.pos[2] + off[2], ...quatMul(q, h.inTool.quat)], o.qposAdr);
      const g = this.scene.arms[h.robot]!.gripper;
      if (g.kind === 'parallel') {
        const w = Math.min(g.range[1], Math.max(g.range[0], h.gripWidthM / 2));
        g.qposAdr.forEach((a) => ((d.qpos as Float64Array)[a] = w));
        // Commanded shut, as close_gripper leaves a gripper: the pads squeeze with the servo's force, which is what
        // holds the tool under friction grasps (4 mm tighter than the grip squeezed too weakly to hold a broom).
        g.ctrlAdr.forEach((a) => ((d.ctrl as Float64Array)[a] = g.range[0]));
      } else if (g.kind === 'suction') (d.ctrl as Float64Array)[g.ctrlAdr] = 1;
      else throw new Error(`reset: a tool held from the start needs a parallel gripper or a suction cup, not a ${g.kind}`);
      mj.mj_forward(model, d);
      // A mounted tool, welded whatever the grasp model (a broom pivots in a friction grip).
      attach(this.state, h.robot, i, true);
    }
  }

  /** The episode's goal and monitor; the monitor samples on the 50 Hz grid from now on. */
  setEpisode(goal: TaskGoal | undefined, monitor: TaskMonitor | undefined): void {
    this.goal = goal;
    this.monitor = monitor;
    this.runner.gridObservers = monitor ? [() => monitor.sample(this.taskView())] : [];
  }

  /** Copy of MuJoCo's integration state (see SnapshotData in tabletopSim.ts). */
  physicsState(): number[] {
    const { mj, model } = this.scene;
    mj.mj_getState(model, this.state.data, this.stateBuffer, this.stateSpec);
    return Array.from(this.stateBuffer.GetView() as Float64Array);
  }

  /** The current state as a keyframe can hold it (copies; see sceneExport.ts). */
  keyframeState(): KeyframeState {
    const d = this.state.data;
    const copy = (v: unknown) => Array.from(v as Float64Array);
    return { timeSecs: d.time, qpos: copy(d.qpos), qvel: copy(d.qvel), act: copy(d.act), ctrl: copy(d.ctrl), mpos: copy(d.mocap_pos), mquat: copy(d.mocap_quat) };
  }

  restore(physics: number[], grasps: (GraspState | null)[]): void {
    const { mj, model } = this.scene;
    const expected = mj.mj_stateSize(model, this.stateSpec);
    if (!Array.isArray(physics) || physics.length !== expected) {
      throw new Error(`restore: snapshot holds ${Array.isArray(physics) ? physics.length : 'no'} state values, scene '${this.scene.built.spec.key}' needs ${expected}`);
    }
    if (grasps.length !== this.scene.arms.length) throw new Error(`restore: snapshot has grasp state for ${grasps.length} arms, scene has ${this.scene.arms.length}`);
    mj.mj_setState(model, this.state.data, physics, this.stateSpec);
    this.state.grasps = this.scene.arms.map(() => null);
    grasps.forEach((g, a) => {
      if (g) applyGrasp(this.state, a, { object: g.object, relPos: [...g.relPos], relQuat: [...g.relQuat], ...(g.mounted ? { mounted: true } : {}) });
    });
    // mj_forward fills positions for observations; setting the state again undoes anything it touched
    // (warm start), so a restored copy steps exactly like the original.
    mj.mj_forward(model, this.state.data);
    mj.mj_setState(model, this.state.data, physics, this.stateSpec);
    this.recorder.clear();
  }

  apiContext(): RobotApiContext {
    return { scene: this.scene, state: this.state, arms: this.arms, contacts: this.contacts, actionMetrics: this.actionMetrics, checker: this.checker, obstacles: this.obstacles, probe: this.probe, memory: this.apiMemory, ...(this.goal ? { goal: this.goal } : {}) };
  }

  /** Brings derived quantities (body poses, sensors) up to date after a call, for observations and checks. */
  afterCall(): void {
    this.runner.forward();
  }

  worldState(): WorldState {
    const s = this.state;
    const objects = this.scene.objects.map((o, i) => {
      const pose = s.objectPose(i);
      const spec = this.scene.built.spec.objects[i]!;
      return { name: o.name, pos: pose.pos, euler: quatToEuler(pose.quat), size: [...spec.size] as [number, number, number], color: spec.color };
    });
    const tcp = s.tcp(0);
    const robots = this.scene.arms.map((arm, a) => {
      const t = s.tcp(a);
      return { name: arm.layout.spec.label.trim() || 'robot', pos: t.pos, yawRad: t.yawRad, gripperOpen: gripperCommandedOpen(s, a), holding: s.graspedName(a) };
    });
    return { objects, ee: { pos: tcp.pos, yawRad: tcp.yawRad }, gripperOpen: gripperCommandedOpen(s, 0), grasped: s.graspedName(0), robots };
  }

  taskView(): TaskView {
    const s = this.state;
    return {
      objects: this.scene.objects.map((o, i) => {
        const pose = s.objectPose(i);
        const speed = s.objectSpeed(i);
        const slideM = s.slidePos(i);
        const angleRad = s.hingeAngle(i);
        return {
          name: o.name,
          pos: pose.pos,
          quat: pose.quat,
          size: [...this.scene.built.spec.objects[i]!.size] as [number, number, number],
          linearSpeed: speed.linear,
          angularSpeed: speed.angular,
          ...(slideM === null ? {} : { slideM }),
          ...(angleRad === null ? {} : { angleRad }),
          ...(o.linkGeoms ? { links: o.linkGeoms.map((g) => s.geomPose(g).pos) } : {}),
        };
      }),
      grasped: this.scene.arms.map((_, a) => s.graspedName(a)),
      tableTopZ: this.scene.built.spec.table.topZ,
      ee: this.scene.arms.map((_, a) => ({ ...s.tcp(a), open: gripperCommandedOpen(s, a) })),
      ...(this.goal ? { goal: this.goal } : {}),
      ...(this.monitor ? { monitor: this.monitor.state() } : {}),
    };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const arm of this.arms) arm.dispose();
    this.probe.dispose();
    this.checker.dispose();
    this.obstacles.dispose();
    this.stateBuffer.delete();
    this.state.dispose();
    this.scene.dispose();
  }
}

// The embedded MuJoCo tabletop simulator behind the Simulator interface. It routes: tasks come from the task
// registry, robot APIs from the API registry, physics lives in an EpisodeRuntime (one scene + state + arms).
import { seededRng } from '../../host.js';
import type { AgentAction, TrajectorySample, WorldState } from '../../../protocol/trace.js';
import { formatMalmmState } from '../observationText.js';
import type { JointActResult, Observation, ResetOutcome, SceneGeometryInfo, SimSnapshot, Simulator, TaskCheckResult, TaskInfo } from '../simulator.js';
import { SimParamError } from '../simulator.js';
import { rocoPlanText } from './apis/roco/planText.js';
import { getRobotApi } from './apis/registry.js';
import { malmmFunctions, MOTION_MODES, type MotionMode } from './apis/malmmApi.js';
import type { RobotApi, SimCallResult } from './apis/robotApi.js';
import { summarizeEpisode, type ActionMetrics, type EpisodeMetrics } from '../../metrics/motionMetrics.js';
import { EpisodeRuntime } from './episodeRuntime.js';
import { DETECTOR_MODES, type DetectorMode } from '../../perception/detector.js';
import { sceneWithKeyframe } from './sceneExport.js';
import { getTask, TASKS, taskInfos } from './tasks/registry.js';
import { ROBOT_IDS, type ObjectPlacement, type RobotId, type TaskDefinition } from './tasks/taskDefinition.js';
import type { SceneSpec } from './scene/sceneSpec.js';
import { TRAJECTORY_RATE_HZ } from './trajectoryRecorder.js';
import { multiArmExtra, robotViews, sharedSceneText, type RobotView } from './robotViews.js';
import { GRASP_MODES, type GraspMode, type GraspState } from './simState.js';
import type { Mujoco } from './wasm.js';

export const SNAPSHOT_KIND = 'waypoint.mujoco-tabletop/1';

interface SnapshotData {
  taskId: string;
  seed: number;
  api: string;
  /** mj_getState(mjSTATE_INTEGRATION): time, qpos, qvel, act, warm start, ctrl, applied forces, eq_active, ... */
  physics: number[];
  grasps: (GraspState | null)[];
  /** Motion metrics of the actions before the snapshot (absent in older snapshots). */
  actionMetrics?: ActionMetrics[];
  /** The task monitor's state (tasks with a monitor). */
  monitor?: unknown;
  /** The robot API's per-episode memory. */
  apiMemory?: Record<string, unknown>;
  /** The robot the episode ran with (absent in older snapshots: the task's own arm). */
  robot?: RobotId;
  /** d_bar of M_E so far (absent in older snapshots: 0, as after a reset). */
  dBarM?: number;
}

/** The goal's own RNG stream: a task that gains a goal keeps its layouts. */
/** The task's layout for a seed; a variation that cannot be placed fails here, naming the task, the seed and why. */
export function seededLayout(task: TaskDefinition, seed: number, robot: RobotId = 'panda'): ObjectPlacement[] {
  try {
    return (task.robots?.[robot]?.layout ?? task.layout)(seededRng(seed));
  } catch (err) {
    throw new Error(`reset: task '${task.info.id}' seed ${seed} has no collision-free layout: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function goalRng(seed: number) {
  return seededRng((seed ^ 0x5bd1e995) >>> 0);
}

export interface TabletopSimulatorOptions {
  /** Tasks to offer (default: every registered task). */
  taskIds?: string[];
  /** How grasps hold: `friction` (default, every API: objects can slip and drop) or `weld` (held until opened). Suction cups hold by vacuum in both. */
  grasp?: GraspMode;
  /**
   * What detect_object reports (LMTG API): the ground truth (default) or the seeded detector model's estimate
   * (src/core/perception/detector.ts: calibration offset, noise, part segmentation failures), seeded by the episode.
   */
  perception?: DetectorMode;
  /**
   * Which robot single-arm tasks get: `panda` (default) keeps each task's own arm (a Franka-class arm with its hand),
   * `iiwa` the KUKA iiwa 7 R800 with an Allegro-class hand where a task offers it (table clearing; others refuse it).
   */
  robot?: RobotId;
  /**
   * How MALMM's execute_trajectory moves: `planned` (default; the straight line when it is free, else a
   * collision-free path around obstacles, and a target no such path reaches fails) or `straight` (a straight line
   * whatever it hits, as before issue 25).
   */
  motion?: MotionMode;
}

/** The scene of a task with a robot: the task's own (the default), or one of its alternatives (TaskDefinition.robots). */
export function sceneWithRobot(task: TaskDefinition, requested: RobotId | undefined): { robot: RobotId; scene: SceneSpec } {
  const alternatives = task.robots ?? {};
  const robot = requested ?? 'panda';
  if (robot === 'panda') return { robot, scene: task.scene };
  const alt = alternatives[robot];
  if (!alt) {
    const offered = (Object.keys(alternatives) as RobotId[]).filter((r) => r !== 'panda');
    throw new SimParamError('robot', `reset: task '${task.info.id}' has no ${robot} robot (${offered.length ? `it offers panda, ${offered.join(', ')}` : 'it offers only its own arm, --robot panda'})`);
  }
  return { robot, scene: alt.scene };
}

/**
 * Friction grasps for every API and every robot (issue 25): a poor grasp can drop the object whatever architecture
 * drives the arm. The iiwa's multi-finger hand holds by friction too: its fingers close under torque-limited
 * position servos until they meet the object, and contact forces alone carry it (allegroHand.ts; measured per
 * dining object in docs/actctx.md, "The iiwa embodiment"). `grasp: 'weld'` keeps the weld for any robot.
 */
function defaultGrasp(o: TabletopSimulatorOptions): GraspMode {
  return o.grasp ?? 'friction';
}

/** How the simulator line of a trace names each embodiment. */
export const ROBOT_NAMES: Record<RobotId, string> = {
  panda: "each task's own arm (Franka-class with a parallel gripper on single-arm tasks)",
  iiwa: 'KUKA iiwa 7 R800 with an Allegro-class hand',
};

export class TabletopSimulator implements Simulator {
  readonly name = 'waypoint-tabletop';
  readonly version: string;
  /** Multi-arm tasks give each robot its own view (RoCo's reach zones); single-arm tasks show the one arm everything. */
  readonly agentViews = true;
  private runtime: EpisodeRuntime | null = null;
  private current: { task: TaskDefinition; seed: number; api: RobotApi; robot: RobotId } | null = null;
  private closed = false;

  constructor(
    private readonly mj: Mujoco,
    private readonly options: TabletopSimulatorOptions = {},
  ) {
    if (options.grasp !== undefined && !GRASP_MODES.includes(options.grasp)) {
      throw new Error(`unknown grasp mode '${String(options.grasp)}'; choices: ${GRASP_MODES.join(', ')}`);
    }
    if (options.robot !== undefined && !ROBOT_IDS.includes(options.robot)) {
      throw new Error(`unknown robot '${String(options.robot)}'; choices: ${ROBOT_IDS.join(', ')}`);
    }
    if (options.perception !== undefined && !DETECTOR_MODES.includes(options.perception)) {
      throw new Error(`unknown perception mode '${String(options.perception)}'; choices: ${DETECTOR_MODES.join(', ')}`);
    }
    if (options.motion !== undefined && !MOTION_MODES.includes(options.motion)) {
      throw new Error(`unknown motion mode '${String(options.motion)}'; choices: ${MOTION_MODES.join(', ')}`);
    }
    // The grasp model, MALMM's motion, the detector and the robot are part of what a trace's simulator line must
    // say: they change what can happen and what detect_object prints.
    this.version =
      `MuJoCo ${mj.mj_versionString()} (mujoco-js), ${defaultGrasp(options)} grasps, ${options.motion === 'straight' ? 'straight-line' : 'planned'} execute_trajectory` +
      (options.perception === 'estimated' ? ', estimated detections' : '') +
      `, robot: ${ROBOT_NAMES[options.robot ?? 'panda']}`;
  }

  tasks(): TaskInfo[] {
    const all = taskInfos();
    return this.options.taskIds ? all.filter((t) => this.options.taskIds!.includes(t.id)) : all;
  }

  taskApis(taskId: string): readonly string[] | undefined {
    const t = TASKS.get(taskId);
    return t ? [...(t.apis ?? [t.defaultApi])] : undefined;
  }

  async reset(taskId: string, seed: number, options: { api?: string } = {}): Promise<ResetOutcome> {
    this.assertOpen();
    // Parameters this simulator cannot take are the caller's input (SimParamError), not a broken simulator.
    if (this.options.taskIds && !this.options.taskIds.includes(taskId)) {
      throw new SimParamError('task', `unknown task '${taskId}'; this simulator offers: ${this.options.taskIds.join(', ')}`);
    }
    const task = getTask(taskId);
    const api = getRobotApi(options.api ?? task.defaultApi);
    const fits = task.apis ?? [task.defaultApi];
    if (!fits.includes(api.id as never)) throw new SimParamError('api', `reset: task '${taskId}' works with the robot API ${fits.join(', ')}, not '${api.id}'`);
    if (!Number.isInteger(seed)) throw new SimParamError('seed', `reset: seed must be an integer, got ${seed}`);
    const { robot, scene } = sceneWithRobot(task, this.options.robot);
    const runtime = this.runtimeFor(scene);
    runtime.state.graspMode = defaultGrasp(this.options);
    const goal = task.goal?.(goalRng(seed));
    runtime.reset(seededLayout(task, seed, robot), goal, task.monitor?.(), task.heldAtStart);
    this.current = { task, seed, api, robot };
    return {
      task: { ...task.info, instruction: goal?.instruction ?? task.info.instruction },
      observation: this.observation(),
      api: (api.id === 'malmm' ? malmmFunctions(this.options.motion ?? 'planned') : api.functions).map((f) => ({ ...f, params: f.params.map((p) => ({ ...p })) })),
      workspace: { ...task.workspace },
      agents: this.agentNames(),
    };
  }

  /** The task's robots: RoCo-style names for multi-arm tasks, 'robot' for the single arm. */
  private agentNames(): string[] {
    return this.current?.task.multiArm?.robots.map((r) => r.name) ?? ['robot'];
  }

  async observe(agent?: string): Promise<Observation> {
    const { task } = this.episode();
    const whole = this.observation();
    if (agent === undefined) return whole;
    const names = this.agentNames();
    if (!names.includes(agent)) throw new Error(`observe: no agent '${agent}'; agents: ${names.join(', ')}`);
    if (!task.multiArm) return { ...whole, agent };
    const setup = task.multiArm;
    const taskView = this.runtime!.taskView();
    const view = robotViews(this.runtime!.scene, this.runtime!.state, setup, taskView).find((v) => v.robot === agent)!;
    const visible = new Set(view.visible);
    const robots = setup.observation === 'shared' ? whole.state.robots : whole.state.robots?.filter((r) => r.name === agent);
    const extra = multiArmExtra(this.runtime!.scene, this.runtime!.state, setup, taskView, view.visible, agent);
    return { text: view.text, state: { ...whole.state, objects: whole.state.objects.filter((o) => visible.has(o.name)), ...(robots ? { robots } : {}), extra }, agent };
  }

  /**
   * Structured actions. RoCo's multi-arm API takes one action per robot (PICK, PLACE, MOVE, WAIT with a path) and
   * checks them as one plan (robots without an action wait); the single-arm APIs take one call of their functions.
   */
  async act(actions: AgentAction[]): Promise<JointActResult> {
    const { api } = this.episode();
    const names = this.agentNames();
    const failAll = (error: string): JointActResult => ({ results: actions.map((a) => ({ agent: a.agent, name: a.name, ok: false, error })) });
    const unknown = actions.find((a) => !names.includes(a.agent));
    if (unknown) return failAll(`no agent '${unknown.agent}'; agents: ${names.join(', ')}`);
    const twice = actions.find((a, i) => actions.findIndex((b) => b.agent === a.agent) !== i);
    if (twice) return failAll(`${twice.agent} has more than one action in this step`);
    if (api.id === 'roco') {
      const plan = rocoPlanText(actions, names);
      if (!plan.ok) return failAll(`${plan.agent}: ${plan.error}`);
      const r = await this.call('execute_plan', [plan.text]);
      if (!r.ok) return failAll(r.error);
      const checks = r.checks ? { checks: r.checks } : {};
      const info = { planText: plan.text, ...(r.executed !== undefined ? { executed: r.executed } : {}), ...(r.motion ? { motion: r.motion } : {}) };
      // A plan that fails a check (or that the multi-arm planner cannot move) moves nothing: every robot hears why.
      if (r.value === false && r.executed !== true) return { ...failAll(r.output ?? 'the plan failed a check'), ...checks, info };
      const errs = r.robotErrors ?? {};
      return {
        results: actions.map((a) => {
          const e = errs[a.agent];
          return { agent: a.agent, name: a.name, ok: !e, ...(e ? { error: e.join('; ') } : {}), ...(r.output ? { output: r.output } : {}), ...(r.metrics ? { metrics: r.metrics } : {}) };
        }),
        ...(r.collisions ? { collisions: r.collisions } : {}),
        ...checks,
        info,
      };
    }
    if (actions.length !== 1) return failAll(`the ${api.id} API drives one arm: one action per step`);
    const a = actions[0]!;
    const r = await this.call(a.name, a.args);
    if (!r.ok) return { results: [{ agent: a.agent, name: a.name, ok: false, error: r.error }] };
    const result = { agent: a.agent, name: a.name, ok: true, ...(r.output ? { output: r.output } : {}), ...(r.value !== undefined ? { value: r.value } : {}), ...(r.metrics ? { metrics: r.metrics } : {}) };
    return { results: [result], ...(r.collisions ? { collisions: r.collisions } : {}) };
  }

  /**
   * Runs one API call. Calls that move the robot also return `metrics` (ActionMetrics: M_I, M_E, M_T, path
   * length, duration, peak jerk, clearance, collisions, held-object tilt); checks return `value`.
   */
  async call(fn: string, args: unknown[]): Promise<SimCallResult> {
    const { api } = this.episode();
    const runtime = this.runtime!;
    const measured = api.measured.has(fn);
    if (measured) runtime.probe.begin(fn, runtime.state);
    let result: SimCallResult;
    try {
      result = api.call({ ...runtime.apiContext(), task: this.current!.task, perception: { mode: this.options.perception ?? 'ground-truth', seed: this.current!.seed }, motion: this.options.motion ?? 'planned' }, fn, Array.isArray(args) ? args : [args]);
    } catch (err) {
      runtime.probe.cancel();
      runtime.afterCall();
      throw err;
    }
    runtime.afterCall();
    if (!measured) return result;
    const moved = runtime.state.timeSecs > (runtime.probe.startedAt ?? runtime.state.timeSecs);
    const metrics = runtime.probe.end(runtime.state, result.ok ? (result.collisions?.length ?? 0) : 0);
    const { motionFailed, unmeasured, ...rest } = result;
    // Argument errors and rejected plans are not actions; physical failures (IK) are, with the no-motion score.
    if (unmeasured || (!moved && !rest.ok && !motionFailed)) return rest;
    runtime.actionMetrics.push(metrics);
    return rest.ok ? { ...rest, metrics } : rest;
  }

  /** Motion metrics of the episode so far: every measured action and the plan quality Q = mean M_T. */
  motionMetrics(): EpisodeMetrics {
    this.episode();
    return summarizeEpisode(this.runtime!.actionMetrics);
  }

  async check(): Promise<TaskCheckResult> {
    const { task } = this.episode();
    return task.check(this.runtime!.taskView());
  }

  async drainTrajectory(): Promise<{ rateHz: number; samples: TrajectorySample[] }> {
    this.episode();
    return { rateHz: TRAJECTORY_RATE_HZ, samples: this.runtime!.recorder.drain() };
  }

  async geometry(): Promise<SceneGeometryInfo> {
    this.episode();
    return this.runtime!.scene.geometry();
  }

  /**
   * The scene as a standalone MJCF file: the XML this simulator compiled, with the current state as keyframe 0
   * (after reset: the seed's settled layout). Refused while an arm holds something (see sceneExport.ts).
   */
  sceneMjcf(): string {
    const { task, seed } = this.episode();
    const rt = this.runtime!;
    return sceneWithKeyframe(rt.scene.built.xml, rt.keyframeState(), { taskId: task.info.id, seed, mujocoVersion: this.mj.mj_versionString(), activeGrasps: rt.state.grasps.filter(Boolean).length });
  }

  simTimeSecs(): number {
    return this.runtime && this.current ? this.runtime.state.timeSecs : 0;
  }

  async snapshot(): Promise<SimSnapshot> {
    const { task, seed, api } = this.episode();
    const data: SnapshotData = {
      taskId: task.info.id,
      seed,
      api: api.id,
      physics: this.runtime!.physicsState(),
      grasps: this.runtime!.state.grasps.map((g) => (g ? { object: g.object, relPos: [...g.relPos], relQuat: [...g.relQuat], ...(g.mounted ? { mounted: true } : {}) } : null)),
      actionMetrics: this.runtime!.actionMetrics.map((m) => ({ ...m })),
      ...(this.runtime!.monitor ? { monitor: structuredClone(this.runtime!.monitor.state()) } : {}),
      apiMemory: structuredClone(this.runtime!.apiMemory),
      dBarM: this.runtime!.probe.dBarM,
      robot: this.current!.robot,
    };
    return { kind: SNAPSHOT_KIND, data };
  }

  async restore(snapshot: SimSnapshot): Promise<void> {
    this.assertOpen();
    if (snapshot.kind !== SNAPSHOT_KIND) throw new Error(`restore: snapshot kind '${snapshot.kind}' is not ${SNAPSHOT_KIND}`);
    const data = snapshot.data as SnapshotData;
    const task = getTask(data.taskId);
    const api = getRobotApi(data.api);
    const { robot, scene } = sceneWithRobot(task, data.robot ?? 'panda');
    const runtime = this.runtimeFor(scene);
    runtime.restore(data.physics, data.grasps);
    runtime.actionMetrics = (data.actionMetrics ?? []).map((m) => ({ ...m }));
    runtime.apiMemory = structuredClone(data.apiMemory ?? {});
    runtime.probe.dBarM = typeof data.dBarM === 'number' ? data.dBarM : 0;
    for (const m of runtime.probe.measureAlso) m.clear();
    const monitor = task.monitor?.();
    if (monitor && data.monitor !== undefined) monitor.load(structuredClone(data.monitor));
    runtime.setEpisode(task.goal?.(goalRng(data.seed)), monitor);
    this.current = { task, seed: data.seed, api, robot };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.runtime?.dispose();
    this.runtime = null;
    this.current = null;
  }

  /**
   * MALMM's text state for single-arm tasks; for multi-arm tasks RoCo-style relations ("blue_square is on
   * panel5") and every robot's gripper. `state` is the structured state (its ee/grasp fields are the first arm's).
   */
  private observation(): Observation {
    const state: WorldState = this.runtime!.worldState();
    // Task locations and fixtures say so (Action Contextualization's label lists: objects vs locations).
    const task = this.current?.task;
    if (task?.locations && !task.multiArm) {
      const locs = new Map((task.locations ?? []).map((l) => [l.name, l.kind]));
      state.objects = state.objects.map((o, i) => {
        const kind = locs.get(o.name);
        const fixed = this.runtime!.scene.objects[i]!.kind === 'fixed';
        return kind || fixed ? { ...o, props: { ...o.props, ...(kind ? { location: kind } : {}), ...(fixed ? { fixed: true } : {}) } } : o;
      });
    }
    const setup = this.current?.task.multiArm;
    if (!setup) return { text: formatMalmmState(state), state };
    const taskView = this.runtime!.taskView();
    const text = sharedSceneText(this.runtime!.scene, this.runtime!.state, setup, taskView);
    const extra = multiArmExtra(this.runtime!.scene, this.runtime!.state, setup, taskView, null);
    return { text, state: { ...state, extra } };
  }

  /** Per-robot partial observations of a multi-arm task (empty for single-arm tasks). */
  robotObservations(): RobotView[] {
    const { task } = this.episode();
    return task.multiArm ? robotViews(this.runtime!.scene, this.runtime!.state, task.multiArm, this.runtime!.taskView()) : [];
  }

  /** The runtime for a scene: reused when the scene is the same, rebuilt otherwise. */
  private runtimeFor(scene: SceneSpec): EpisodeRuntime {
    if (this.runtime && this.runtime.scene.built.spec.key === scene.key) return this.runtime;
    this.runtime?.dispose();
    this.runtime = null;
    this.current = null;
    this.runtime = EpisodeRuntime.create(this.mj, scene);
    return this.runtime;
  }

  private episode(): { task: TaskDefinition; seed: number; api: RobotApi; robot: RobotId } {
    this.assertOpen();
    if (!this.current || !this.runtime) throw new Error('simulator: call reset(taskId, seed) first');
    return this.current;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('simulator: already closed');
  }
}

// The embedded household simulator behind Waypoint's Simulator interface: symbolic (no physics), deterministic per
// seed, 1 to 5 agents, per-agent partial views, LLaMAR's actions run jointly. Task ids are "<task>" (its first
// floor plan) or "<task>@<plan>"; the ids of the earlier 17-task list still name the MAP-THOR task they became.
import type { AgentAction, ObjectState, RobotState, WorldState } from '../../../protocol/trace.js';
import { HOUSEHOLD_STEP_SECS, type HouseholdExtra, type HouseholdObjectProps } from '../../../protocol/household.js';
import { LLAMAR_API } from '../../apis/llamar.js';
import type { ApiCallResult, JointActResult, Observation, ResetOutcome, SceneGeometryInfo, SimSnapshot, Simulator, TaskCheckResult, TaskInfo } from '../simulator.js';
import { runJointStep } from './actions.js';
import { checkerState } from './checker.js';
import { CELL_M, LEGEND, planById } from './floorPlans.js';
import { HEADINGS } from './grid.js';
import { typeSpec } from './objectTypes.js';
import { buildScene } from './scene.js';
import { CATEGORY_LABELS, TASKS, taskById, type TaskDef } from './tasks.js';
import { labelList, stateText } from './text.js';
import { CAMERA_HEIGHT_M, World, type ObjData, type WorldData } from './world.js';

export const HOUSEHOLD_API_ID = 'llamar';
export const DEFAULT_AGENTS = 2;

function taskInfo(t: TaskDef, planId: string, id: string): TaskInfo {
  const plan = planById(planId);
  return {
    id,
    description: `${t.instructionFor?.[planId] ?? t.instruction} (${plan.label}; MAP-THOR ${t.paper}, category ${t.category}: ${CATEGORY_LABELS[t.category]})`,
    instruction: t.instructionFor?.[planId] ?? t.instruction,
    suite: `map-thor-${t.category}`,
    arms: DEFAULT_AGENTS,
    imitates: t.imitates,
  };
}

/** Reported as the simulator's version (a sweep's episode key includes it). */
export const HOUSEHOLD_SIMULATOR_VERSION = '2';

/** A task's plans: MAP-THOR's five, then the extra ones. */
export const plansOf = (t: TaskDef): string[] => [...t.plans, ...(t.extraPlans ?? [])];

/** Every task on its first plan (bare id), every task on every plan ("task@plan"), then the earlier ids (last). */
export function householdTasks(): TaskInfo[] {
  const alias = (t: TaskDef, id: string, planId: string): TaskInfo => {
    const info = taskInfo(t, planId, id);
    return { ...info, description: `earlier id of ${t.id}: ${info.description}` };
  };
  return [
    ...TASKS.map((t) => taskInfo(t, t.plans[0]!, t.id)),
    ...TASKS.flatMap((t) => plansOf(t).map((p) => taskInfo(t, p, `${t.id}@${p}`))),
    ...TASKS.flatMap((t) => (t.aliases ?? []).flatMap((a) => [alias(t, a.id, a.plans[0]!), ...a.plans.map((p) => alias(t, `${a.id}@${p}`, p))])),
  ];
}

export function parseTaskId(id: string): { task: TaskDef; planId: string } | undefined {
  const [tid, planId] = id.split('@');
  const task = taskById(tid ?? '');
  if (!task) return undefined;
  const alias = task.aliases?.find((a) => a.id === tid);
  if (alias) {
    if (planId === undefined) return { task, planId: alias.plans[0]! };
    return alias.plans.includes(planId) ? { task, planId } : undefined;
  }
  if (planId === undefined) return { task, planId: task.plans[0]! };
  return plansOf(task).includes(planId) ? { task, planId } : undefined;
}

export class HouseholdSimulator implements Simulator {
  readonly name = 'waypoint-household';
  readonly version = HOUSEHOLD_SIMULATOR_VERSION;
  readonly agentViews = true;
  private world: World | undefined;
  private readonly taskList = householdTasks();

  tasks(): TaskInfo[] {
    return this.taskList;
  }

  async reset(taskId: string, seed: number, options: { api?: string; agents?: number } = {}): Promise<ResetOutcome> {
    const parsed = parseTaskId(taskId);
    if (!parsed) {
      const [tid, plan] = taskId.split('@');
      const t = taskById(tid ?? '');
      const plans = t?.aliases?.find((a) => a.id === tid)?.plans ?? (t ? plansOf(t) : []);
      if (t && plan !== undefined) throw new Error(`task ${tid} does not run on floor plan '${plan}'; its plans: ${plans.join(', ')}`);
      throw new Error(`unknown task '${taskId}'; known: ${TASKS.map((x) => x.id).join(', ')} (add @<plan> for another floor plan)`);
    }
    if (options.api !== undefined && options.api !== HOUSEHOLD_API_ID) throw new Error(`the household simulator serves the '${HOUSEHOLD_API_ID}' actions, not '${options.api}'`);
    const agents = options.agents ?? DEFAULT_AGENTS;
    const plan = planById(parsed.planId);
    const scene = buildScene(plan, parsed.task, seed, agents);
    this.world = new World(plan, scene.data);
    return {
      task: { ...taskInfo(parsed.task, parsed.planId, taskId), arms: agents },
      observation: this.observeNow(),
      api: LLAMAR_API,
      workspace: {
        tableTopZ: 0,
        xRange: [0, (plan.rows[0]!.length - 1) * CELL_M],
        yRange: [0, (plan.rows.length - 1) * CELL_M],
        axes: 'x east, y north, z up (metres); headings: north = +y, east = +x; 0.25 m grid',
      },
      agents: this.world.data.agents.map((a) => a.name),
    };
  }

  private need(): World {
    if (!this.world) throw new Error('no episode: call reset first');
    return this.world;
  }

  async observe(agent?: string): Promise<Observation> {
    return this.observeNow(agent);
  }

  private observeNow(agentName?: string): Observation {
    const w = this.need();
    if (agentName === undefined) return { text: wholeText(w), state: worldState(w) };
    const a = w.agent(agentName);
    if (!a) throw new Error(`no agent '${agentName}'; agents: ${w.data.agents.map((x) => x.name).join(', ')}`);
    return { text: agentText(w, agentName), state: worldState(w, agentName), agent: agentName };
  }

  async act(actions: AgentAction[]): Promise<JointActResult> {
    const w = this.need();
    const out = runJointStep(w, actions);
    return {
      results: out.map((r) =>
        r.ok
          ? { agent: r.agent, name: r.name, ok: true, output: r.text, value: r.detail }
          : { agent: r.agent, name: r.name, ok: false, error: r.text, value: r.detail },
      ),
    };
  }

  /** One action for the first agent (clients without joint actions). */
  async call(fn: string, args: unknown[]): Promise<ApiCallResult> {
    const w = this.need();
    const r = runJointStep(w, [{ agent: w.data.agents[0]!.name, name: fn, args }])[0]!;
    return r.ok ? { ok: true, output: r.text } : { ok: false, error: `${r.text} (${r.detail})` };
  }

  async check(): Promise<TaskCheckResult> {
    const w = this.need();
    const s = checkerState(w);
    const done = s.subtasks.filter((x) => x.done).length;
    const missing = s.subtasks.filter((x) => !x.done).map((x) => x.text);
    return {
      success: s.success,
      detail: `${done}/${s.subtasks.length} checker subtasks done${missing.length ? `; missing: ${missing.slice(0, 6).join(', ')}${missing.length > 6 ? ', …' : ''}` : ''}`,
    };
  }

  async drainTrajectory(): Promise<{ rateHz: number; samples: [] }> {
    return { rateHz: 1, samples: [] };
  }

  /** Walls and furniture as boxes (z up), so a 3D view can draw the floor plan. */
  async geometry(): Promise<SceneGeometryInfo> {
    const w = this.need();
    const geoms: SceneGeometryInfo['geoms'] = [];
    const bodies = ['walls'];
    for (let r = 0; r < w.grid.rows; r++)
      for (let c = 0; c < w.grid.cols; c++) {
        if (!w.grid.isWall(r, c)) continue;
        const [x, y] = w.xy([r, c]);
        geoms.push({ body: 'walls', kind: 'box', size: [CELL_M / 2, CELL_M / 2, 1.25], pos: [x, y, 1.25], quat: [1, 0, 0, 0], rgba: [0.55, 0.55, 0.6, 1] });
      }
    for (const o of w.data.objects) {
      if (o.kind !== 'furniture') continue;
      bodies.push(o.id);
      const [lo, hi] = w.extentOf(o);
      for (const cell of o.cells) {
        const [x, y] = w.xy(cell);
        geoms.push({ body: o.id, kind: 'box', size: [CELL_M / 2, CELL_M / 2, Math.max(0.01, (hi - lo) / 2)], pos: [x, y, (hi + lo) / 2], quat: [1, 0, 0, 0], rgba: [0.6, 0.45, 0.3, 1] });
      }
    }
    return { bodies, geoms };
  }

  /** A nominal duration per high-level step (the household is symbolic; there is no continuous time). */
  simTimeSecs(): number {
    return (this.world?.data.step ?? 0) * HOUSEHOLD_STEP_SECS;
  }

  async snapshot(): Promise<SimSnapshot> {
    return { kind: 'household', data: structuredClone(this.need().data) };
  }

  async restore(snapshot: SimSnapshot): Promise<void> {
    if (snapshot.kind !== 'household') throw new Error(`cannot restore a '${snapshot.kind}' snapshot in the household simulator`);
    const data = structuredClone(snapshot.data) as WorldData;
    this.world = new World(planById(data.planId), data);
  }

  async close(): Promise<void> {
    this.world = undefined;
  }
}

function propsOf(w: World, o: ObjData): HouseholdObjectProps {
  const s = typeSpec(o.type);
  return {
    type: o.type,
    label: w.labelOf(o.id) ?? null,
    parent: o.parent === '' ? 'Floor' : o.parent,
    room: o.room,
    cells: w.cellsOf(o).map((c) => [c[0], c[1]] as [number, number]),
    ...(s.receptacle ? { receptacle: true } : {}),
    ...(s.pickupable ? { pickupable: true } : {}),
    ...(o.isOpen !== undefined ? { isOpen: o.isOpen } : {}),
    ...(o.isToggled !== undefined ? { isToggled: o.isToggled } : {}),
    ...(o.isSliced !== undefined ? { isSliced: o.isSliced } : {}),
    ...(o.isDirty !== undefined ? { isDirty: o.isDirty } : {}),
    ...(o.isCooked !== undefined ? { isCooked: o.isCooked } : {}),
    ...(o.filledWith !== undefined ? { filledWith: o.filledWith } : {}),
    ...(o.kind !== 'small' ? { fixed: o.kind } : {}),
    ...(o.upper ? { upper: true } : {}),
  };
}

function objectState(w: World, o: ObjData): ObjectState {
  const cells = w.cellsOf(o);
  const xs = cells.map((c) => w.xy(c));
  const minX = Math.min(...xs.map((p) => p[0]));
  const maxX = Math.max(...xs.map((p) => p[0]));
  const minY = Math.min(...xs.map((p) => p[1]));
  const maxY = Math.max(...xs.map((p) => p[1]));
  const [lo, hi] = w.extentOf(o);
  const held = w.heldBy(o);
  const z = held ? 1.0 : (lo + hi) / 2;
  return {
    name: o.id,
    pos: [round((minX + maxX) / 2), round((minY + maxY) / 2), round(z)],
    euler: [0, 0, 0],
    size: [round(maxX - minX + CELL_M), round(maxY - minY + CELL_M), round(Math.max(0.01, hi - lo))],
    color: o.kind === 'small' ? 'small object' : o.kind,
    props: propsOf(w, o),
  };
}

const round = (v: number) => Math.round(v * 1000) / 1000;
const yawOf = (heading: number) => [Math.PI / 2, 0, -Math.PI / 2, Math.PI][heading]!;

function worldState(w: World, agentName?: string): WorldState {
  const agents = w.data.agents;
  const viewer = agentName ? w.agent(agentName)! : undefined;
  const objs = viewer ? w.visibleTo(viewer) : w.present();
  const robots: RobotState[] = agents.map((a) => {
    const [x, y] = w.xy(a.cell);
    return { name: a.name, pos: [x, y, CAMERA_HEIGHT_M], yawRad: yawOf(a.heading), holding: a.holding };
  });
  const first = robots[0]!;
  const household: HouseholdExtra = {
    ...(agentName ? { agent: agentName } : {}),
    agents: Object.fromEntries(
      agents.map((a) => [
        a.name,
        {
          cell: [a.cell[0], a.cell[1]] as [number, number],
          heading: HEADINGS[a.heading]!,
          horizonDeg: a.horizonDeg,
          holding: a.holding ? (w.labelOf(a.holding) ?? a.holding) : null,
          visible: w.visibleTo(a).map((o) => w.labelOf(o.id)!),
        },
      ]),
    ),
    known: w.data.known.map((k) => ({ ...k })),
    step: w.data.step,
    lights: { ...w.data.lights },
    ...(agentName
      ? {}
      : {
          plan: {
            id: w.plan.id,
            label: w.plan.label,
            cellM: CELL_M,
            rows: [...w.plan.rows],
            rooms: w.plan.rooms.map((r) => ({ name: r.name, rect: r.rect })),
            legend: Object.fromEntries(Object.entries(LEGEND).map(([ch, v]) => [ch, v.type ?? v.structure ?? ''])),
          },
          seenBy: Object.fromEntries(Object.entries(w.data.seenBy).map(([k, v]) => [k, [...v]])),
          paths: Object.fromEntries(Object.entries(w.data.paths).map(([k, v]) => [k, v.map((c) => [c[0], c[1]] as [number, number])])),
          checker: checkerState(w),
        }),
  };
  return {
    objects: objs.map((o) => objectState(w, o)),
    ee: { pos: first.pos, yawRad: first.yawRad },
    gripperOpen: first.holding === null,
    grasped: first.holding,
    robots,
    extra: { household },
  };
}

function agentLines(w: World, name: string): string {
  const a = w.agent(name)!;
  const visible = w.visibleTo(a).map((o) => w.labelOf(o.id)!);
  const holding = a.holding ? (w.labelOf(a.holding) ?? a.holding) : null;
  return `${name}'s observation: ${labelList(visible)}\n${name}'s state: ${stateText(w.xy(a.cell), a.heading, holding)}`;
}

function agentText(w: World, name: string): string {
  return agentLines(w, name);
}

function wholeText(w: World): string {
  const lines = w.data.agents.map((a) => agentLines(w, a.name));
  const truth = w
    .present()
    .filter((o) => o.kind === 'small')
    .map((o) => `${w.nameOf(o.id)} (${o.type}) in/on ${o.parent === 'Floor' ? 'the floor' : w.nameOf(o.parent)}, ${o.room}`);
  return [...lines, `Ground truth (never shown to the agents): ${truth.length} small objects; ${w.data.known.length} objects discovered.`, ...truth].join('\n');
}

export function createHouseholdSimulator(): HouseholdSimulator {
  return new HouseholdSimulator();
}


// From a goal ("put the red block on the green block", "pull the right drawer", "press the button") and the scene as
// the policy believes it to be, the waypoints of MALMM's pick-and-place macro, shaped by the rules the prompt states
// (distances, yaw, centre grasp, collision avoidance, workspace). Also `imagine`, the scene a plan is expected to
// leave behind, for planning without looking (no feedback, no re-plan check).
import type { PromptRules, Workspace } from './rules.js';
import { towardRobot } from './rules.js';
import { bottom, cloneScene, dxy, isFlat, isHollow, top, type Scene, type SceneObject, type Vec3 } from './scene.js';
import type { Step } from './steps.js';

/** What the policy does about geometry, read from the prompt's rules. */
export interface Motion {
  safe: number;
  release: number;
  centerGrasp: boolean;
  orientation: boolean;
  /** Fold yaw into the gripper's symmetry (the prompt says it is a top-down two-finger gripper). */
  foldYaw: boolean;
  interaction: boolean;
  collision: boolean;
  workspace?: Workspace;
  /** Unit x/y direction toward the robot base; a guess when the prompt gives no axes. */
  toward: [number, number];
  towardKnown: boolean;
}

/** Distances a planner falls back on when the prompt gives none (docs/reference-model.md). */
export const GUESSED_SAFE_M = 0.05;
export const GUESSED_RELEASE_M = 0;
/** The height margin added above an object's centre when the prompt does not insist on a centre grasp. */
export const GRASP_MARGIN_M = 0.02;
/** How far a drawer is pulled ("well open"); the workspace limits may shorten it. */
export const PULL_M = 0.2;
/** How far below its top the button is pressed (by the fingertips). */
export const PRESS_M = 0.012;
/**
 * The closed fingertips reach this far below the end-effector point: the policy's own knowledge of the hand, so a
 * press moves the fingertips, not the end effector, into the button (a planned motion refuses an end effector 1 cm
 * into the button: the fingertips would be in its housing).
 */
const FINGERTIPS_BELOW_EE_M = 0.014;
/** The gripper's opening (MALMM's API: open_gripper opens 0.08 m); a vessel wider than this is held by its wall. */
const FINGER_OPENING_M = 0.08;

export function motionFrom(rules: PromptRules): Motion {
  const toward = towardRobot(rules.axes);
  return {
    safe: rules.safeDistance ?? GUESSED_SAFE_M,
    release: rules.releaseDistance ?? GUESSED_RELEASE_M,
    centerGrasp: rules.centerGrasp,
    orientation: rules.orientationRule,
    foldYaw: rules.topDownGripper,
    interaction: rules.interactionRules,
    collision: rules.collisionAvoidance,
    ...(rules.workspace ? { workspace: rules.workspace } : {}),
    // Without axes the common robotics convention (x forward, away from the robot) is assumed.
    toward: toward ?? [-1, 0],
    towardKnown: toward !== undefined,
  };
}

/** Where something goes: the object's centre ends above `xy`, its bottom `release` above `surfaceZ`. */
export interface Placement {
  xy: [number, number];
  surfaceZ: number;
  yaw: number;
  /** "on the green block", "into the blue container". */
  phrase: string;
  /** Where the object's centre is expected to come to rest (it falls to the bottom of a container). */
  restZ?: number;
}

export type Action =
  | { kind: 'transfer'; object: string; to: Placement }
  | { kind: 'lift'; object: string; target: Vec3; phrase: string }
  /** Pull the handle from where it is (closed, `handle`) to `to`. */
  | { kind: 'pull'; object: string; handle: Vec3; to: Vec3 }
  | { kind: 'press'; object: string };

/** Mistakes a flawed plan makes for one goal (each drawn by the caller). */
export interface Slips {
  wrongYaw?: boolean;
  missingLift?: boolean;
  inventedCoordinates?: boolean;
}

const wrapPi = (a: number): number => Math.atan2(Math.sin(a), Math.cos(a));

function fold(yaw: number, period: number): number {
  let y = wrapPi(yaw) % period;
  if (y > period / 2) y -= period;
  if (y <= -period / 2) y += period;
  return y;
}

const isSquare = (o: SceneObject): boolean => Math.abs(o.length - o.width) < 0.005;

/** The yaw used for an object: its own (orientation rule) folded to the gripper's symmetry (top-down rule), else 0. */
export function yawFor(o: SceneObject, m: Motion): number {
  if (!m.orientation) return 0;
  if (!m.foldYaw) return wrapPi(o.yaw);
  return fold(o.yaw, isSquare(o) ? Math.PI / 2 : Math.PI);
}

export interface Grasp {
  pos: Vec3;
  yaw: number;
  /** How far the object's bottom hangs below the end effector while held. */
  hang: number;
  /** Held by the wall (a wide vessel): the end effector keeps this x/y offset from the object's centre. */
  offset: [number, number];
  how: string;
}

export function graspOf(o: SceneObject, m: Motion): Grasp {
  if (isHollow(o)) {
    const w = Math.max(o.width, o.length);
    const z = top(o) - 0.02;
    if (w <= FINGER_OPENING_M - 0.015) return { pos: [o.pos[0], o.pos[1], z], yaw: 0, hang: z - bottom(o), offset: [0, 0], how: `around the ${o.name}, 2 cm below its rim` };
    const r = w / 2 - 0.0025;
    return { pos: [o.pos[0] + r, o.pos[1], z], yaw: Math.PI / 2, hang: z - bottom(o), offset: [r, 0], how: `by the wall of the ${o.name} (it is wider than the open gripper), 2 cm below its rim` };
  }
  const margin = m.centerGrasp ? 0 : Math.min(GRASP_MARGIN_M, Math.max(0, o.height / 2 - 0.005));
  const z = o.pos[2] + margin;
  return { pos: [o.pos[0], o.pos[1], z], yaw: yawFor(o, m), hang: z - bottom(o), offset: [0, 0], how: margin > 0 ? `${margin} m above the centre of the ${o.name}` : `at the centre of the ${o.name}` };
}

const near = (a: readonly number[], b: readonly number[], xy = 0.012, z = 0.015): boolean => dxy(a, b) < xy && Math.abs(a[2]! - b[2]!) < z;

function clampTo(ws: Workspace | undefined, p: Vec3): Vec3 {
  if (!ws) return p;
  const c = (v: number, r?: [number, number]) => (r ? Math.min(r[1], Math.max(r[0], v)) : v);
  return [c(p[0], ws.x), c(p[1], ws.y), ws.tableZ !== undefined ? Math.max(p[2], ws.tableZ + 0.005) : p[2]];
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

/** Highest top among the objects (other than `except`) the held object could hit on the way. */
function obstacleTop(scene: Scene, except: string): number {
  let z = -Infinity;
  for (const o of scene.objects) if (o.name !== except && !isFlat(o) && o.name !== scene.grasped) z = Math.max(z, top(o));
  return z;
}

/**
 * The remaining steps for one goal from where the arm is now. `scene` is what the planner believes (the newest
 * state, or an imagined one).
 */
export function stepsFor(action: Action, scene: Scene, m: Motion, slips: Slips = {}): Step[] {
  switch (action.kind) {
    case 'transfer':
    case 'lift':
      return pickAndPlace(action, scene, m, slips);
    case 'pull':
      return pull(action, scene, m, slips);
    case 'press':
      return press(action.object, scene, m);
  }
}

function find(scene: Scene, name: string): SceneObject {
  const o = scene.objects.find((x) => x.name === name);
  if (!o) throw new Error(`no object named "${name}" in the state`);
  return o;
}

function prepare(scene: Scene, steps: Step[], m: Motion, goingTo: Vec3, clearZ: number): void {
  if (scene.grasped) steps.push({ kind: 'open', say: `release the ${scene.grasped} first` });
  else if (!scene.gripperOpen) steps.push({ kind: 'open', say: 'open the gripper (it is closed)' });
  // Low and elsewhere: go up before crossing the table.
  if (dxy(scene.ee, goingTo) > 0.012 && scene.ee[2] < clearZ - 0.02) {
    steps.push({ kind: 'move', say: `rise to ${clearZ.toFixed(3)} m before moving on`, pos: clampTo(m.workspace, [scene.ee[0], scene.ee[1], clearZ]), yaw: scene.eeYaw });
  }
}

function pickAndPlace(action: Extract<Action, { kind: 'transfer' | 'lift' }>, scene: Scene, m: Motion, slips: Slips): Step[] {
  const o = find(scene, action.object);
  const g = graspOf(o, m);
  // Degrees written where radians are due: the wrist turns to a meaningless angle.
  if (slips.wrongYaw) g.yaw = Math.round((g.yaw * 180) / Math.PI * 10) / 10;
  if (slips.inventedCoordinates) g.pos = [round1(g.pos[0]), round1(g.pos[1]), g.pos[2]];
  const holding = scene.grasped === o.name;
  const steps: Step[] = [];
  let release: Vec3;
  let releaseYaw: number;
  let carryZ: number;
  if (action.kind === 'transfer') {
    const to = action.to;
    release = [to.xy[0] + g.offset[0], to.xy[1] + g.offset[1], to.surfaceZ + m.release + g.hang];
    releaseYaw = isHollow(o) ? g.yaw : m.orientation ? fold(to.yaw, m.foldYaw ? (isSquare(o) ? Math.PI / 2 : Math.PI) : 2 * Math.PI) : 0;
    // A held object's height says nothing about where it was picked: carry relative to the release point then.
    carryZ = Math.max(release[2], holding ? -Infinity : g.pos[2]) + m.safe;
  } else {
    release = [action.target[0] + g.offset[0], action.target[1] + g.offset[1], action.target[2] + (g.pos[2] - o.pos[2])];
    releaseYaw = g.yaw;
    carryZ = Math.max(holding ? -Infinity : g.pos[2] + m.safe, release[2]);
  }
  if (m.collision) carryZ = Math.max(carryZ, obstacleTop(scene, o.name) + g.hang + 0.03);
  release = clampTo(m.workspace, release);
  const above = (p: Vec3, z: number): Vec3 => clampTo(m.workspace, [p[0], p[1], z]);
  const dest = action.kind === 'transfer' ? action.to.phrase : action.phrase;

  if (!holding) {
    const approach = above(g.pos, g.pos[2] + m.safe);
    prepare(scene, steps, m, g.pos, Math.max(approach[2], carryZ));
    const atGrasp = near(scene.ee, g.pos);
    if (m.interaction) {
      if (!atGrasp && !near(scene.ee, approach, 0.012, 0.03)) steps.push({ kind: 'move', say: `move ${m.safe} m above the ${o.name}`, pos: approach, yaw: g.yaw });
      if (!atGrasp) steps.push({ kind: 'move', say: `lower to grasp ${g.how}`, pos: clampTo(m.workspace, g.pos), yaw: g.yaw });
    } else if (!atGrasp) {
      steps.push({ kind: 'move', say: `move to the ${o.name}`, pos: clampTo(m.workspace, g.pos), yaw: g.yaw });
    }
    steps.push({ kind: 'close', say: `close the gripper on the ${o.name}`, object: o.name });
    if (m.interaction && !slips.missingLift) steps.push({ kind: 'move', say: `lift the ${o.name} to ${carryZ.toFixed(3)} m`, pos: above(g.pos, carryZ), yaw: g.yaw });
  } else if (m.interaction && dxy(scene.ee, release) > 0.012 && scene.ee[2] < carryZ - 0.03) {
    steps.push({ kind: 'move', say: `lift the ${o.name} to ${carryZ.toFixed(3)} m`, pos: above(scene.ee, carryZ), yaw: scene.eeYaw });
  }
  if (action.kind === 'lift') {
    if (!near(scene.ee, release)) steps.push({ kind: 'move', say: `bring the ${o.name} ${dest}`, pos: release, yaw: releaseYaw });
    return steps;
  }
  const overDest = holding && dxy(scene.ee, release) < 0.012;
  if (m.interaction) {
    if (!overDest) steps.push({ kind: 'move', say: `carry it ${m.safe} m above the release point ${dest}`, pos: above(release, carryZ), yaw: releaseYaw });
    if (!(overDest && Math.abs(scene.ee[2] - release[2]) < 0.01)) steps.push({ kind: 'move', say: `lower to ${m.release} m above the surface ${dest}`, pos: release, yaw: releaseYaw });
  } else if (!(overDest && Math.abs(scene.ee[2] - release[2]) < 0.01)) {
    steps.push({ kind: 'move', say: `move it ${dest}`, pos: release, yaw: releaseYaw });
  }
  steps.push({ kind: 'open', say: `release the ${o.name}` });
  if (m.interaction) steps.push({ kind: 'move', say: `rise ${m.safe} m`, pos: above(release, release[2] + m.safe), yaw: releaseYaw });
  return steps;
}

/** The drawer's handle: the middle of the face toward the robot, 6 mm in from the edge, 3 cm above the centre. */
export function handleOf(d: SceneObject, m: Motion): Vec3 {
  const [tx, ty] = m.toward;
  const half = Math.abs(tx) > 0 ? d.length / 2 : d.width / 2;
  return [d.pos[0] + tx * (half - 0.006), d.pos[1] + ty * (half - 0.006), d.pos[2] + 0.03];
}

/** How far the handle is pulled: PULL_M, shortened so that the end effector stays inside the stated workspace. */
export function pullDistance(h: Vec3, m: Motion): number {
  let d = PULL_M;
  const ws = m.workspace;
  const [tx, ty] = m.toward;
  if (ws?.y && ty !== 0) d = Math.min(d, ty < 0 ? h[1] - ws.y[0] : ws.y[1] - h[1]);
  if (ws?.x && tx !== 0) d = Math.min(d, tx < 0 ? h[0] - ws.x[0] : ws.x[1] - h[0]);
  return Math.max(0.05, Math.round((d - 0.005) * 1000) / 1000);
}

function pull(action: Extract<Action, { kind: 'pull' }>, scene: Scene, m: Motion, slips: Slips): Step[] {
  const d = find(scene, action.object);
  let h = handleOf(d, m);
  if (slips.inventedCoordinates) h = [round1(h[0]), round1(h[1]), h[2]];
  const yaw = slips.wrongYaw ? Math.PI / 4 : 0;
  const to = action.to;
  const dist = Math.hypot(to[0] - action.handle[0], to[1] - action.handle[1]);
  const steps: Step[] = [];
  const holding = scene.grasped === d.name;
  if (!holding) {
    const approach: Vec3 = [h[0], h[1], h[2] + m.safe];
    prepare(scene, steps, m, h, approach[2]);
    if (m.interaction && !near(scene.ee, h) && !near(scene.ee, approach, 0.012, 0.03)) steps.push({ kind: 'move', say: `move ${m.safe} m above the handle of the ${d.name}`, pos: approach, yaw });
    if (!near(scene.ee, h)) steps.push({ kind: 'move', say: `lower to the handle of the ${d.name}`, pos: h, yaw });
    steps.push({ kind: 'close', say: `grasp the handle of the ${d.name}`, object: d.name });
  }
  // A pull often stops a little short (friction, the end stop): close enough counts.
  if (!holding || dxy(scene.ee, to) > 0.03) steps.push({ kind: 'move', say: `pull the ${d.name} out to ${dist.toFixed(3)} m toward the robot`, pos: to, yaw });
  steps.push({ kind: 'open', say: `let go of the ${d.name}` });
  if (m.interaction) steps.push({ kind: 'move', say: `rise ${m.safe} m`, pos: [to[0], to[1], to[2] + m.safe], yaw });
  return steps;
}

function press(name: string, scene: Scene, m: Motion): Step[] {
  const b = find(scene, name);
  const yaw = yawFor(b, m);
  const steps: Step[] = [];
  if (scene.gripperOpen) steps.push({ kind: 'close', say: 'close the gripper so the fingertips press together', object: b.name });
  const above: Vec3 = [b.pos[0], b.pos[1], top(b) + Math.max(m.safe, 0.05)];
  if (dxy(scene.ee, above) > 0.012 || Math.abs(scene.ee[2] - above[2]) > 0.03) steps.push({ kind: 'move', say: `move above the ${b.name}`, pos: above, yaw });
  steps.push({ kind: 'move', say: `press the ${b.name} ${PRESS_M} m down with the fingertips`, pos: [b.pos[0], b.pos[1], top(b) + FINGERTIPS_BELOW_EE_M - PRESS_M], yaw });
  steps.push({ kind: 'move', say: `rise off the ${b.name}`, pos: above, yaw });
  return steps;
}

/** The scene a goal's steps are expected to leave (used when planning without looking at new states). */
export function imagine(scene: Scene, action: Action, m: Motion): Scene {
  const s = cloneScene(scene);
  const o = s.objects.find((x) => x.name === action.object);
  if (!o) return s;
  if (action.kind === 'transfer') {
    const g = graspOf(o, m);
    o.pos = [action.to.xy[0], action.to.xy[1], action.to.restZ ?? action.to.surfaceZ + o.height / 2];
    s.ee = [action.to.xy[0] + g.offset[0], action.to.xy[1] + g.offset[1], action.to.surfaceZ + m.release + g.hang + m.safe];
    s.grasped = null;
    s.gripperOpen = true;
  } else if (action.kind === 'lift') {
    o.pos = [...action.target] as Vec3;
    s.ee = [...action.target] as Vec3;
    s.grasped = o.name;
    s.gripperOpen = false;
  } else if (action.kind === 'pull') {
    o.pos = [o.pos[0] + action.to[0] - action.handle[0], o.pos[1] + action.to[1] - action.handle[1], o.pos[2]];
    s.ee = [action.to[0], action.to[1], action.to[2] + m.safe];
    s.gripperOpen = true;
    s.grasped = null;
  } else {
    s.ee = [o.pos[0], o.pos[1], top(o) + Math.max(m.safe, 0.05)];
    s.gripperOpen = false;
  }
  return s;
}


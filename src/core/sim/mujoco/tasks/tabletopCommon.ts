// Shared pieces of the single-arm tabletop: table, arm placement, workspace, colours, seeded placement.
// Frame: world z up; the robot base sits on the table at (0, -0.35) facing +y; x to the robot's right.
import type { Rng } from '../../../host.js';
import type { WorkspaceInfo } from '../../simulator.js';
import { mjcfSafe, type ArmSpec, type ObjectSpec, type SceneSpec, type TableSpec, type Vec3 } from '../scene/sceneSpec.js';
import type { ObjectPlacement } from './taskDefinition.js';

export const TABLE_TOP_Z = 0.75;
export const TIMESTEP_SECS = 0.004;

export const TABLE: TableSpec = { topZ: TABLE_TOP_Z, center: [0, 0.05], halfExtents: [0.6, 0.6] };

export const SINGLE_ARM: ArmSpec = {
  prefix: '',
  label: '',
  basePos: [0, -0.35, TABLE_TOP_Z],
  baseYawRad: Math.PI / 2,
  homeTcp: { pos: [0, 0, 1.1], yawRad: 0 },
};

/**
 * Where the arm reaches comfortably top-down from table height to 0.35 m above it, any yaw in [-pi/2, pi/2]
 * (checked on a grid in test/unit/core/sim/mujoco/ik.test.ts). Closer than y = -0.05 the elbow hits joint 4's limit.
 */
export const SINGLE_ARM_WORKSPACE: WorkspaceInfo = {
  tableTopZ: TABLE_TOP_Z,
  xRange: [-0.3, 0.3],
  yRange: [-0.05, 0.35],
  axes: 'x increases to the right, y increases away from the robot base, z points up; metres; yaw in radians about +z, counter-clockwise positive',
};

export const COLORS: Record<string, [number, number, number, number]> = {
  red: [0.85, 0.12, 0.1, 1],
  green: [0.1, 0.65, 0.2, 1],
  blue: [0.12, 0.3, 0.9, 1],
  yellow: [0.95, 0.82, 0.1, 1],
  orange: [0.95, 0.5, 0.1, 1],
  purple: [0.55, 0.2, 0.75, 1],
  white: [0.93, 0.93, 0.93, 1],
  grey: [0.55, 0.55, 0.58, 1],
  black: [0.12, 0.12, 0.12, 1],
  brown: [0.55, 0.36, 0.2, 1],
  pink: [0.95, 0.55, 0.7, 1],
  cyan: [0.2, 0.75, 0.85, 1],
};

export function block(color: string, edgeM = 0.05): ObjectSpec {
  const name = `${color} block`;
  const rgba = COLORS[color];
  if (!rgba) throw new Error(`no colour '${color}'; known: ${Object.keys(COLORS).join(', ')}`);
  // Wood-like density (600 kg/m^3).
  return { name, mjcfName: mjcfSafe(name), shape: 'box', size: [edgeM, edgeM, edgeM], color, rgba, massKg: 600 * edgeM ** 3 };
}

/**
 * Places objects resting on the table, uniformly inside the workspace (minus `marginM`), at least `minSepM`
 * apart (centre to centre), yaw uniform in [-pi/4, pi/4]. Rejection sampling: the seed alone decides.
 */
export function scatterOnTable(rng: Rng, objects: readonly ObjectSpec[], ws: WorkspaceInfo, minSepM: number, marginM: number): ObjectPlacement[] {
  const out: ObjectPlacement[] = [];
  for (const o of objects) {
    let placed: ObjectPlacement | null = null;
    for (let attempt = 0; attempt < 1000 && !placed; attempt++) {
      const x = ws.xRange[0] + marginM + rng.next() * (ws.xRange[1] - ws.xRange[0] - 2 * marginM);
      const y = ws.yRange[0] + marginM + rng.next() * (ws.yRange[1] - ws.yRange[0] - 2 * marginM);
      const yawRad = (rng.next() - 0.5) * (Math.PI / 2);
      if (out.every((p) => Math.hypot(p.pos[0] - x, p.pos[1] - y) >= minSepM)) {
        const pos: Vec3 = [x, y, ws.tableTopZ + o.size[2] / 2];
        placed = { pos, yawRad };
      }
    }
    if (!placed) throw new Error(`could not place '${o.name}' at least ${minSepM} m from the others in 1000 tries`);
    out.push(placed);
  }
  return out;
}

/** The scene of a single-arm tabletop task. */
export function singleArmScene(key: string, objects: ObjectSpec[]): SceneSpec {
  return { key, table: TABLE, arms: [SINGLE_ARM], objects, timestepSecs: TIMESTEP_SECS };
}

/**
 * The KUKA iiwa 7 with its Allegro hand, mounted as in Action Contextualization's scene (iiwa7_allegro_llm.xml,
 * static_env.xml): on a pedestal beside the table, its base plate 0.51 m below the table top, the table's near edge
 * 0.35 m in front of it. It stands 0.25 m farther back than the Franka-class arm (same x), so the dining objects lie
 * 0.56-0.86 m from its base, as the authors' do.
 */
export const IIWA_ARM: ArmSpec = {
  prefix: '',
  label: '',
  basePos: [0, -0.6, TABLE_TOP_Z - 0.51],
  baseYawRad: Math.PI / 2,
  // The hand over the table's near edge, pointing forward and 0.3 rad down, its finger tips 8 cm over the tall glasses.
  homeTcp: { pos: [0, -0.4, 1.2], yawRad: 0 },
  homeQ: [0, -0.476, 0, -1.193, 0, 1.154, 0],
  model: 'iiwa',
  gripper: 'allegro',
  pedestal: { halfXY: [0.12, 0.12] },
};

/** The authors' table (0.7 x 1.2 m, its near edge 0.35 m in front of the base), a little wider on the right. */
export const IIWA_TABLE: TableSpec = { topZ: TABLE_TOP_Z, center: [-0.05, 0.125], halfExtents: [0.65, 0.375] };

/** The scene of a single-arm tabletop task with the iiwa in place of the Franka-class arm. */
export function iiwaScene(key: string, objects: ObjectSpec[]): SceneSpec {
  return { key: `${key}+iiwa`, table: IIWA_TABLE, arms: [IIWA_ARM], objects, timestepSecs: TIMESTEP_SECS };
}

// Multi-arm tabletop (RoCoBench-style): 2-3 Franka-class arms on one side of the table or facing each other,
// each with a reach zone (an x interval of the table) that the RoCo API's task-constraint check enforces.
import type { WorkspaceInfo } from '../../../simulator.js';
import type { ArmSpec, ObjectSpec, SceneSpec } from '../../scene/sceneSpec.js';
import { TABLE, TABLE_TOP_Z, TIMESTEP_SECS } from '../tabletopCommon.js';

/** A robot of a multi-arm task, as the agents know it. */
export interface RobotSpec {
  /** RoCo-style agent name: Alice, Bob, Chad. */
  name: string;
  /** Table x interval the robot may pick from and place into. */
  reachX: [number, number];
}

export interface MultiArmSetup {
  robots: RobotSpec[];
  /** 'shared': every robot sees the whole scene; 'partial': only what lies in its reach zone (and what it holds). */
  observation: 'shared' | 'partial';
}

/** Arms in a row along the near edge (y = -0.35), facing +y, `spacingM` apart. */
export function armsInRow(names: string[], spacingM: number): ArmSpec[] {
  const n = names.length;
  return names.map((name, i) => {
    const x = (i - (n - 1) / 2) * spacingM;
    return {
      prefix: `${name.toLowerCase()}_`,
      label: `${name} `,
      basePos: [x, -0.35, TABLE_TOP_Z],
      baseYawRad: Math.PI / 2,
      homeTcp: { pos: [x, 0.0, 1.1], yawRad: 0 },
    };
  });
}

/** Two arms facing each other across the table (x = -+0.55), each reaching its own half plus the middle. */
export function armsFacing(names: [string, string]): ArmSpec[] {
  return names.map((name, i) => {
    const sign = i === 0 ? -1 : 1;
    return {
      prefix: `${name.toLowerCase()}_`,
      label: `${name} `,
      basePos: [sign * 0.55, 0.05, TABLE_TOP_Z],
      baseYawRad: i === 0 ? 0 : Math.PI,
      homeTcp: { pos: [sign * 0.2, 0.05, 1.1], yawRad: Math.PI / 2 },
    };
  });
}

export function multiArmScene(key: string, arms: ArmSpec[], objects: ObjectSpec[]): SceneSpec {
  return { key, table: TABLE, arms, objects, timestepSecs: TIMESTEP_SECS };
}

export const MULTI_ARM_WORKSPACE: WorkspaceInfo = {
  tableTopZ: TABLE_TOP_Z,
  xRange: [-0.55, 0.55],
  yRange: [-0.2, 0.45],
  axes: 'x increases to the right (along the row of robots), y increases away from the near edge, z points up; metres; yaw in radians about +z',
};

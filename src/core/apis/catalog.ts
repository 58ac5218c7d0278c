// The one catalog of robot APIs, keyed by API id. The simulator serves these functions, the agents' prompts list
// them, the sandbox checks calls against them and the language server completes and hovers them. Handler-free:
// the implementations live with the simulator (src/core/sim/mujoco/apis/).
import type { ApiFunctionSpec } from '../sim/simulator.js';
import { ACTCTX_API } from './actctx.js';
import { LLAMAR_API } from './llamar.js';
import { LMTG_API } from './lmtg.js';
import { MALMM_API } from './malmm.js';
import { ROCO_API } from './roco.js';

export interface ApiFamily {
  id: string;
  description: string;
  functions: readonly ApiFunctionSpec[];
}

const FAMILIES: ApiFamily[] = [
  { id: 'malmm', description: 'MALMM / RLBench-style end-effector API: single top-down waypoints plus open/close gripper.', functions: MALMM_API },
  { id: 'lmtg', description: 'LM Trajectory Generators API: detect_object plus dense [x, y, z, yaw] end-effector trajectories.', functions: LMTG_API },
  { id: 'actctx', description: 'Action Contextualization skills (approach, pick, place, drop with speed, clearance, grasp, orientation) and checks.', functions: ACTCTX_API },
  { id: 'roco', description: 'RoCo multi-robot actions (PICK, PLACE, MOVE, WAIT with optional PATH) validated by five ordered checks.', functions: ROCO_API },
  { id: 'llamar', description: 'LLaMAR household actions (NavigateTo, Pickup, Put, Open, ... Explore) for each agent, served by the household simulator.', functions: LLAMAR_API },
];

/** API id -> family. Later architectures add theirs here (a registry test checks every architecture's API is listed). */
export const API_CATALOG: ReadonlyMap<string, ApiFamily> = new Map(FAMILIES.map((f) => [f.id, f]));

export function getApiFamily(id: string): ApiFamily {
  const f = API_CATALOG.get(id);
  if (!f) throw new Error(`unknown robot API '${id}'; known: ${[...API_CATALOG.keys()].join(', ')}`);
  return f;
}

export { ACTCTX_API, LLAMAR_API, LMTG_API, MALMM_API, ROCO_API };

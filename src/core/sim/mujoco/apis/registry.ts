// Robot APIs by id: 'malmm' (single waypoints), 'lmtg' (detect_object + dense pose lists), 'actctx' (skills
// with parameters + checks), 'roco' (multi-robot plans with five checks).
import { actctxApi } from './actctxApi.js';
import { lmtgApi } from './lmtgApi.js';
import { malmmApi } from './malmmApi.js';
import { rocoApi } from './rocoApi.js';
import type { RobotApi } from './robotApi.js';

const APIS: RobotApi[] = [malmmApi, lmtgApi, actctxApi, rocoApi];

export const ROBOT_APIS: ReadonlyMap<string, RobotApi> = new Map(APIS.map((a) => [a.id, a]));

export function getRobotApi(id: string): RobotApi {
  const api = ROBOT_APIS.get(id);
  if (!api) throw new Error(`unknown robot API '${id}'; known: ${[...ROBOT_APIS.keys()].join(', ')}`);
  return api;
}

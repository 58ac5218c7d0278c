// Robot APIs by id. The next issue adds 'lmtg' (dense pose lists), 'actctx' (skills + checks) and 'roco'.
import { malmmApi } from './malmmApi.js';
import type { RobotApi } from './robotApi.js';

const APIS: RobotApi[] = [malmmApi];

export const ROBOT_APIS: ReadonlyMap<string, RobotApi> = new Map(APIS.map((a) => [a.id, a]));

export function getRobotApi(id: string): RobotApi {
  const api = ROBOT_APIS.get(id);
  if (!api) throw new Error(`unknown robot API '${id}'; known: ${[...ROBOT_APIS.keys()].join(', ')}`);
  return api;
}

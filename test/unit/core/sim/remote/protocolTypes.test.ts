// The zod schemas in src/protocol/simulator.ts and the Simulator interface's types describe the same payloads;
// this file fails to typecheck (npx tsc) when they drift apart.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type * as P from '../../../../../src/protocol/simulator.js';
import type * as S from '../../../../../src/core/sim/simulator.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const checks: [
  Same<P.ApiFunctionSpec, S.ApiFunctionSpec>,
  Same<P.TaskInfo, S.TaskInfo>,
  Same<P.Observation, S.Observation>,
  Same<P.ApiCallResult, S.ApiCallResult>,
  Same<P.TaskCheckResult, S.TaskCheckResult>,
  Same<P.SceneGeometryInfo, S.SceneGeometryInfo>,
  Same<P.WorkspaceInfo, S.WorkspaceInfo>,
] = [true, true, true, true, true, true, true];

it('protocol payload types equal the Simulator interface types (checked by tsc)', () => {
  assert.ok(checks.every(Boolean));
});

// A stand-in robot host for sandbox tests: records calls, keeps a little state, answers like a simulator would.
import type { ApiFunctionSpec, ApiCallResult } from '../../../../src/core/sim/simulator.js';
import type { RunCodeRequest } from '../../../../src/core/sandbox/sandbox.js';

export const robotApi: ApiFunctionSpec[] = [
  {
    name: 'execute_trajectory',
    params: [
      { name: 'position', type: 'list[float]' },
      { name: 'orientation', type: 'float' },
    ],
    signature: 'execute_trajectory(position: list[float], orientation: float) -> None',
    doc: 'Move the end effector to a waypoint.',
  },
  { name: 'open_gripper', params: [], signature: 'open_gripper() -> None', doc: 'Open the gripper.' },
  {
    name: 'close_gripper',
    params: [{ name: 'object_name', type: 'str' }],
    signature: 'close_gripper(object_name: str) -> None',
    doc: 'Grasp an object.',
  },
  { name: 'report_state', params: [], signature: 'report_state() -> None', doc: 'Print the gripper state.' },
  {
    name: 'look',
    params: [
      { name: 'target', type: 'vec3' },
      { name: 'verbose', type: 'bool', optional: true },
    ],
    signature: 'look(target: vec3, verbose: bool = False) -> None',
    doc: '',
  },
];

export class FakeRobot {
  calls: { fn: string; args: unknown[] }[] = [];
  gripper: 'open' | 'closed' = 'open';
  holding: string | undefined;

  async call(fn: string, args: unknown[]): Promise<ApiCallResult> {
    this.calls.push({ fn, args });
    switch (fn) {
      case 'open_gripper':
        this.gripper = 'open';
        this.holding = undefined;
        return { ok: true };
      case 'close_gripper':
        if (args[0] === 'ghost') return { ok: false, error: 'no object named ghost in the scene' };
        this.gripper = 'closed';
        this.holding = String(args[0]);
        return { ok: true };
      case 'report_state':
        return { ok: true, output: `gripper ${this.gripper}, holding ${this.holding ?? 'nothing'}` };
      default:
        return { ok: true };
    }
  }
}

export function request(code: string, robot: FakeRobot, over: Partial<RunCodeRequest> = {}): RunCodeRequest {
  return {
    code,
    api: robotApi,
    persistNamespace: false,
    limits: { timeoutSecs: 10, memoryMiB: 512 },
    onApiCall: (fn, args) => robot.call(fn, args),
    ...over,
  };
}

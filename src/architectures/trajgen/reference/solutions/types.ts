// A scripted solution of one trajectory task, as the reference model (a scripted policy, not an LLM) writes it in
// the LM Trajectory Generators loop: its first reply detects the objects it names; its second reply is Python
// written from the detections it read back, numbers baked in, as the paper's generated code is after reading
// detect_object's print-out. A flaw makes the code fail the way the paper's section 8 reports.
import type { Readout } from './readout.js';

/** The paper's failure kinds the flawed profile makes (section 8 of the digest). */
export type TrajgenFlaw =
  /** The gripper's height or yaw misjudged at the grasp (misses or bumps the object). */
  | 'gripper_pose_error'
  /** Steps in the wrong order: the gripper closes before it is lowered. */
  | 'close_before_lower'
  /** A helper function with a hard-coded height instead of the detected one. */
  | 'hard_coded_height'
  /** A bowl (or any object with a rim) grasped at its centre instead of its rim. */
  | 'grip_at_centre';

export interface TrajgenSolution {
  /** Task id of the embedded simulator (tests walk every task). */
  task: string;
  /** Whether an instruction belongs to this task (the policy decides from the messages only). */
  matches(instruction: string): boolean;
  /** The objects or parts the first reply passes to detect_object. */
  detect(instruction: string): string[];
  /** Python for the second reply, from what detect_object printed. */
  code(instruction: string, seen: Readout, flaw?: TrajgenFlaw): string;
  /** The flaws this task's code can make (empty: the flawed profile leaves it correct). */
  flaws: TrajgenFlaw[];
}

// What the rendered system prompt asks for, read from its words. The policy only ever sees the rendered text, so an
// ablation that removes a rule is noticed by the rule's absence. Each detector looks for the rule's meaning in a
// few phrasings (case-insensitive) so that a user's rewording keeps working; when nothing matches, the rule counts
// as absent and the policy behaves as docs/reference-model.md says it does without it, never crashes.
import type { ChatMessage } from '../../../protocol/trace.js';

export interface Workspace {
  tableZ?: number;
  x?: [number, number];
  y?: [number, number];
}

export interface PromptRules {
  // Coder (and the single agent)
  /** "Define every value a block uses inside that same block". */
  defineInSameBlock: boolean;
  /** One step per code block; false when the prompt asks for all the steps in one block (or says neither). */
  oneStepPerBlock: boolean;
  /** "Write one step, then stop and wait for the Executor's report". */
  stopAfterEachCall: boolean;
  /** "If the code or the plan fails five times in a row, call task_completed()". */
  fiveErrorStop: boolean;
  /** "an object is grasped at its CENTER position" (the Coder's reminder). */
  centerGraspReminder: boolean;
  // Planner (and the single agent)
  /** The axes sentence, when the prompt has one. */
  axes?: string;
  /** Table height and x/y limits, when the prompt states them. */
  workspace?: Workspace;
  /** "The gripper points straight down ... two parallel fingers". */
  topDownGripper: boolean;
  /** "The end effector's orientation is always the orientation of the object to grasp, or of the destination" (Fig. 8). */
  orientationRule: boolean;
  /** The safe and release distances the prompt gives (metres). */
  safeDistance?: number;
  releaseDistance?: number;
  /** "An object can only be grasped at its CENTER". */
  centerGrasp: boolean;
  /** "Compare the target object's position ... before and after the step ... re-plan". */
  replanCheck: boolean;
  /** "COLLISION AVOIDANCE: account for the height ... of every object". */
  collisionAvoidance: boolean;
  /** The step-by-step pick-and-place rules. */
  interactionRules: boolean;
  /** "First describe where the objects are relative to each other". */
  spatialDescription: boolean;
  /** "Ask the Coder for one step at a time, and after each object is placed say whether it worked". */
  stepFeedback: boolean;
  // Supervisor
  /** "HOW TO ROUTE" hints. */
  routingHints: boolean;
}

const has = (text: string, ...res: RegExp[]): boolean => res.some((r) => r.test(text));

function range(text: string, axis: 'x' | 'y'): [number, number] | undefined {
  const m = new RegExp(`\\b${axis}(?:\\s*range)?\\s*(?:[:=]|within|in)?\\s*\\[\\s*(-?\\d*\\.?\\d+)\\s*,\\s*(-?\\d*\\.?\\d+)\\s*\\]`, 'i').exec(text);
  if (!m) return undefined;
  const lo = Number(m[1]);
  const hi = Number(m[2]);
  return Number.isFinite(lo) && Number.isFinite(hi) && lo < hi ? [lo, hi] : undefined;
}

function distance(text: string, name: 'safe' | 'release'): number | undefined {
  const m = new RegExp(`${name} distance (?:is|of|=|:)\\s*(\\d*\\.?\\d+)`, 'i').exec(text);
  const v = m ? Number(m[1]) : NaN;
  return Number.isFinite(v) && v >= 0 && v < 1 ? v : undefined;
}

/** The rules stated in a system prompt text. */
export function readRules(systemText: string): PromptRules {
  const t = systemText;
  const allAtOnce = has(t, /all (?:the )?steps[^.\n]*\bin one\b[^.\n]*block/i, /all in one go/i, /all (?:the )?code in one/i);
  const oneStep = has(t, /one step per\b/i, /one step at a time/i, /do not write the whole task in one block/i);
  const axes = /\baxes\s*:\s*([^\n]+)/i.exec(t)?.[1]?.trim() ?? /([^\n.]*\b[xy] (?:increases|points|goes)[^\n]*)/i.exec(t)?.[1]?.trim();
  const tableZ = /table(?: top| surface)?(?: is)? at z\s*=?\s*(\d*\.?\d+)/i.exec(t)?.[1];
  const ws: Workspace = {};
  if (tableZ !== undefined && Number.isFinite(Number(tableZ))) ws.tableZ = Number(tableZ);
  const x = range(t, 'x');
  const y = range(t, 'y');
  if (x) ws.x = x;
  if (y) ws.y = y;
  return {
    defineInSameBlock: has(t, /define every value/i, /blocks? do(?:es)? not share (?:any )?variables/i, /(?:define|declare)[^.\n]*\b(?:same|this|each) (?:code )?block/i),
    oneStepPerBlock: oneStep && !allAtOnce,
    stopAfterEachCall: has(t, /\bstop and wait\b/i, /wait for the (?:executor|result|report)/i, /stop (?:generation|generating|writing) after each/i),
    fiveErrorStop: has(t, /(?:five|5) times in a row/i, /after (?:five|5) consecutive (?:errors|failures)/i),
    centerGraspReminder: has(t, /grasped at its cent(?:er|re)/i),
    ...(axes ? { axes } : {}),
    ...(Object.keys(ws).length > 0 ? { workspace: ws } : {}),
    topDownGripper: has(t, /points? (?:straight )?down/i, /top-down/i, /two parallel fingers/i, /fingers[^.\n]*parallel to the x/i),
    orientationRule: has(t, /yaw (?:equals|is|should be|must be|matches)[^.\n]*orientation of the object/i, /orientation is always (?:the )?(?:z )?orientation of the object/i, /yaw[^.\n]*\bz orientation\b[^.\n]*(?:grasp|object)/i),
    ...(distance(t, 'safe') !== undefined ? { safeDistance: distance(t, 'safe') } : {}),
    ...(distance(t, 'release') !== undefined ? { releaseDistance: distance(t, 'release') } : {}),
    centerGrasp: has(t, /only be grasped at its cent(?:er|re)/i, /grasp (?:an object )?only at its cent(?:er|re)/i, /grasp[^.\n]*at (?:its|the object's) cent(?:er|re)[^.\n]*no (?:extra )?height margin/i),
    replanCheck: has(t, /compare[^.\n]*(?:before and after|previous|with the (?:new|current))/i, /re-?plan/i),
    collisionAvoidance: has(t, /collision avoidance/i, /hit neither/i, /above obstacles/i),
    interactionRules: has(t, /pick and place/i, /object interaction rules/i, /lower to the object's cent(?:er|re)[\s\S]{0,200}open the gripper/i),
    spatialDescription: has(t, /describe (?:where the objects are|the scene)/i),
    stepFeedback: has(t, /one step at a time/i, /say whether it worked/i),
    routingHints: has(t, /how to route/i, /just been released or placed/i),
  };
}

/** The system prompt text of a request (all system messages, joined). */
export function systemText(messages: readonly ChatMessage[]): string {
  return messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
}

/** The direction (unit x/y) that points toward the robot base, read from the axes sentence; undefined if not stated. */
export function towardRobot(axes: string | undefined): [number, number] | undefined {
  if (!axes) return undefined;
  const away = /\b([xy])\b[^,;.]*?\baway from the (?:robot|base)/i.exec(axes)?.[1]?.toLowerCase();
  if (away) return away === 'x' ? [-1, 0] : [0, -1];
  const toward = /\b([xy])\b[^,;.]*?\btowards? the (?:robot|base)/i.exec(axes)?.[1]?.toLowerCase();
  if (toward) return toward === 'x' ? [1, 0] : [0, 1];
  return undefined;
}

// The structured state a household simulator (the embedded one, or an AI2-THOR adapter over the protocol) reports
// in `WorldState.extra.household`, and the per-object `props`. LLaMAR renders its roles' text from this, and the
// floor-plan, step and subtask views read it from the trace. Depends on zod only.
import * as z from 'zod';

/** Compass heading of an agent (north = +y). */
export const Heading = z.enum(['north', 'east', 'south', 'west']);
export type Heading = z.infer<typeof Heading>;

/** One agent's pose and view, as the household reports it. */
export const HouseholdAgent = z.object({
  /** Grid cell [row, col] (embedded simulator; adapters may omit it). */
  cell: z.tuple([z.number().int(), z.number().int()]).optional(),
  heading: Heading,
  /** Camera pitch in degrees, positive looking down (AI2-THOR's horizon). */
  horizonDeg: z.number(),
  /** Label (e.g. "Tomato_1") of the held object, or null. */
  holding: z.string().nullable(),
  /** Labels of the objects this agent sees now, in the simulator's order. */
  visible: z.array(z.string()),
});
export type HouseholdAgent = z.infer<typeof HouseholdAgent>;

export const Room = z.object({
  name: z.string(),
  /** Inclusive cell rectangle [row0, col0, row1, col1]. */
  rect: z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]),
});

/** Static floor plan for top-down views: one character per grid cell (see docs/household.md for the legend). */
export const FloorPlan = z.object({
  id: z.string(),
  label: z.string(),
  /** Edge of one grid cell in metres (0.25, as AI2-THOR's gridSize in LLaMAR). */
  cellM: z.number().positive(),
  rows: z.array(z.string()),
  rooms: z.array(Room),
  legend: z.record(z.string(), z.string()),
});
export type FloorPlan = z.infer<typeof FloorPlan>;

/** One subtask of the task's checker (ground truth, never shown to the agents). */
export const CheckerSubtask = z.object({
  id: z.string(),
  /** e.g. "PutObject(Fridge, Tomato)" as the authors' checker names it. */
  text: z.string(),
  done: z.boolean(),
  /** Agent whose action completed it. */
  by: z.string().optional(),
  /** High-level step at which it was completed. */
  step: z.number().int().optional(),
});
export type CheckerSubtask = z.infer<typeof CheckerSubtask>;

export const CheckerState = z.object({
  subtasks: z.array(CheckerSubtask),
  /** Objects (type, numbered per instance) whose successful interaction counts for coverage. */
  coverageTotal: z.array(z.string()),
  coverageDone: z.array(z.string()),
  success: z.boolean(),
});
export type CheckerState = z.infer<typeof CheckerState>;

/** `WorldState.extra.household`. The whole-scene observation has every field; an agent's view has `agent`. */
export const HouseholdExtra = z.object({
  /** Set on one agent's partial view. */
  agent: z.string().optional(),
  agents: z.record(z.string(), HouseholdAgent),
  /** Labels the team has discovered, in discovery order, with the object each names (LLaMAR's object_dict). */
  known: z.array(z.object({ label: z.string(), object: z.string() })),
  /** High-level steps the simulator has run since reset. */
  step: z.number().int().nonnegative(),
  plan: FloorPlan.optional(),
  /** Objects each agent has seen since reset (object names). Whole scene only. */
  seenBy: z.record(z.string(), z.array(z.string())).optional(),
  /** Cells [row, col] each agent passed through in the last step (in order, start included). Whole scene only. */
  paths: z.record(z.string(), z.array(z.tuple([z.number().int(), z.number().int()]))).optional(),
  /** Room lights (room name -> on). */
  lights: z.record(z.string(), z.boolean()).optional(),
  /** The task's checker (ground truth). Whole scene only. */
  checker: CheckerState.optional(),
});
export type HouseholdExtra = z.infer<typeof HouseholdExtra>;

/** `ObjectState.props` of a household object. */
export const HouseholdObjectProps = z.looseObject({
  type: z.string(),
  /** The agents' name for it ("Tomato_1"), or null before anyone has seen it. */
  label: z.string().nullable(),
  /** Object name of the receptacle it is in or on, the agent holding it, or "Floor". */
  parent: z.string(),
  room: z.string().optional(),
  cells: z.array(z.tuple([z.number().int(), z.number().int()])).optional(),
  receptacle: z.boolean().optional(),
  pickupable: z.boolean().optional(),
  isOpen: z.boolean().optional(),
  isToggled: z.boolean().optional(),
  isSliced: z.boolean().optional(),
  isDirty: z.boolean().optional(),
  isCooked: z.boolean().optional(),
  filledWith: z.string().nullable().optional(),
});
export type HouseholdObjectProps = z.infer<typeof HouseholdObjectProps>;

/**
 * Simulated seconds of one high-level step. The household is symbolic (no continuous time), so its clock is a step
 * count; this nominal duration puts its steps on a time axis (sim time in the trace, MCAP timestamps).
 */
export const HOUSEHOLD_STEP_SECS = 1;

/** Reads `extra.household` from a state, or undefined when it is absent or malformed. */
export function householdOf(extra: Record<string, unknown> | undefined): HouseholdExtra | undefined {
  const r = HouseholdExtra.safeParse(extra?.household);
  return r.success ? r.data : undefined;
}

/** LLaMAR's agent names, in order (the paper's prompts use Alice and Bob; the released code continues the list). */
export const HOUSEHOLD_AGENT_NAMES = ['Alice', 'Bob', 'Charlie', 'David', 'Emma'] as const;

// Every task the embedded tabletop simulator knows, keyed by id. Adding a task = one definition file plus
// one line here; test/unit/core/sim/taskRegistry.test.ts checks ids, metadata and that each scene compiles.
import type { TaskInfo } from '../../simulator.js';
import { stackBlocksTask } from './stackBlocks.js';
import type { TaskDefinition } from './taskDefinition.js';

const DEFINITIONS: TaskDefinition[] = [stackBlocksTask(3), stackBlocksTask(2), stackBlocksTask(4)];

export const TASKS: ReadonlyMap<string, TaskDefinition> = new Map(DEFINITIONS.map((t) => [t.info.id, t]));

/** Canonical task ids in listing order. */
export const TASK_IDS: readonly string[] = DEFINITIONS.map((t) => t.info.id);

export function getTask(id: string): TaskDefinition {
  const t = TASKS.get(id);
  if (!t) throw new Error(`unknown task '${id}'; known tasks: ${TASK_IDS.join(', ')}`);
  return t;
}

/** Handler-free metadata, for listings and pickers. */
export function taskInfos(): TaskInfo[] {
  return DEFINITIONS.map((t) => ({ ...t.info }));
}

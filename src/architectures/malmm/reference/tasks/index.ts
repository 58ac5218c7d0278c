// The task families the MALMM policies know, tried in order (the more specific sentence shapes first).
import type { Scene } from '../scene.js';
import { button } from './button.js';
import { drawer } from './drawer.js';
import { hoop } from './hoop.js';
import { lifting } from './lifting.js';
import { closing, emptying, putting, sorting } from './placing.js';
import { stacking } from './stacking.js';
import { uncapping } from './uncapping.js';
import type { TaskFamily, TaskModel } from './types.js';

export const TASK_FAMILIES: readonly TaskFamily[] = [sorting, emptying, hoop, uncapping, closing, lifting, drawer, button, stacking, putting];

/** The first family that reads the sentence: its model, or why it cannot be done; undefined when none reads it. */
export function readTask(sentence: string, initial: Scene): TaskModel | string | undefined {
  for (const f of TASK_FAMILIES) {
    const r = f.read(sentence, initial);
    if (r !== undefined) return r;
  }
  return undefined;
}

export type { Goal, TaskFamily, TaskModel, TaskView } from './types.js';

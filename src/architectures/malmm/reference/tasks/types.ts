// A task family turns a task sentence into goals the MALMM roles can plan for. Each family reads the sentence and
// the first state as a model would (names matched by words, not ids) and, for any later scene, says which goals are
// done and what the next one needs. Families are tried in the order of ./index.ts; issue 8's paper tasks add
// theirs the same way.
import type { Action, Motion } from '../motion.js';
import type { Scene } from '../scene.js';

export interface TaskView {
  scene: Scene;
  initial: Scene;
  /** Objects pressed by a block that ran (read from the chat, or imagined). */
  pressed: ReadonlySet<string>;
  motion: Motion;
}

export interface Goal {
  /** "put the red block on the green block" */
  label: string;
  done: boolean;
  action: Action;
}

export interface TaskModel {
  family: string;
  goals(view: TaskView): Goal[];
}

export interface TaskFamily {
  id: string;
  /** A model of the task, an explanation of why it cannot be solved (a name that matches nothing), or undefined when the sentence is not this family's. */
  read(sentence: string, initial: Scene): TaskModel | string | undefined;
}


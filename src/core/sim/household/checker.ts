// The task checker, in the spirit of MAP-THOR's: subtasks are predicates on successful actions (NavigateTo(X),
// PickupObject(X), PutObject(R, X) while holding X, ...), checked after every agent's action. A successful
// interaction also credits the NavigateTo before it (the agent happened to be close enough), as the released
// checker does. Transport rate = completed / all subtasks; success = all completed; coverage = the task's objects
// that were the target of a successful action (the paper's "successful interactions"; the released code counts
// any mention). Each completed subtask is credited to the agent whose action completed it (Balance).
import type { CheckerState } from '../../../protocol/household.js';
import { subtaskText, type Selector, type SubtaskSpec } from './tasks.js';
import type { World } from './world.js';

export interface CheckedAction {
  agent: string;
  /** Canonical action name (NavigateTo, Pickup, Put, Open, ...). */
  name: string;
  /** Target object id. */
  target?: string;
  ok: boolean;
  /** Object id the agent held before the action. */
  heldBefore: string | null;
}

function matches(world: World, sel: Selector, id: string | null | undefined): boolean {
  if (!id) return false;
  if ('id' in sel) return sel.id === id;
  const o = world.obj(id);
  return o !== undefined && sel.types.includes(o.type);
}

function holds(s: SubtaskSpec, world: World, a: CheckedAction, act: string): boolean {
  if (s.act !== act) return false;
  if (s.kind === 'act') {
    if (!matches(world, s.obj, a.target)) return false;
    if (s.contains) {
      const rec = a.target!;
      return world.data.objects.some((o) => matches(world, s.contains!, o.id) && o.parent === rec);
    }
    return true;
  }
  return matches(world, s.rec, a.target) && matches(world, s.held, a.heldBefore);
}

/** Records the action's effect on the checker (call after the simulator applied it). */
export function checkAction(world: World, a: CheckedAction): void {
  if (!a.ok || !a.target) return;
  const c = world.data.checker;
  const credit = (act: string) => {
    c.spec.subtasks.forEach((s, i) => {
      const st = c.state[i]!;
      if (!st.done && holds(s, world, a, act)) {
        st.done = true;
        st.by = a.agent;
        st.step = world.data.step;
      }
    });
  };
  credit(a.name);
  if (a.name !== 'NavigateTo') credit('NavigateTo');
  if (c.spec.coverage.includes(a.target) && !c.coverageDone.includes(a.target)) c.coverageDone.push(a.target);
}

/** How the checker names an object in its subtasks now: the team's label once seen (see `subtaskText`). */
function checkerName(world: World, id: string): string {
  const label = world.labelOf(id);
  if (label) return label;
  const type = world.obj(id)?.type;
  return type && world.data.objects.filter((o) => o.type === type).length === 1 ? type : id;
}

export function checkerState(world: World): CheckerState {
  const c = world.data.checker;
  return {
    subtasks: c.state.map((s, i) => ({ ...s, text: subtaskText(c.spec.subtasks[i]?.text ?? s.text, (id) => checkerName(world, id)) })),
    coverageTotal: [...c.spec.coverage],
    coverageDone: [...c.coverageDone],
    success: c.state.length > 0 && c.state.every((s) => s.done),
  };
}

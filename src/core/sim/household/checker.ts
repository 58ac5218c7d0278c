// The task checker, in the spirit of MAP-THOR's: subtasks are predicates on successful actions (NavigateTo(X),
// PickupObject(X), PutObject(R, X) while holding X, ...), checked after every agent's action. A successful
// interaction also credits the NavigateTo before it (the agent happened to be close enough), as the released
// checker does. Transport rate = completed / all subtasks; success = all completed; coverage = the task's objects
// that were the target of a successful action (the paper's "successful interactions"; the released code counts
// any mention), where a coverage entry is an object id or a type name (any object of the type, as the released
// checkers list them). Each completed subtask is credited to the agent whose action completed it (Balance).
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
      return s.contains.every((sel) => world.data.objects.some((o) => !o.gone && matches(world, sel, o.id) && o.parent === rec));
    }
    return true;
  }
  if (!matches(world, s.rec, a.target) || !matches(world, s.held, a.heldBefore)) return false;
  if (s.near && act === 'Put') {
    // "Next to the door": where the put object lies now, within the distance of an object of the named types.
    const put = world.obj(a.heldBefore!)!;
    const at = world.cellsOf(put);
    const marks = world.data.objects.filter((o) => s.near!.types.includes(o.type)).flatMap((o) => world.cellsOf(o));
    return at.some((c) => marks.some((m) => world.grid.distM(c, m) <= s.near!.withinM + 1e-9));
  }
  return true;
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
  const type = world.obj(a.target)?.type;
  for (const entry of c.spec.coverage) {
    const hit = entry === a.target || (!entry.includes('|') && entry === type);
    if (hit && !c.coverageDone.includes(entry)) c.coverageDone.push(entry);
  }
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

// Where things stood before the robot first moved: a monitor that keeps every object's first sampled pose (the
// 50 Hz grid starts with the first motion, so the first sample is the seeded layout). Checks of relative goals
// ("the left bottle", "move the pan to the left", "the lonely object") read it; doing nothing leaves it empty.
import type { Vec3 } from '../../scene/sceneSpec.js';
import type { Quat } from '../../simState.js';
import type { TaskMonitor, TaskView } from '../taskDefinition.js';

export interface StartPoses {
  start?: Record<string, { pos: Vec3; quat: Quat }>;
}

/** Records the first sample's poses; `extra` (optional) samples too and its state is merged under `extra`. */
export function startPosesMonitor(extra?: TaskMonitor): TaskMonitor {
  let start: StartPoses['start'];
  return {
    sample(view) {
      if (!start) start = Object.fromEntries(view.objects.map((o) => [o.name, { pos: [...o.pos] as Vec3, quat: [...o.quat] as Quat }]));
      extra?.sample(view);
    },
    state: () => ({ ...(start ? { start } : {}), ...(extra ? { extra: extra.state() } : {}) }),
    load(s) {
      const v = (s ?? {}) as StartPoses & { extra?: unknown };
      start = v.start;
      if (extra) extra.load(v.extra);
    },
  };
}

/** The recorded start poses, or undefined when the robot never moved. */
export function startPoses(view: TaskView): Record<string, { pos: Vec3; quat: Quat }> | undefined {
  return (view.monitor as StartPoses | undefined)?.start;
}

/** How far an object's centre moved since the start (horizontal), 0 when nothing moved. */
export function movedFromStart(view: TaskView, name: string): number {
  const s = startPoses(view)?.[name];
  const o = view.objects.find((x) => x.name === name);
  if (!s || !o) return 0;
  return Math.hypot(o.pos[0] - s.pos[0], o.pos[1] - s.pos[1]);
}

/** Height of the object's bottom above the table top (upright objects). */
export function heightAboveTable(view: TaskView, name: string): number {
  const o = view.objects.find((x) => x.name === name)!;
  return o.pos[2] - o.size[2] / 2 - view.tableTopZ;
}

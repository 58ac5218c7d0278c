// push_button (RLBench push_button): press a spring-loaded button. Success: the cap went down at least 8 mm at
// some point of the episode (a monitor keeps the deepest press, since the spring pushes the cap back up).
import { pushButton } from '../sceneObjects.js';
import { verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition, TaskMonitor } from '../taskDefinition.js';

export const PRESS_DEPTH_M = 0.008;

function pressMonitor(cap: string): TaskMonitor {
  let deepest = 0;
  return {
    sample(view) {
      deepest = Math.max(deepest, view.objects.find((o) => o.name === cap)?.slideM ?? 0);
    },
    state: () => ({ deepestM: deepest }),
    load(s) {
      deepest = Number((s as { deepestM?: number }).deepestM ?? 0);
    },
  };
}

export function pushButtonTask(): TaskDefinition {
  const [housing, cap] = pushButton('button', 'red');
  const objects = [housing!, cap!];
  return {
    info: {
      id: 'push_button',
      description: 'Press a spring-loaded red button (15 mm travel) at least 8 mm down.',
      instruction: 'Push the button.',
      suite: 'single-arm',
      arms: 1,
      imitates: 'RLBench push_button',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    apis: ['malmm', 'lmtg'],
    scene: singleArmScene('push-button', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      l.scatter(housing!, { x: [-0.2, 0.2], y: [0.02, 0.3] }, { yawRange: [-Math.PI / 4, Math.PI / 4] });
      l.slide(cap!);
      return l.placements(objects);
    },
    monitor: () => pressMonitor(cap!.name),
    check(view) {
      const deepest = Number((view.monitor as { deepestM?: number } | undefined)?.deepestM ?? 0);
      return verdict('push_button', deepest >= PRESS_DEPTH_M ? [] : [`the button went down ${(deepest * 1000).toFixed(1)} mm at most (needs ${PRESS_DEPTH_M * 1000} mm)`], `the button was pressed ${(deepest * 1000).toFixed(1)} mm`);
    },
  };
}

// close_jar (RLBench close_jar, as in MALMM): two open jars of different colours and a lid on the table; the
// seed's variation names the jar to close. Success: the lid rests on that jar's rim (centres within 1.5 cm in xy,
// the lid's bottom within 1 cm of the rim), level, released.
import { atRest, find, held, tiltOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { cup, cylinder } from '../sceneObjects.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';

const JAR_RADIUS_M = 0.03;
const JAR_HEIGHT_M = 0.08;
const LID_RADIUS_M = 0.036;
// Thick enough that pads closing at its centre stay clear of the table (they reach 14 mm below the tool point).
const LID_HEIGHT_M = 0.032;
const JAR_COLORS = ['red', 'blue', 'green', 'yellow'] as const;

export function closeJarTask(): TaskDefinition {
  const jars = JAR_COLORS.map((c) => ({ ...cup(`${c} jar`, c, JAR_RADIUS_M, JAR_HEIGHT_M, 0.2), mount: { kind: 'fixed' as const } }));
  const lid = cylinder('lid', 'grey', LID_RADIUS_M, LID_HEIGHT_M, 0.05);
  const objects = [...jars, lid];
  return {
    info: {
      id: 'close_jar',
      description: 'Four open jars of different colours and a lid; the seed names the jar the lid goes on.',
      instruction: 'Close the red jar with a lid.',
      suite: 'single-arm',
      arms: 1,
      imitates: 'MALMM / RLBench close_jar',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'malmm',
    scene: singleArmScene('close-jar', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      for (const o of [...jars, lid]) l.scatter(o, { x: [-0.24, 0.24], y: [0.0, 0.3] }, { gapM: 0.05, yawRange: [-Math.PI, Math.PI] });
      return l.placements(objects);
    },
    goal(rng) {
      const color = JAR_COLORS[Math.min(JAR_COLORS.length - 1, Math.floor(rng.next() * JAR_COLORS.length))]!;
      // MALMM's wording (Table IV, "Close the colored jar with a lid."): how to close it is the agents' to work out.
      return { instruction: `Close the ${color} jar with a lid.`, params: { jar: `${color} jar` } };
    },
    check(view) {
      const jarName = (view.goal?.params.jar as string | undefined) ?? 'red jar';
      const j = find(view, jarName);
      const d = find(view, lid.name);
      const rim = j.pos[2] + JAR_HEIGHT_M / 2;
      const off = Math.hypot(d.pos[0] - j.pos[0], d.pos[1] - j.pos[1]);
      const problems: string[] = [];
      if (held(view).length > 0) problems.push(`${held(view).join(', ')} still grasped`);
      if (off > 0.015) problems.push(`the lid is ${(off * 100).toFixed(1)} cm from the ${jarName}'s axis`);
      else if (Math.abs(d.pos[2] - LID_HEIGHT_M / 2 - rim) > 0.01) problems.push(`the lid is not on the ${jarName}'s rim (its bottom at z ${(d.pos[2] - LID_HEIGHT_M / 2).toFixed(3)}, rim at ${rim.toFixed(3)})`);
      if (tiltOf(d) > 0.2) problems.push('the lid is tilted');
      if (!atRest(d)) problems.push('the lid is still moving');
      return verdict('close_jar', problems, `the lid rests on the ${jarName}`);
    },
  };
}

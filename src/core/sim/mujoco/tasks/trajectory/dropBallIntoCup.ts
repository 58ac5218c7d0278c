// drop_ball_into_cup (LM Trajectory Generators: "drop the ball into the cup", a task of the authors' simulated
// release, [repo] assets; whether it is among the paper's 30 the text does not say): a 5 cm ball and a 10 cm cup on
// the table. As the paper's judge reads the tracks: the ball ends inside the cup. Success: the ball rests inside the
// cup (within its walls, below its rim), released; the cup stands.
import { cup, sphere } from '../sceneObjects.js';
import { atRest, find, held, inside, tiltOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';

const WALL_M = 0.005;

export function dropBallIntoCupTask(): TaskDefinition {
  const ball = sphere('ball', 'orange', 0.025, 0.05);
  const c = cup('cup', 'blue', 0.05, 0.09, 0.2, WALL_M);
  const objects = [ball, c];
  return {
    info: {
      id: 'drop_ball_into_cup',
      description: 'Drop a 5 cm ball into a 10 cm cup.',
      instruction: 'drop the ball into the cup',
      suite: 'trajectory',
      arms: 1,
      imitates: "LM Trajectory Generators: drop the ball into the cup (the authors' simulated task)",
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg'],
    scene: singleArmScene('drop-ball-into-cup', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      l.scatter(c, { x: [-0.18, 0.18], y: [0.05, 0.25] });
      l.scatter(ball, { x: [-0.22, 0.22], y: [0.0, 0.26] }, { gapM: 0.06 });
      return l.placements(objects);
    },
    check(view) {
      const b = find(view, ball.name);
      const k = find(view, c.name);
      const problems: string[] = [];
      if (held(view).includes(ball.name)) problems.push('the ball is still held');
      if (!inside(b, k, WALL_M)) problems.push('the ball is not in the cup');
      if (tiltOf(k) > 0.3) problems.push('the cup fell over');
      if (!atRest(b)) problems.push('the ball is still moving');
      return verdict('drop_ball_into_cup', problems, 'the ball lies in the cup');
    },
  };
}

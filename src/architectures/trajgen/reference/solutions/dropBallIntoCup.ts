// drop_ball_into_cup: grasp the ball at its centre, carry it over the cup and open with its bottom 3 cm above the rim
// so it drops in. Flaws as carryInto's.
import { carryInto } from './carryInto.js';

export const dropBallIntoCup = carryInto('drop_ball_into_cup', 'ball', 'cup', (i) => /\bball\b/i.test(i) && /\bcup\b/i.test(i), 0.03);

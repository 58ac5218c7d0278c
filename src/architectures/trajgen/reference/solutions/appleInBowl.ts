// apple_in_bowl: grasp the apple at its centre, carry it over the bowl, lower it just inside (1 cm over the rim) and
// release. Flaws as carryInto's.
import { carryInto } from './carryInto.js';

export const appleInBowl = carryInto('apple_in_bowl', 'apple', 'bowl', (i) => /apple/i.test(i) && /bowl/i.test(i), 0.01);

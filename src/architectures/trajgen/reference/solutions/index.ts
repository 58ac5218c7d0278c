// Every trajectory task's scripted solution (one file per task); the main-prompt policy picks one by instruction.
import { drawShapeSolution } from './drawShape.js';
import { knockOverCanSolution } from './knockOverCan.js';
import { pushCanSolution } from './pushCan.js';
import { shakeBottleSolution } from './shakeBottle.js';
import { alignBottle } from './alignBottle.js';
import { appleInBowl } from './appleInBowl.js';
import { drawStar } from './drawStar.js';
import { drawCircle } from './drawCircle.js';
import { pickRightmostCan } from './pickRightmostCan.js';
import { dropBallIntoCup } from './dropBallIntoCup.js';
import { moveBananaNearPear } from './moveBananaNearPear.js';
import { graspBowlRim } from './graspBowlRim.js';
import { knockOverLeftBottle } from './knockOverLeftBottle.js';
import { moveLonelyObject } from './moveLonelyObject.js';
import { movePanLeft } from './movePanLeft.js';
import { openBottleCap } from './openBottleCap.js';
import { pickChipBag } from './pickChipBag.js';
import { pickMiddleFruit } from './pickMiddleFruit.js';
import { toasterSlot } from './toasterSlot.js';
import type { TrajgenSolution } from './types.js';
import { wipePlateSolution } from './wipePlate.js';

export const TRAJGEN_SOLUTIONS: TrajgenSolution[] = [
  // The five trajectory tasks that came first.
  drawShapeSolution,
  wipePlateSolution,
  shakeBottleSolution,
  pushCanSolution,
  knockOverCanSolution,
  // Issue 12's recovered tasks.
  pickChipBag,
  pickMiddleFruit,
  appleInBowl,
  graspBowlRim,
  knockOverLeftBottle,
  moveLonelyObject,
  movePanLeft,
  alignBottle,
  drawStar,
  openBottleCap,
  toasterSlot,
  // Issue 25: the rest of the tasks the paper or its authors' repository word.
  drawCircle,
  pickRightmostCan,
  dropBallIntoCup,
  moveBananaNearPear,
];

export function solutionFor(instruction: string): TrajgenSolution | undefined {
  return TRAJGEN_SOLUTIONS.find((s) => s.matches(instruction));
}

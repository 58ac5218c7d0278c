// Every trajectory task's scripted solution (one file per task); the main-prompt policy picks one by instruction.
import { drawShapeSolution } from './drawShape.js';
import { knockOverCanSolution } from './knockOverCan.js';
import { pushCanSolution } from './pushCan.js';
import { shakeBottleSolution } from './shakeBottle.js';
import type { TrajgenSolution } from './types.js';
import { wipePlateSolution } from './wipePlate.js';

export const TRAJGEN_SOLUTIONS: TrajgenSolution[] = [drawShapeSolution, wipePlateSolution, shakeBottleSolution, pushCanSolution, knockOverCanSolution];

export function solutionFor(instruction: string): TrajgenSolution | undefined {
  return TRAJGEN_SOLUTIONS.find((s) => s.matches(instruction));
}

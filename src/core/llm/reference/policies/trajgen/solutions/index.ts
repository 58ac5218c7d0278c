// Every trajectory task's scripted solution (one file per task); the main-prompt policy picks one by instruction.
import type { TrajgenSolution } from './types.js';

export const TRAJGEN_SOLUTIONS: TrajgenSolution[] = [];

export function solutionFor(instruction: string): TrajgenSolution | undefined {
  return TRAJGEN_SOLUTIONS.find((s) => s.matches(instruction));
}

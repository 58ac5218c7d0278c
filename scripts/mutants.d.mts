// Types of scripts/mutants.mjs for the TypeScript tests that import it.
export interface Mutant {
  id: string;
  folder: string;
  file: string;
  search: string;
  replace: string;
  tests: string[];
  what: string;
  issue?: number;
}
export const MUTANTS: Mutant[];
export function listProblems(mutants: readonly Mutant[], root: string): string[];

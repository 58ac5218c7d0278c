// Architectures by id: all the engine, the debugger, the sweep and the language server know of architectures. A
// host (CLI, extension, language server, debug adapter, run and sweep workers, tests) builds one and passes it in;
// src/architectures/registry.ts holds the built-in five, and `register` adds another (a workspace's own). Nothing
// in src/core imports an architecture (test/unit/architecture/imports.test.ts).
import { getApiFamily } from '../apis/catalog.js';
import type { ApiFunctionSpec } from '../sim/simulator.js';
import { manifestProblems } from './limits.js';
import type { ArchitectureDefinition, ArchitectureManifest } from './types.js';

/** What readers need: manifests only (the language server, `waypoint archs`) or whole definitions (runs). */
export interface Architectures<A extends ArchitectureManifest = ArchitectureDefinition> {
  /** The architecture with this id, or undefined. */
  find(id: string): A | undefined;
  /** The architecture with this id, its declarations checked; an unknown id throws naming the known ones. */
  get(id: string): A;
  /** Ids in the order they were registered. */
  ids(): string[];
  list(): A[];
  /** The robot functions its prompts and code see (its API family in the catalog); undefined for an unknown id. */
  apiFunctions(id: string): readonly ApiFunctionSpec[] | undefined;
}

export class ArchitectureRegistry<A extends ArchitectureManifest = ArchitectureDefinition> implements Architectures<A> {
  readonly #byId = new Map<string, A>();

  constructor(architectures: Iterable<A> = []) {
    for (const a of architectures) this.register(a);
  }

  /** Adds an architecture; an id already taken is refused (a second one would shadow it silently). */
  register(a: A): void {
    if (this.#byId.has(a.id)) throw new Error(`architecture '${a.id}' is already registered`);
    this.#byId.set(a.id, a);
  }

  /** Takes an architecture out (a workspace's own, before it is loaded again); false when it was not there. */
  unregister(id: string): boolean {
    return this.#byId.delete(id);
  }

  find(id: string): A | undefined {
    return this.#byId.get(id);
  }

  get(id: string): A {
    const a = this.#byId.get(id);
    if (!a) throw new Error(`unknown architecture '${id}'; known: ${this.ids().sort().join(', ')}`);
    const problems = manifestProblems(a);
    if (problems.length > 0) throw new Error(problems.join('; '));
    return a;
  }

  ids(): string[] {
    return [...this.#byId.keys()];
  }

  list(): A[] {
    return [...this.#byId.values()];
  }

  apiFunctions(id: string): readonly ApiFunctionSpec[] | undefined {
    const a = this.#byId.get(id);
    return a ? getApiFamily(a.api).functions : undefined;
  }
}

// What discovery checks a tests file against: the architectures (from the manifests, not the loops), each one's
// tasks, default task, variants and limits. Built once from the registries; tests hand in a small literal one.
import { architectureManifests } from '../../architectures/manifests.js';
import { householdTasks } from '../../core/sim/household/index.js';
import { taskCatalog } from '../../core/sim/mujoco/tasks/registry.js';

export interface ArchEntry {
  id: string;
  label: string;
  /** Task ids this architecture's robot API can run, the default first. */
  tasks: readonly string[];
  /** Built-in variant names (the workspace's variants file adds its own). */
  builtInVariants: readonly string[];
  /** Limit ids the architecture declares. */
  limits: readonly string[];
  /** Roles and their prompt file names (which prompt files an architecture uses). */
  roles: readonly { id: string; promptFile: string }[];
  /** LLaMAR's household tasks also take `<task>@<floor plan>`. */
  planSuffix?: boolean;
}

export interface TestCatalog {
  archs: ReadonlyMap<string, ArchEntry>;
}

/** The catalog and the manifests it was built from (workspace architectures come and go). */
let cached: { catalog: TestCatalog; from: readonly unknown[] } | undefined;

/**
 * The default task of an architecture: the first task of its simulator whose own robot API is the architecture's
 * (stack_blocks for MALMM, sort_cubes for RoCo, ...), the household's first task for LLaMAR.
 */
export function testCatalog(): TestCatalog {
  const manifests = architectureManifests.list();
  if (cached && cached.from.length === manifests.length && cached.from.every((m, i) => m === manifests[i])) return cached.catalog;
  const tabletop = taskCatalog();
  const household = householdTasks().map((t) => t.id);
  const archs = new Map<string, ArchEntry>();
  for (const m of manifests) {
    const tasks = m.simulator === 'household' ? household : [...tabletop.filter((t) => t.defaultApi === m.api), ...tabletop.filter((t) => t.defaultApi !== m.api && t.apis.includes(m.api))].map((t) => t.id);
    archs.set(m.id, {
      id: m.id,
      label: m.label,
      tasks,
      builtInVariants: Object.keys(m.builtInVariants),
      limits: m.limits.map((l) => l.id),
      roles: m.roles.map((r) => ({ id: r.id, promptFile: r.promptFile })),
      ...(m.simulator === 'household' ? { planSuffix: true } : {}),
    });
  }
  cached = { catalog: { archs }, from: manifests };
  return cached.catalog;
}

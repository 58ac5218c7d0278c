// Test discovery (pure): the episodes the Testing view lists, from `.waypoint/tests.yaml`, from the workspace's
// sweep files (`*.sweep.yaml`), or, when there is neither, a default set (each architecture's default task, seed 0,
// the reference model). Unknown architectures, tasks, variants and limits are problems on their own line; the rest
// of the file still yields its tests. The tree is architecture -> task -> seed (-> variant where the file lists
// variants), with stable ids so VS Code keeps each test's state across reloads.
import type { TestCatalog } from './catalog.js';
import { parseTestsFile, seedList, yamlLineIndex, type FileProblem, type LineIndex } from './testsFile.js';

export interface TestCase {
  /** Stable: architecture/task/seed[@model][/cell]. */
  id: string;
  arch: string;
  task: string;
  seed: number;
  /** Variant to run; undefined: the workspace's active one. */
  variant?: string;
  /** Leaf label when the source lists variants (a sweep cell's name, else the variant). */
  cell?: string;
  /** A sweep cell's switches laid over its variant. */
  ablations?: Record<string, boolean>;
  /** reference | reference-flawed | openai:<name> | settings. */
  model: string;
  baseUrl?: string;
  limits?: Record<string, number | boolean>;
  /** The file and 1-based line the test comes from (none for the default set). */
  source?: { file: string; line: number };
}

/** A sweep file as its parser returns it (core/sweep/spec.ts), reduced to what a test needs. */
export interface SweepLike {
  arch: string;
  tasks: string[];
  variants: (string | { name?: string; variant: string; ablations?: Record<string, boolean> })[];
  seeds: number | number[] | { from: number; count: number };
  model: { name: string; baseUrl?: string };
  limits?: Record<string, number | string | boolean>;
}

export interface DiscoveryInput {
  catalog: TestCatalog;
  /** The tests file, when the workspace has one. */
  testsFile?: { path: string; text: string };
  sweeps: { path: string; text: string }[];
  /** Parses a sweep file (throws an Error whose message starts `<file>:<line>: `). */
  parseSweep?: (text: string, file: string) => SweepLike;
  /** Variant names of the workspace's variants file. */
  workspaceVariants: readonly string[];
}

export interface Discovery {
  cases: TestCase[];
  problems: FileProblem[];
  /** True when neither a tests file nor a sweep file gave the tests. */
  isDefaultSet: boolean;
}

const REFERENCE = 'reference';

export function caseId(c: Pick<TestCase, 'arch' | 'task' | 'seed' | 'model' | 'cell'>): string {
  return `${seedNodeId(c)}${c.cell !== undefined ? `/${c.cell}` : ''}`;
}

function seedNodeId(c: Pick<TestCase, 'arch' | 'task' | 'seed' | 'model'>): string {
  return `${c.arch}/${c.task}/s${c.seed}${c.model !== REFERENCE ? `@${c.model}` : ''}`;
}

function knownTask(arch: { tasks: readonly string[]; planSuffix?: boolean }, task: string): boolean {
  return arch.tasks.includes(task) || (arch.planSuffix === true && arch.tasks.includes(task.split('@')[0]!));
}

/** Checks one entry's ids against the catalog, adding a problem (on its own line) for each unknown one. */
function checkEntry(
  e: { arch: string; tasks: string[]; variants: string[]; limits: string[] },
  at: { arch: number; task: (i: number) => number; variant: (i: number) => number; limit: (id: string) => number },
  input: DiscoveryInput,
  file: string,
  problems: FileProblem[],
): { okTasks: Set<string>; okVariants: Set<string> } | undefined {
  const arch = input.catalog.archs.get(e.arch);
  if (!arch) {
    problems.push({ file, line: at.arch, message: `unknown architecture '${e.arch}'; known: ${[...input.catalog.archs.keys()].sort().join(', ')}` });
    return undefined;
  }
  const okTasks = new Set<string>();
  e.tasks.forEach((t, i) => {
    if (knownTask(arch, t)) okTasks.add(t);
    else problems.push({ file, line: at.task(i), message: `unknown task '${t}' for ${arch.id}; known: ${arch.tasks.slice(0, 12).join(', ')}${arch.tasks.length > 12 ? ', …' : ''}` });
  });
  const variants = new Set(['default', ...arch.builtInVariants, ...input.workspaceVariants]);
  const okVariants = new Set<string>();
  e.variants.forEach((v, i) => {
    if (variants.has(v)) okVariants.add(v);
    else problems.push({ file, line: at.variant(i), message: `unknown variant '${v}' for ${arch.id}; known: ${[...variants].sort().join(', ')}` });
  });
  for (const id of e.limits) if (!arch.limits.includes(id)) problems.push({ file, line: at.limit(id), message: `unknown limit '${id}' for ${arch.id}; known: ${arch.limits.join(', ')}` });
  return { okTasks, okVariants };
}

function fromTestsFile(input: DiscoveryInput, problems: FileProblem[]): TestCase[] {
  const { path: file, text } = input.testsFile!;
  const parsed = parseTestsFile(text, file);
  if (parsed.problem || !parsed.value) {
    problems.push(parsed.problem!);
    return [];
  }
  const tf = parsed.value;
  const L = (p: (string | number)[], fallback: number) => parsed.lines.lineOf(p) ?? fallback;
  const out: TestCase[] = [];
  tf.tests.forEach((entry, i) => {
    const base = ['tests', i];
    const entryLine = L(base, 1);
    const arch = input.catalog.archs.get(entry.architecture);
    const tasks = entry.tasks ?? (arch?.tasks[0] !== undefined ? [arch.tasks[0]] : []);
    const limits = { ...tf.limits, ...entry.limits };
    const ok = checkEntry(
      { arch: entry.architecture, tasks, variants: entry.variants ?? [], limits: Object.keys(limits) },
      {
        arch: L([...base, 'architecture'], entryLine),
        task: (j) => L([...base, 'tasks', j], entryLine),
        variant: (j) => L([...base, 'variants', j], entryLine),
        limit: (id) => L([...base, 'limits', id], L(['limits', id], entryLine)),
      },
      input,
      file,
      problems,
    );
    if (!ok) return;
    const model = entry.model ?? tf.model;
    const baseUrl = entry.baseUrl ?? tf.baseUrl;
    for (const task of tasks.filter((t) => ok.okTasks.has(t))) {
      for (const seed of seedList(entry.seeds)) {
        const cells: (string | undefined)[] = entry.variants ? entry.variants.filter((v) => ok.okVariants.has(v)) : [undefined];
        for (const v of cells) {
          const c: TestCase = {
            id: '',
            arch: entry.architecture,
            task,
            seed,
            ...(v !== undefined ? { variant: v, cell: v } : {}),
            model,
            ...(baseUrl ? { baseUrl } : {}),
            ...(Object.keys(limits).length ? { limits } : {}),
            source: { file, line: entryLine },
          };
          c.id = caseId(c);
          out.push(c);
        }
      }
    }
  });
  return out;
}

function fromSweep(sweep: { path: string; text: string }, input: DiscoveryInput, problems: FileProblem[], lines: LineIndex): TestCase[] {
  const file = sweep.path;
  let spec: SweepLike;
  try {
    spec = input.parseSweep!(sweep.text, file);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const m = /^.*?:(\d+): (.*)$/s.exec(message);
    problems.push({ file, line: m ? Number(m[1]) : 1, message: m ? m[2]! : message });
    return [];
  }
  const cells = spec.variants.map((v) => (typeof v === 'string' ? { name: v, variant: v, ablations: {} } : { name: v.name ?? v.variant, variant: v.variant, ablations: v.ablations ?? {} }));
  const limits = Object.fromEntries(Object.entries(spec.limits ?? {}).filter((kv): kv is [string, number | boolean] => typeof kv[1] !== 'string'));
  const top = lines.lineOf(['arch']) ?? 1;
  const ok = checkEntry(
    { arch: spec.arch, tasks: spec.tasks, variants: cells.map((c) => c.variant), limits: Object.keys(limits) },
    { arch: top, task: (j) => lines.lineOf(['tasks', j]) ?? top, variant: (j) => lines.lineOf(['variants', j]) ?? top, limit: (id) => lines.lineOf(['limits', id]) ?? top },
    input,
    file,
    problems,
  );
  if (!ok) return [];
  const out: TestCase[] = [];
  for (const task of spec.tasks.filter((t) => ok.okTasks.has(t))) {
    for (const seed of seedList(spec.seeds)) {
      cells.forEach((cell, j) => {
        if (!ok.okVariants.has(cell.variant)) return;
        const c: TestCase = {
          id: '',
          arch: spec.arch,
          task,
          seed,
          variant: cell.variant,
          cell: cell.name,
          ...(Object.keys(cell.ablations).length ? { ablations: cell.ablations } : {}),
          model: spec.model.name,
          ...(spec.model.baseUrl ? { baseUrl: spec.model.baseUrl } : {}),
          ...(Object.keys(limits).length ? { limits } : {}),
          source: { file, line: lines.lineOf(['variants', j]) ?? top },
        };
        c.id = caseId(c);
        out.push(c);
      });
    }
  }
  return out;
}

/** Each architecture's default task, seed 0, the reference model: what a workspace without a tests file gets. */
export function defaultCases(catalog: TestCatalog): TestCase[] {
  const out: TestCase[] = [];
  for (const arch of catalog.archs.values()) {
    const task = arch.tasks[0];
    if (task === undefined) continue;
    const c: TestCase = { id: '', arch: arch.id, task, seed: 0, model: REFERENCE };
    c.id = caseId(c);
    out.push(c);
  }
  return out;
}

/**
 * All tests: the tests file's, then each sweep file's (sorted by path); a test two sources name is listed once,
 * from the first. Without either source, the default set.
 */
export function discoverTests(input: DiscoveryInput): Discovery {
  const problems: FileProblem[] = [];
  const cases: TestCase[] = [];
  if (input.testsFile) cases.push(...fromTestsFile(input, problems));
  for (const s of [...input.sweeps].sort((a, b) => a.path.localeCompare(b.path))) {
    if (input.parseSweep) cases.push(...fromSweep(s, input, problems, yamlLineIndex(s.text)));
  }
  const seen = new Set<string>();
  const unique = cases.filter((c) => (seen.has(c.id) ? false : (seen.add(c.id), true)));
  if (!input.testsFile && input.sweeps.length === 0) return { cases: defaultCases(input.catalog), problems, isDefaultSet: true };
  return { cases: unique, problems, isDefaultSet: false };
}

export interface TreeNode {
  id: string;
  label: string;
  /** Zero-padded, so seeds sort as numbers. */
  sortText?: string;
  /** Leaves only: the test they run. */
  testCase?: TestCase;
  children: TreeNode[];
}

function modelNote(model: string): string {
  return model === REFERENCE ? '' : ` · ${model}`;
}

/** architecture -> task -> seed (-> variant). Order: as discovered; seeds by number. */
export function buildTree(cases: readonly TestCase[], catalog: TestCatalog): TreeNode[] {
  const roots: TreeNode[] = [];
  const byId = new Map<string, TreeNode>();
  const child = (parent: TreeNode[] | undefined, id: string, make: () => TreeNode): TreeNode => {
    let n = byId.get(id);
    if (!n) {
      n = make();
      byId.set(id, n);
      (parent ?? roots).push(n);
    }
    return n;
  };
  for (const c of cases) {
    const arch = child(undefined, c.arch, () => ({ id: c.arch, label: catalog.archs.get(c.arch)?.label ?? c.arch, children: [] }));
    const task = child(arch.children, `${c.arch}/${c.task}`, () => ({ id: `${c.arch}/${c.task}`, label: c.task, children: [] }));
    const seedLabel = `seed ${c.seed}${modelNote(c.model)}`;
    const sortText = `${String(c.seed).padStart(6, '0')}${c.model}`;
    if (c.cell === undefined) {
      child(task.children, c.id, () => ({ id: c.id, label: seedLabel, sortText, testCase: c, children: [] }));
    } else {
      const seed = child(task.children, seedNodeId(c), () => ({ id: seedNodeId(c), label: seedLabel, sortText, children: [] }));
      child(seed.children, c.id, () => ({ id: c.id, label: c.cell!, testCase: c, children: [] }));
    }
  }
  return roots;
}

/** The leaves under the given node ids (all leaves when none are given), minus those under excluded ids. */
export function selectCases(roots: readonly TreeNode[], include: readonly string[] | undefined, exclude: readonly string[] = []): TestCase[] {
  const out: TestCase[] = [];
  const skip = new Set(exclude);
  const seen = new Set<string>();
  const walk = (n: TreeNode) => {
    if (skip.has(n.id)) return;
    if (n.testCase && !seen.has(n.id)) {
      seen.add(n.id);
      out.push(n.testCase);
    }
    n.children.forEach(walk);
  };
  const find = (nodes: readonly TreeNode[], id: string): TreeNode | undefined => {
    for (const n of nodes) {
      if (n.id === id) return n;
      const hit = find(n.children, id);
      if (hit) return hit;
    }
    return undefined;
  };
  if (!include) roots.forEach(walk);
  else for (const id of include) {
    const n = find(roots, id);
    if (n) walk(n);
  }
  return out;
}

/**
 * The tests a saved prompt file affects: those whose architecture uses it (its workspace override under
 * prompts/<arch>/, or the built-in one when the workspace has none). `promptsByArch` maps each architecture to the
 * paths its roles resolve to.
 */
export function casesUsingPrompt(cases: readonly TestCase[], savedPath: string, promptsByArch: ReadonlyMap<string, readonly string[]>): TestCase[] {
  const norm = (p: string) => p.replace(/\\/g, '/');
  const saved = norm(savedPath);
  const archs = new Set([...promptsByArch].filter(([, paths]) => paths.some((p) => norm(p) === saved)).map(([arch]) => arch));
  return cases.filter((c) => archs.has(c.arch));
}

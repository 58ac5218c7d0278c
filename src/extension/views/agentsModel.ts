// The Agents tree as plain data (pure): architecture -> Topologies (roles each calls), Prompts (the role's file:
// the workspace's prompts/<arch>/<file> when present, else the built-in one, as launchRun resolves them) and
// Variants (default, built-in, workspace; the active one marked). A workspace architecture's prompts are in its own
// folder; one the loader refused is an error item naming file:line and the cause.
import type { ArchitectureDefinition } from '../../core/architecture/types.js';
import type { VariantSet } from '../../core/prompt/variants.js';
import { variantChoices } from '../prompt/variantChoices.js';

export type AgentNode =
  | { kind: 'arch'; id: string; label: string; description: string; tooltip: string; children: AgentNode[] }
  | { kind: 'folder'; id: string; label: string; children: AgentNode[] }
  | { kind: 'topology'; id: string; label: string; description: string; tooltip: string }
  | { kind: 'prompt'; id: string; label: string; description: string; tooltip: string; arch: string; role: string; path: string; override: boolean }
  | { kind: 'variant'; id: string; label: string; description: string; tooltip: string; arch: string; name: string; active: boolean }
  | { kind: 'error'; id: string; label: string; description: string; tooltip: string; path: string; line: number };

export interface PromptLocations {
  /** <workspace>/prompts, or undefined without a folder. */
  workspacePromptRoot?: string;
  /** The root of the built-in prompts (`<root>/<arch>/prompts/<file>`). */
  builtInPromptRoot: string;
  /** Workspace files present, as "<arch>/<file>". */
  overrides: ReadonlySet<string>;
}

export type ArchMeta = Pick<ArchitectureDefinition, 'id' | 'label' | 'description' | 'paper' | 'roles' | 'topologies' | 'defaultTopology' | 'builtInVariants' | 'folder'>;

/** A workspace architecture folder the loader refused (RefusedArchitecture). */
export interface RefusedArch {
  id: string;
  file: string;
  line?: number;
  message: string;
}

export function buildAgentsTree(archs: readonly ArchMeta[], where: PromptLocations, variants: VariantSet, refused: readonly RefusedArch[] = []): AgentNode[] {
  const errors = refused.map((r): AgentNode => {
    const at = `${r.file}${r.line !== undefined ? `:${r.line}` : ''}`;
    return { kind: 'error', id: `refused/${r.id}`, label: r.id, description: `not loaded: ${r.message}`, tooltip: `${at}: architecture '${r.id}' refused: ${r.message}`, path: r.file, line: r.line ?? 1 };
  });
  return [...archs.map((a) => archNode(a, where, variants)), ...errors];
}

function archNode(a: ArchMeta, where: PromptLocations, variants: VariantSet): AgentNode {
  const topologies: AgentNode[] = Object.entries(a.topologies).map(([id, t]) => ({
    kind: 'topology',
    id: `${a.id}/topology/${id}`,
    label: id === a.defaultTopology ? `${id} (default)` : id,
    description: t.roles.join(', '),
    tooltip: `${t.label}: ${t.description}\nRoles: ${t.roles.join(', ')}`,
  }));
  const prompts: AgentNode[] = a.roles.map((r) => {
    const override = where.workspacePromptRoot !== undefined && where.overrides.has(`${a.id}/${r.promptFile}`);
    // A workspace architecture's own prompts are the user's files, edited in place (its folder's prompts/).
    const own = a.folder !== undefined;
    const path = override ? `${where.workspacePromptRoot}/${a.id}/${r.promptFile}` : own ? `${a.folder}/prompts/${r.promptFile}` : `${where.builtInPromptRoot}/${a.id}/prompts/${r.promptFile}`;
    return {
      kind: 'prompt',
      id: `${a.id}/prompt/${r.id}`,
      label: r.promptFile,
      description: override ? 'workspace' : own ? 'architecture folder' : 'built-in',
      tooltip: `${r.label}: ${r.description}\n${override ? 'Workspace override' : own ? 'Prompt in the architecture\'s folder' : 'Built-in prompt (copy it to the workspace to edit)'}: ${path}`,
      arch: a.id,
      role: r.id,
      path,
      override: override || own,
    };
  });
  const variantNodes: AgentNode[] = variantChoices(variants, a.builtInVariants).map((v) => ({
    kind: 'variant',
    id: `${a.id}/variant/${v.name}`,
    label: v.active ? `${v.name} (active)` : v.name,
    description: [v.source, v.agent ? `agent ${v.agent}` : undefined, v.off.length ? `${v.off.length} off` : undefined].filter(Boolean).join(' · '),
    tooltip: [v.description, v.off.length ? `Off: ${v.off.join(', ')}` : 'Every ablation on', v.active ? 'Active variant' : 'Click to make it the active variant'].filter(Boolean).join('\n'),
    arch: a.id,
    name: v.name,
    active: v.active,
  }));
  return {
    kind: 'arch',
    id: a.id,
    label: a.label,
    description: a.folder !== undefined ? `${a.id} · workspace` : a.id,
    tooltip: `${a.description}\nPaper: ${a.paper}${a.folder !== undefined ? `\nFolder: ${a.folder}` : ''}`,
    children: [
      { kind: 'folder', id: `${a.id}/topologies`, label: 'Topologies', children: topologies },
      { kind: 'folder', id: `${a.id}/prompts`, label: 'Prompts', children: prompts },
      { kind: 'folder', id: `${a.id}/variants`, label: 'Variants', children: variantNodes },
    ],
  };
}

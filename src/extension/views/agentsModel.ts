// The Agents tree as plain data (pure): architecture -> Topologies (roles each calls), Prompts (the role's file:
// the workspace's prompts/<arch>/<file> when present, else the built-in one, as launchRun resolves them) and
// Variants (default, built-in, workspace; the active one marked).
import type { ArchitectureDefinition } from '../../core/architecture/types.js';
import type { VariantSet } from '../../core/prompt/variants.js';
import { variantChoices } from '../prompt/variantChoices.js';

export type AgentNode =
  | { kind: 'arch'; id: string; label: string; description: string; tooltip: string; children: AgentNode[] }
  | { kind: 'folder'; id: string; label: string; children: AgentNode[] }
  | { kind: 'topology'; id: string; label: string; description: string; tooltip: string }
  | { kind: 'prompt'; id: string; label: string; description: string; tooltip: string; arch: string; role: string; path: string; override: boolean }
  | { kind: 'variant'; id: string; label: string; description: string; tooltip: string; arch: string; name: string; active: boolean };

export interface PromptLocations {
  /** <workspace>/prompts, or undefined without a folder. */
  workspacePromptRoot?: string;
  /** The root of the built-in prompts (`<root>/<arch>/prompts/<file>`). */
  builtInPromptRoot: string;
  /** Workspace files present, as "<arch>/<file>". */
  overrides: ReadonlySet<string>;
}

export type ArchMeta = Pick<ArchitectureDefinition, 'id' | 'label' | 'description' | 'paper' | 'roles' | 'topologies' | 'defaultTopology' | 'builtInVariants'>;

export function buildAgentsTree(archs: readonly ArchMeta[], where: PromptLocations, variants: VariantSet): AgentNode[] {
  return archs.map((a): AgentNode => {
    const topologies: AgentNode[] = Object.entries(a.topologies).map(([id, t]) => ({
      kind: 'topology',
      id: `${a.id}/topology/${id}`,
      label: id === a.defaultTopology ? `${id} (default)` : id,
      description: t.roles.join(', '),
      tooltip: `${t.label}: ${t.description}\nRoles: ${t.roles.join(', ')}`,
    }));
    const prompts: AgentNode[] = a.roles.map((r) => {
      const override = where.workspacePromptRoot !== undefined && where.overrides.has(`${a.id}/${r.promptFile}`);
      const path = override ? `${where.workspacePromptRoot}/${a.id}/${r.promptFile}` : `${where.builtInPromptRoot}/${a.id}/prompts/${r.promptFile}`;
      return {
        kind: 'prompt',
        id: `${a.id}/prompt/${r.id}`,
        label: r.promptFile,
        description: override ? 'workspace' : 'built-in',
        tooltip: `${r.label}: ${r.description}\n${override ? 'Workspace override' : 'Built-in prompt (copy it to the workspace to edit)'}: ${path}`,
        arch: a.id,
        role: r.id,
        path,
        override,
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
      description: a.id,
      tooltip: `${a.description}\nPaper: ${a.paper}`,
      children: [
        { kind: 'folder', id: `${a.id}/topologies`, label: 'Topologies', children: topologies },
        { kind: 'folder', id: `${a.id}/prompts`, label: 'Prompts', children: prompts },
        { kind: 'folder', id: `${a.id}/variants`, label: 'Variants', children: variantNodes },
      ],
    };
  });
}

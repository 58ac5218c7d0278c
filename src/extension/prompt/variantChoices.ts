// The variant picker's and the Agents tree's list of variants (pure, light: no YAML or template code, so the
// tree can be built without loading the prompt renderer).
import type { VariantSet, VariantSpec } from '../../core/prompt/variants.js';

/** core/prompt/variants.ts DEFAULT_VARIANT (a test checks they agree; importing it would load the renderer). */
export const DEFAULT_VARIANT_NAME = 'default';

export interface VariantChoice {
  name: string;
  source: 'workspace' | 'built-in' | 'default';
  description?: string;
  /** Agent topology the variant selects, if any. */
  agent?: string;
  active: boolean;
  /** Ablation ids the variant switches off. */
  off: string[];
}

/** `default`, then the built-ins, then the workspace's own (a workspace entry shadows a built-in of the same name). */
export function variantChoices(set: VariantSet, builtIns: Record<string, VariantSpec>): VariantChoice[] {
  const out = new Map<string, VariantChoice>();
  const add = (name: string, source: VariantChoice['source'], spec: VariantSpec) =>
    out.set(name, { name, source, description: spec.description, agent: spec.agent, active: name === set.active, off: [...(spec.off ?? [])] });
  add(DEFAULT_VARIANT_NAME, 'default', { description: 'every ablation on' });
  for (const [name, spec] of Object.entries(builtIns)) add(name, 'built-in', spec);
  for (const [name, spec] of Object.entries(set.variants)) add(name, 'workspace', spec);
  if (!out.has(set.active)) out.set(set.active, { name: set.active, source: 'workspace', description: 'unknown variant (not in the file or built in)', active: true, off: [] });
  return [...out.values()];
}

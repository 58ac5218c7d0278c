// Pure edits and queries on `.waypoint/variants.yaml` for the ablation CodeLens, the variant status bar item and
// the Agents tree. Parsing and the one-switch edit are core's (core/prompt/variants.ts); this file adds what the
// editor needs: state of an id in a variant, flips that keep a built-in variant's topology, the active variant.
import { parseDocument } from 'yaml';
import { DEFAULT_VARIANT, parseVariants, resolveVariant, setAblationInVariantsText, type VariantSet, type VariantSpec } from '../../core/prompt/variants.js';

export interface VariantsRead {
  set: VariantSet;
  /** One line (cause first, then file:line) when the file exists but cannot be used; the set is then the default. */
  error?: string;
}

export function readVariants(path: string, text: string | undefined): VariantsRead {
  if (text === undefined) return { set: { active: DEFAULT_VARIANT, variants: {} } };
  try {
    return { set: parseVariants(path, text) };
  } catch (e) {
    return { set: { active: DEFAULT_VARIANT, variants: {} }, error: e instanceof Error ? e.message : String(e) };
  }
}

export interface AblationStates {
  /** The variant the states are for (the file's `active`, or `default` when that name is unknown). */
  variant: string;
  /** Set when the active name is unknown for this architecture. */
  problem?: string;
  /** `defaultOn` false for `default="off"` blocks, which are on only where a variant turns them on. */
  isOn(id: string, defaultOn?: boolean): boolean;
}

/** On/off of every ablation id in the active variant: ids a variant does not mention keep their block's default. */
export function ablationStates(set: VariantSet, builtIns: Record<string, VariantSpec>, variant: string = set.active): AblationStates {
  try {
    const resolved = resolveVariant(variant, set, builtIns);
    return { variant, isOn: (id, defaultOn = true) => resolved.ablations[id] ?? defaultOn };
  } catch (e) {
    return { variant: DEFAULT_VARIANT, problem: e instanceof Error ? e.message : String(e), isOn: (_id, defaultOn = true) => defaultOn };
  }
}

/**
 * Sets one ablation in `variant` and returns the new file text (created from nothing when `text` is empty). A
 * variant that so far exists only as a built-in (MALMM's `ma`, `sa`, ...) is first copied into the file with its
 * topology and switches, because a workspace entry replaces the built-in one as a whole.
 */
export function setAblationText(text: string, variant: string, builtIn: VariantSpec | undefined, id: string, on: boolean, defaultOn = true): string {
  let base = text;
  const existing = base.trim() ? parseVariants(VARIANTS_LABEL, base).variants[variant] : undefined;
  if (!existing && builtIn) {
    const doc = parseDocument(base.trim() ? base : 'variants: {}\n');
    if (!doc.has('variants') || doc.get('variants') === null) doc.set('variants', doc.createNode({}));
    const copy: Record<string, unknown> = {};
    if (builtIn.description) copy.description = builtIn.description;
    if (builtIn.agent) copy.agent = builtIn.agent;
    if (builtIn.off?.length) copy.off = [...builtIn.off];
    if (builtIn.on?.length) copy.on = [...builtIn.on];
    const node = doc.createNode(copy);
    for (const key of ['off', 'on']) {
      const seq = node.get(key, true) as { flow?: boolean } | undefined;
      if (seq) seq.flow = true;
    }
    doc.setIn(['variants', variant], node);
    base = doc.toString();
  }
  return setAblationInVariantsText(base, variant, id, on, defaultOn);
}

const VARIANTS_LABEL = '.waypoint/variants.yaml';

/** Sets `active:` (adds it at the top when missing), keeping the rest of the file. */
export function setActiveVariantText(text: string, name: string): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new Error(`variant name '${name}' is not valid: use letters, digits, _ . -`);
  const doc = parseDocument(text.trim() ? text : '');
  if (doc.contents === null) return `active: ${name}\nvariants: {}\n`;
  doc.set('active', name);
  return doc.toString();
}

// What Code as Policies declares: one role, one topology, the MALMM robot API on the embedded tabletop, no limits
// of its own (it makes one call; the engine's wall-clock and sim-time limits still apply).
import type { ArchitectureManifest } from 'waypoint/architecture';

export const CAP_MANIFEST: ArchitectureManifest = {
  id: 'cap',
  label: 'Code as Policies',
  description: 'One model call writes the whole robot program from the task and the object coordinates; it runs once, without feedback (Liang et al.).',
  paper: 'Code as Policies: Language Model Programs for Embodied Control (Liang et al., ICRA 2023), as the baseline of MALMM Table I',
  api: 'malmm',
  simulator: 'tabletop',
  roles: [
    {
      id: 'policy',
      label: 'Policy',
      promptFile: 'policy.prompt',
      description: 'Writes one Python program for the whole task.',
      variables: { task: 'string', objects: 'string', ee_position: 'string', table_top_z: 'string', x_range: 'string', y_range: 'string', axes: 'string', 'api(array)': { signature: 'string', doc: 'string' } },
    },
  ],
  topologies: { cap: { label: 'CaP', description: 'One call, one program, run once.', roles: ['policy'] } },
  defaultTopology: 'cap',
  builtInVariants: {
    few_shot: { description: 'CaP with its few-shot examples (the original method)', agent: 'cap' },
    zero_shot: { description: "MALMM's CaP baseline: examples replaced by coordinate definitions and function docs", agent: 'cap', off: ['policy.examples'] },
  },
  limits: [],
  endReasons: {},
  metrics: {},
};

// MALMM's declarations (Singh et al.): roles, the paper's topologies (Table II), limits and end reasons.
import type { ArchitectureManifest } from '../types.js';

export const MALMM_MANIFEST: ArchitectureManifest = {
  id: 'malmm',
  label: 'MALMM',
  description: 'Supervisor routes a group chat between a Planner, a Coder and a code Executor (Singh et al.).',
  paper: 'MALMM: Multi-Agent Large Language Models for Zero-Shot Robotics Manipulation',
  api: 'malmm',
  simulator: 'tabletop',
  roles: [
    { id: 'supervisor', label: 'Supervisor', promptFile: 'supervisor.prompt', description: 'Chooses the next speaker from the whole chat.' },
    { id: 'planner', label: 'Planner', promptFile: 'planner.prompt', description: 'Describes the scene, plans, checks each step and re-plans.' },
    { id: 'coder', label: 'Coder', promptFile: 'coder.prompt', description: 'Writes one Python block per step.' },
    { id: 'agent', label: 'Single agent', promptFile: 'sa.prompt', description: 'Plans and codes alone (SA baseline).' },
  ],
  topologies: {
    malmm: { label: 'MALMM', description: 'Supervisor + Planner + Coder + Executor, dynamic routing.', roles: ['supervisor', 'planner', 'coder'] },
    ma: { label: 'MA', description: 'Fixed cycle Planner -> Coder -> Executor, same prompts, no Supervisor.', roles: ['planner', 'coder'] },
    sa: { label: 'SA', description: 'One agent plans and codes, with the new state after every block.', roles: ['agent'] },
    sa_nofeedback: { label: 'SA without feedback', description: 'One agent writes all the code at once; it runs once without revision.', roles: ['agent'] },
  },
  defaultTopology: 'malmm',
  builtInVariants: {
    malmm: { description: 'Full MALMM (Supervisor, Planner, Coder, Executor)', agent: 'malmm' },
    ma: { description: 'MA baseline: fixed Planner -> Coder -> Executor cycle', agent: 'ma' },
    sa: { description: 'SA baseline: one agent plans and codes, with feedback', agent: 'sa' },
    sa_nofeedback: {
      description: 'SA without feedback: one pass, all code at once',
      agent: 'sa_nofeedback',
      off: ['sa.step_feedback', 'sa.step_by_step_code'],
    },
  },
  limits: [
    {
      id: 'maxTurns',
      label: 'Turn cap',
      type: 'int',
      default: 150,
      min: 1,
      description: 'Speaker turns before the episode stops (every Supervisor routing, role answer and Executor run is one turn).',
    },
    {
      id: 'maxConsecutiveErrors',
      label: 'Consecutive errors',
      type: 'int',
      default: 5,
      min: 1,
      description: 'Failed code blocks or unparseable answers in a row before the episode stops (the paper gives up after five).',
    },
  ],
  endReasons: {},
  metrics: {},
};

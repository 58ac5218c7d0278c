// Code as Policies (Liang et al., ICRA 2023) as a workspace architecture: the baseline MALMM (Table I) and LM
// Trajectory Generators compare against. One role writes the whole program from the task and the object
// coordinates; it runs once, without feedback, and the simulator's check decides. Copy this folder to
// <workspace>/.waypoint/architectures/cap/ and run `waypoint run --arch cap --task stack_blocks`.
import type { ArchitectureDefinition } from 'waypoint/architecture';
import { runCap } from './loop.js';
import { CAP_MANIFEST } from './manifest.js';
import { registerCapPolicies } from './reference/policy.js';

const cap: ArchitectureDefinition = {
  ...CAP_MANIFEST,
  run: runCap,
  registerReferencePolicies: registerCapPolicies,
};

export default cap;

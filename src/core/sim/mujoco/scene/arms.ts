// Builds the arm an ArmSpec names: the Franka-class 7-DoF arm (default) or the UR5E-class 6-DoF arm, each with
// its gripper (and a torso for RoCo's humanoid).
import type { CollisionBits } from './collisionGroups.js';
import { buildPandaArm, type BuiltArm } from './pandaArm.js';
import type { ArmSpec } from './sceneSpec.js';
import { buildUr5eArm } from './ur5eArm.js';

export type { BuiltArm };

export function buildArm(spec: ArmSpec, bits: CollisionBits): BuiltArm {
  return (spec.model ?? 'panda') === 'ur5e' ? buildUr5eArm(spec, bits) : buildPandaArm(spec, bits);
}

// Builds the arm an ArmSpec names: the Franka-class 7-DoF arm (default), the UR5E-class 6-DoF arm or the KUKA iiwa
// 7 (with an Allegro-class hand), each with its gripper (and a torso for RoCo's humanoid).
import type { CollisionBits } from './collisionGroups.js';
import { buildIiwaArm } from './iiwaArm.js';
import { buildPandaArm, type BuiltArm } from './pandaArm.js';
import type { ArmSpec } from './sceneSpec.js';
import { buildUr5eArm } from './ur5eArm.js';

export type { BuiltArm };

export function buildArm(spec: ArmSpec, bits: CollisionBits): BuiltArm {
  switch (spec.model ?? 'panda') {
    case 'ur5e':
      return buildUr5eArm(spec, bits);
    case 'iiwa':
      return buildIiwaArm(spec, bits);
    default:
      return buildPandaArm(spec, bits);
  }
}

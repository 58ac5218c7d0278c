// move_pan_left (LM Trajectory Generators: "move the pan to the left", the paper's example of an object part: "the
// handle of a pan"): a 16 cm pan with a 12 cm handle, too wide to grasp anywhere but the handle. Success: the pan
// moved >= 10 cm to the left (-x) and < 8 cm in y since the start, upright, released, at rest.
import type { ObjectSpec, PartSpec } from '../../scene/sceneSpec.js';
import { mjcfSafe } from '../../scene/sceneSpec.js';
import { ringParts, rgbaOf } from '../sceneObjects.js';
import { atRest, find, held, tiltOf, verdict } from '../checks.js';
import { LayoutBuilder } from '../layout.js';
import { SINGLE_ARM_WORKSPACE, singleArmScene } from '../tabletopCommon.js';
import type { TaskDefinition } from '../taskDefinition.js';
import { startPoses, startPosesMonitor } from './startPoses.js';

const R = 0.08;
const H = 0.04;
const HANDLE: [number, number, number] = [0.12, 0.024, 0.016];

/** A pan: a ring wall on a base, its handle along local +x; the frame is the centre of the whole bounding box. */
export function pan(name: string, color: string): ObjectSpec {
  const shift = HANDLE[0] / 2; // the bounding box centre, from the pan's centre along +x
  const body = ringParts(R, H, 0.006, 0.008, 16).map((p): PartSpec => ({ ...p, pos: [(p.pos?.[0] ?? 0) - shift, p.pos?.[1] ?? 0, p.pos?.[2] ?? 0] }));
  const handleX = R + HANDLE[0] / 2 - 0.004 - shift;
  const handleZ = H / 2 - HANDLE[2] / 2 - 0.004;
  return {
    name,
    mjcfName: mjcfSafe(name),
    shape: 'compound',
    size: [2 * R + HANDLE[0], 2 * R, H],
    color,
    rgba: rgbaOf(color),
    massKg: 0.5,
    parts: [...body, { shape: 'box', size: [HANDLE[0] / 2, HANDLE[1] / 2, HANDLE[2] / 2], pos: [handleX, 0, handleZ], rgba: [0.15, 0.12, 0.1, 1] }],
    features: [{ name: 'handle', pos: [handleX, 0, handleZ], size: HANDLE }],
  };
}

export function movePanLeftTask(): TaskDefinition {
  const p = pan('pan', 'grey');
  const objects = [p];
  return {
    info: {
      id: 'move_pan_left',
      description: 'Move a pan at least 10 cm to the left; only its handle fits in the gripper.',
      instruction: 'move the pan to the left',
      suite: 'trajectory',
      arms: 1,
      imitates: 'LM Trajectory Generators: move the pan to the left (by its handle)',
    },
    workspace: SINGLE_ARM_WORKSPACE,
    defaultApi: 'lmtg',
    apis: ['lmtg'],
    scene: singleArmScene('move-pan-left', objects),
    layout(rng) {
      const l = new LayoutBuilder(rng);
      l.at(p, [l.uniform(0.0, 0.08), l.uniform(0.1, 0.2)], l.uniform(-0.6, 0.6));
      return l.placements(objects);
    },
    monitor: () => startPosesMonitor(),
    check(view) {
      const start = startPoses(view)?.[p.name];
      if (!start) return verdict('move_pan_left', ['the pan has not moved'], '');
      const o = find(view, p.name);
      const dx = o.pos[0] - start.pos[0];
      const dy = o.pos[1] - start.pos[1];
      const problems: string[] = [];
      if (dx > -0.1) problems.push(`the pan moved ${(-dx).toFixed(3)} m to the left (needs 0.1)`);
      if (Math.abs(dy) > 0.08) problems.push(`the pan moved ${Math.abs(dy).toFixed(3)} m in y (at most 0.08)`);
      if (tiltOf(o) > 0.2) problems.push('the pan is not flat on the table');
      if (held(view).includes(p.name)) problems.push('the pan is still held');
      if (!atRest(o)) problems.push('the pan is still moving');
      return verdict('move_pan_left', problems, `the pan moved ${(-dx).toFixed(3)} m to the left`);
    },
  };
}

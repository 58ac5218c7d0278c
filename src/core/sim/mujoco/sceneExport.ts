// A task's scene as a standalone MJCF file: the exact XML the embedded simulator compiles, plus a keyframe
// holding the simulated state at the moment of export (after reset: the seed's settled layout). MuJoCo's own
// tools load it (`python -m mujoco.viewer --mjcf scene.xml`, then load key 0), and the simulator benchmark steps
// this same file in mujoco-js and in native MuJoCo, so both compare like with like.
import { num } from './scene/mjcf.js';

/** The part of MuJoCo's state a <key> element can hold (flat arrays, MuJoCo's layouts). */
export interface KeyframeState {
  timeSecs: number;
  qpos: ArrayLike<number>;
  qvel: ArrayLike<number>;
  act: ArrayLike<number>;
  ctrl: ArrayLike<number>;
  /** Mocap bodies (the task's fixtures): position [x y z] and quaternion [w x y z] per body. */
  mpos: ArrayLike<number>;
  mquat: ArrayLike<number>;
}

export interface SceneExportInfo {
  taskId: string;
  seed: number;
  mujocoVersion: string;
  /** Grasps active at export time: a keyframe cannot hold an active weld, so such an export is refused. */
  activeGrasps: number;
}

export const KEYFRAME_NAME = 'reset';

const list = (v: ArrayLike<number>) => Array.from(v, num).join(' ');

/** The <keyframe> element for `state` (empty arrays are left out, as MuJoCo expects). */
export function keyframeXml(state: KeyframeState): string {
  const attrs: [string, ArrayLike<number>][] = [
    ['qpos', state.qpos],
    ['qvel', state.qvel],
    ['act', state.act],
    ['ctrl', state.ctrl],
    ['mpos', state.mpos],
    ['mquat', state.mquat],
  ];
  const body = attrs
    .filter(([, v]) => v.length > 0)
    .map(([k, v]) => `\n      ${k}="${list(v)}"`)
    .join('');
  return `  <keyframe>\n    <key name="${KEYFRAME_NAME}" time="${num(state.timeSecs)}"${body}/>\n  </keyframe>\n`;
}

/**
 * The scene XML with a comment saying where it came from and the keyframe appended before `</mujoco>`.
 * Nothing else changes, so stripping the comment and the keyframe gives back the simulator's XML exactly.
 */
export function sceneWithKeyframe(sceneXml: string, state: KeyframeState, info: SceneExportInfo): string {
  if (info.activeGrasps > 0) throw new Error(`scene export: ${info.activeGrasps} grasp(s) active; a keyframe cannot hold an active grasp weld (export before a grasp, e.g. right after reset)`);
  const end = sceneXml.lastIndexOf('</mujoco>');
  if (end < 0) throw new Error('scene export: the scene XML has no </mujoco>');
  const comment = [
    '<!--',
    `  Waypoint tabletop scene: task ${info.taskId}, seed ${info.seed}, written for MuJoCo ${info.mujocoVersion} (mujoco-js).`,
    `  Keyframe '${KEYFRAME_NAME}' (index 0) is the simulator's state after reset: objects placed by the seed and settled.`,
    '  Load it with mj_resetDataKeyframe(m, d, 0), or in the viewer (python -m mujoco.viewer) with Load key.',
    '  Grasps are weld equalities (inactive here) that Waypoint switches on when both finger pads touch an object;',
    '  the contact sensors are what its collision and grasp detection read.',
    '-->',
  ].join('\n');
  return `${comment}\n${sceneXml.slice(0, end).replace(/\s*$/, '\n')}${keyframeXml(state)}${sceneXml.slice(end)}${sceneXml.endsWith('\n') ? '' : '\n'}`;
}

/** Inverse of sceneWithKeyframe for tests and the benchmark's sanity check: the simulator's XML. */
export function stripExport(exported: string): string {
  return exported
    .replace(/^<!--[\s\S]*?-->\n/, '')
    .replace(/\n  <keyframe>[\s\S]*?<\/keyframe>\n/, '\n')
    .replace(/\n$/, '');
}

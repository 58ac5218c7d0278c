// MALMM's text observation (the "Code output" state dump of Singh et al., Appendix E), with numbers fixed to
// 4 decimals. The reference policy parses this text, so formatMalmmState and parseMalmmState must stay inverse
// (test/unit/core/sim/observationText.test.ts).
import type { ObjectState, WorldState } from '../../protocol/trace.js';

function n4(x: number): string {
  const s = x.toFixed(4);
  return s === '-0.0000' ? '0.0000' : s;
}

function vec(v: readonly number[]): string {
  return `[${v.map(n4).join(' ')}]`;
}

export interface MalmmStateFormat {
  /**
   * The end effector's yaw and gripper lines. The paper's dump has only the position and the grasp line; MALMM's
   * `waypoint` variant adds these two (ablation `state.ee_details`). Default true for the simulator's own text.
   */
  eeDetails?: boolean;
}

/** One block per object (scene order), then the end-effector block. */
export function formatMalmmState(state: WorldState, format: MalmmStateFormat = {}): string {
  const lines: string[] = [];
  for (const o of state.objects) {
    lines.push(
      `**${o.name}** :`,
      `Center Position: ${vec(o.pos)}`,
      `Orientation: ${vec(o.euler)}`,
      `Height: ${n4(o.size[2])}`,
      `Width: ${n4(o.size[1])}`,
      `Length: ${n4(o.size[0])}`,
      `Color: ${o.color}`,
    );
  }
  lines.push('**End-effector** :', `robot arm end-effector Position: ${vec(state.ee.pos)}`);
  if (format.eeDetails !== false) lines.push(`End-effector Orientation (yaw): ${n4(state.ee.yawRad)}`, `Gripper: ${state.gripperOpen ? 'open' : 'closed'}`);
  lines.push(state.grasped ? `Grasped Object: ${state.grasped}` : 'No object has been grasped');
  return lines.join('\n');
}

const NUM = '(-?\\d+(?:\\.\\d+)?(?:e[-+]?\\d+)?)';
const VEC3 = new RegExp(`^\\[\\s*${NUM}\\s+${NUM}\\s+${NUM}\\s*\\]$`, 'i');

function parseVec3(text: string, where: string): [number, number, number] {
  const m = VEC3.exec(text.trim());
  if (!m) throw new Error(`parseMalmmState: expected [x y z] in ${where}, got '${text.trim()}'`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function parseNum(text: string, where: string): number {
  const v = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(v)) throw new Error(`parseMalmmState: expected a number in ${where}, got '${text.trim()}'`);
  return v;
}

/** Inverse of formatMalmmState (up to the 4-decimal rounding). Throws with the line at fault on bad input. */
export function parseMalmmState(text: string): WorldState {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
  const objects: ObjectState[] = [];
  let ee: WorldState['ee'] | null = null;
  let gripperOpen = true;
  let grasped: string | null = null;
  let i = 0;
  const field = (prefix: string, name: string): string => {
    const line = lines[i++];
    if (line === undefined || !line.startsWith(prefix)) throw new Error(`parseMalmmState: expected '${prefix}' in the block of ${name}, got '${line ?? '<end of text>'}'`);
    return line.slice(prefix.length);
  };
  while (i < lines.length) {
    const header = /^\*\*(.+)\*\*\s*:$/.exec(lines[i]!);
    if (!header) throw new Error(`parseMalmmState: expected a '**name** :' header, got '${lines[i]}'`);
    const name = header[1]!;
    i++;
    if (name === 'End-effector') {
      const pos = parseVec3(field('robot arm end-effector Position:', name), 'End-effector Position');
      let yawRad = 0;
      if (lines[i]?.startsWith('End-effector Orientation (yaw):')) yawRad = parseNum(field('End-effector Orientation (yaw):', name), 'End-effector yaw');
      if (lines[i]?.startsWith('Gripper:')) {
        const g = field('Gripper:', name).trim();
        if (g !== 'open' && g !== 'closed') throw new Error(`parseMalmmState: Gripper must be 'open' or 'closed', got '${g}'`);
        gripperOpen = g === 'open';
      }
      const last = lines[i++];
      if (last === 'No object has been grasped') grasped = null;
      else if (last?.startsWith('Grasped Object:')) grasped = last.slice('Grasped Object:'.length).trim();
      else throw new Error(`parseMalmmState: expected the grasp line, got '${last ?? '<end of text>'}'`);
      ee = { pos, yawRad };
      continue;
    }
    const pos = parseVec3(field('Center Position:', name), `Center Position of ${name}`);
    const euler = parseVec3(field('Orientation:', name), `Orientation of ${name}`);
    const height = parseNum(field('Height:', name), `Height of ${name}`);
    const width = parseNum(field('Width:', name), `Width of ${name}`);
    const length = parseNum(field('Length:', name), `Length of ${name}`);
    const color = field('Color:', name).trim();
    objects.push({ name, pos, euler, size: [length, width, height], color });
  }
  if (!ee) throw new Error('parseMalmmState: no **End-effector** block');
  return { objects, ee, gripperOpen, grasped };
}

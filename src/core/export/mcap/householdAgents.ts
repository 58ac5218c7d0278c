// A symbolic household's agents in MCAP. The household has no trajectory samples, so each agent's frame is posed
// from the whole-scene observations: at the end of every step (the observation's `robots`: floor position and
// heading) and, inside the step, at each cell it walked (the observation's `paths`), spread evenly over the step so
// a player shows the walk. Frames sit on the floor (z = 0) with +x along the agent's heading. Each agent is drawn
// by a SceneEntity locked to its frame: a column up to its camera height, an arrow for its heading, its name.
import { householdOf } from '../../../protocol/household.js';
import type { EventOf } from '../../../protocol/trace.js';
import type { SceneEntity } from './sceneEntities.js';

export interface AgentPose {
  agent: string;
  /** Sim seconds. */
  tSecs: number;
  /** [x, y, z, qw, qx, qy, qz] in the world frame. */
  pose: number[];
}

const yawPose = (x: number, y: number, yawRad: number) => [x, y, 0, Math.cos(yawRad / 2), 0, 0, Math.sin(yawRad / 2)];

/** True for a whole-scene household observation (the one that carries every agent, the plan and the paths). */
export function isHouseholdScene(e: EventOf<'observation'>): boolean {
  return !e.agent && e.state.extra?.household !== undefined && (e.state.robots?.length ?? 0) > 0;
}

/**
 * Poses of every agent over the step that ends at `endSecs` and lasted `stepSecs`: the walked cells inside the step
 * (when the observation has the paths and the plan's cell size), then the pose at its end.
 */
export function agentPosesOfStep(e: EventOf<'observation'>, endSecs: number, stepSecs: number): AgentPose[] {
  const h = householdOf(e.state.extra);
  const out: AgentPose[] = [];
  for (const r of e.state.robots ?? []) {
    const path = h?.paths?.[r.name] ?? [];
    const end = h?.agents[r.name]?.cell;
    const cellM = h?.plan?.cellM;
    if (end && cellM && path.length > 2) {
      // Cells are [row, col], rows counted southwards; positions are relative to the final cell, whose world
      // position the observation gives.
      const n = path.length - 1;
      for (let i = 1; i < n; i++) {
        const [row, col] = path[i]!;
        const [pr, pc] = path[i - 1]!;
        const yaw = row === pr && col === pc ? r.yawRad : Math.atan2(pr - row, col - pc);
        out.push({ agent: r.name, tSecs: endSecs - stepSecs + (i / n) * stepSecs, pose: yawPose(r.pos[0] + (col - end[1]) * cellM, r.pos[1] - (row - end[0]) * cellM, yaw) });
      }
    }
    out.push({ agent: r.name, tSecs: endSecs, pose: yawPose(r.pos[0], r.pos[1], r.yawRad) });
  }
  return out;
}

// The run viewer's floor-plan colours, in team order.
const COLORS: [number, number, number][] = [[0.31, 0.6, 0.95], [0.95, 0.64, 0.31], [0.36, 0.79, 0.48], [0.78, 0.49, 0.87], [0.9, 0.82, 0.35]];

/** The agent drawn in its own frame: a column of its camera height, a heading arrow and its name above. */
export function agentEntity(name: string, index: number, heightM: number, frameId: string, time: { sec: number; nsec: number }): SceneEntity {
  const [r, g, b] = COLORS[index % COLORS.length]!;
  const color = { r, g, b, a: 1 };
  const at = (x: number, y: number, z: number) => ({ position: { x, y, z }, orientation: { x: 0, y: 0, z: 0, w: 1 } });
  return {
    timestamp: time, frame_id: frameId, id: `agent/${frameId}`, lifetime: { sec: 0, nsec: 0 }, frame_locked: true, metadata: [{ key: 'agent', value: name }],
    arrows: [{ pose: at(0, 0, 0.05), shaft_length: 0.2, shaft_diameter: 0.04, head_length: 0.1, head_diameter: 0.1, color }],
    cubes: [], spheres: [],
    cylinders: [{ pose: at(0, 0, heightM / 2), size: { x: 0.18, y: 0.18, z: heightM }, bottom_scale: 1, top_scale: 1, color }],
    lines: [], triangles: [],
    texts: [{ pose: at(0, 0, heightM + 0.2), billboard: true, font_size: 14, scale_invariant: true, color, text: name }],
    models: [],
  };
}
